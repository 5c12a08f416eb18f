"""gunicorn settings for the web process.

`gunicorn -c deploy/gunicorn.conf.py config.wsgi`
"""

import multiprocessing
import os

# Loopback unless told otherwise: nginx, on this host, is the only client (deploy/nginx),
# and the application trusts the X-Forwarded-Proto and X-Forwarded-For it sets. A container
# sets GUNICORN_BIND=0.0.0.0:8000 (the Dockerfile), its port published on loopback only.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Requests are short database reads and writes; matches run on Celery workers, not here.
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = 30
graceful_timeout = 30
# Workers are not recycled: a restart costs a Django start-up and a cold per-process cache,
# and at a few thousand requests it came every 11-20 s under load (leaderboard p95 of 1-2 s
# and dropped connections, against 62 ms without). The web process has no known leak; a
# deployment that finds one sets GUNICORN_MAX_REQUESTS, and the jitter of half as many
# again keeps the workers from restarting together.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 2
accesslog = "-"
errorlog = "-"
