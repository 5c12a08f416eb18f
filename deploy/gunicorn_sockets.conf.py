"""gunicorn settings for the sockets process: the lobby's live tables (WebSockets, ASGI).

`gunicorn -c deploy/gunicorn_sockets.conf.py config.asgi:application`

The pages and the API stay on the threaded WSGI workers of gunicorn.conf.py; nginx sends
``/ws/`` here (deploy/nginx/arena.conf). A socket is held open for a whole game and waits
almost always: one event loop per process holds thousands, where a thread would hold one.
"""

import multiprocessing
import os

# Loopback unless told otherwise, as the web process (gunicorn.conf.py): nginx is the only
# client. A container sets SOCKETS_BIND=0.0.0.0:8001, its port published on loopback only.
bind = os.environ.get("SOCKETS_BIND", "127.0.0.1:8001")
worker_class = "uvicorn_worker.UvicornWorker"
# One event loop per core: a frame is computed in Python (the game's state, the viewer's
# view), so more processes than cores only add switching. Every process hears every table
# through the Redis channel layer (CHANNEL_LAYERS), so a table's sockets may be spread over
# all of them.
workers = int(os.environ.get("SOCKETS_WORKERS", multiprocessing.cpu_count()))
# A socket lives as long as its game: only the graceful stop waits for them, and a client
# reconnects and is sent its frame again when a restart closes it.
timeout = 30
graceful_timeout = 30
max_requests = 0
accesslog = "-"
errorlog = "-"
