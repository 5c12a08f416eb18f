"""The lobby's WebSocket routes (config/asgi.py mounts them)."""

from typing import Any

from django.urls import path

from lobby.consumers import TableConsumer

# Django's path() routes channels' consumers as it routes views; its stubs know views only.
websocket_urlpatterns: list[Any] = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
