"""ASGI entry point: the pages and the API over HTTP, the lobby's live tables over WebSockets.

Served by gunicorn's uvicorn workers in production (deploy/gunicorn.conf.py) and by daphne's
runserver in the demo and the tests' live servers (daphne first in INSTALLED_APPS).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django is set up (apps loaded) before anything imports a model: the consumers do.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from lobby.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        # A page of another site may not open a socket with the visitor's session cookie:
        # the Origin must be one of ALLOWED_HOSTS. The session says who the viewer is, and
        # so which seat's cards its frames may hold.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
