"""A lobby table over a WebSocket (``/ws/tables/<id>/``): each socket is one viewer.

The socket sends its viewer's frame (``lobby.selectors.frame_for``) on connect and again
each time the table changes (``table.changed`` on the group ``table-<id>``, sent by
``lobby.live.publish`` after every committed change, from a web process or a worker). A
frame is never sent to a group: the message carries only the move count and the table's
revision, and each socket is sent the frame its own viewer may see, so a seat's socket never
holds another seat's cards. The sockets of one process share one read of the table per
revision (``lobby.selectors.shared_frame``): four seats in one process cost one read.

Client messages: ``{"type": "act", "action": str, "ply": int}``, ``{"type": "talk", "key":
str}``, ``{"type": "ping"}``. A refusal is answered to the sender only, as ``{"type":
"error", "status": int, "message": str}``; it changes nothing, so no frame follows.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, cast

from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from arena.errors import ServiceError
from lobby.live import group_name
from lobby.selectors import act_shared, shared_frame
from lobby.services import presence, table_talk

logger = logging.getLogger(__name__)

Viewer = AbstractBaseUser | AnonymousUser

CLOSE_NO_TABLE = 4404
"""The close code of a socket whose table does not exist or may not be watched."""


class Refusal(Exception):
    """A client message this consumer refuses before any service sees it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# The services and the frames are plain Django code, run with the database connection
# checks of channels' wrapper around each call, in the event loop's thread pool rather than
# the one thread channels uses by default: a process serves hundreds of sockets, and in one
# thread every socket's frame waited behind every other socket's database round trips
# (tests/bench/bench_live_tables.py: at 100 tables the median delivery fell from 127 ms to
# 50 ms). Each thread has its own connection; what the threads share is locked
# (selectors' shared state, the rebuilt games of game_state).
_frame = DatabaseSyncToAsync(shared_frame, thread_sensitive=False)
_act = DatabaseSyncToAsync(act_shared, thread_sensitive=False)
_talk = DatabaseSyncToAsync(table_talk, thread_sensitive=False)
_presence = DatabaseSyncToAsync(presence, thread_sensitive=False)


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One viewer's socket on one lobby table."""

    table_id: int
    viewer: Viewer

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        # The auth middleware's lazy user: the session's User, or an AnonymousUser.
        self.viewer = cast("Viewer", self.scope["user"])
        self.sent: dict[str, Any] | None = None
        self.sent_revision = -1
        self.wanted: int | None = None
        """The revision the next frame is to show at least (``None``: read the table now)."""
        self.stale = False
        self.refresher: asyncio.Task[None] | None = None
        self.poller: asyncio.Task[None] | None = None
        self.joined = False
        await self.accept()
        try:
            if self.viewer.is_authenticated:
                await _presence(table_id=self.table_id, user=self.viewer, connected=True)
            await self.channel_layer.group_add(group_name(self.table_id), self.channel_name)
            self.joined = True
            # Read after joining: a change committed in between is in this frame or in a
            # message still to come, never lost.
            await self.send_frame(
                *await _frame(table_id=self.table_id, viewer=self.viewer, revision=None)
            )
        except ServiceError as error:
            await self.send_error(error.status, error.message)
            await self.close(code=CLOSE_NO_TABLE)
            return
        if settings.LOBBY_SOCKET_POLL_S > 0:
            self.poller = asyncio.create_task(self.poll(settings.LOBBY_SOCKET_POLL_S))

    async def disconnect(self, code: int) -> None:
        for task in (self.poller, self.refresher):
            if task is not None:
                task.cancel()
        if not getattr(self, "joined", False):
            return
        await self.channel_layer.group_discard(group_name(self.table_id), self.channel_name)
        if self.viewer.is_authenticated:
            await _presence(table_id=self.table_id, user=self.viewer, connected=False)

    # --- the table's changes -------------------------------------------------------------

    async def table_changed(self, message: dict[str, Any]) -> None:
        """``table.changed`` from the group: send this viewer's frame of the revision it
        names (a message without one: of the table as it is now). A revision this socket
        has sent already is skipped; changes that come while a frame is being read are
        folded into one more read, not one each."""
        revision = message.get("revision")
        if isinstance(revision, int) and not isinstance(revision, bool):
            if revision <= self.sent_revision:
                return
            if not self.stale:
                self.wanted = revision
            elif self.wanted is not None:  # (None: a read of the table now is due already)
                self.wanted = max(self.wanted, revision)
        else:
            self.wanted = None
        self.stale = True
        if self.refresher is None or self.refresher.done():
            self.refresher = asyncio.create_task(self.refresh())

    async def refresh(self) -> None:
        try:
            while self.stale:
                self.stale, wanted, self.wanted = False, self.wanted, None
                await self.send_frame(
                    *await _frame(table_id=self.table_id, viewer=self.viewer, revision=wanted)
                )
        except ServiceError as error:
            await self.send_error(error.status, error.message)
        except Exception:
            logger.exception("table %s: the frame could not be sent", self.table_id)
            await self.close(code=1011)

    async def poll(self, every_s: float) -> None:
        """Without a shared channel layer (the demo's in-memory one, in the web process
        only), the moves a worker makes reach no group: read the frame every ``every_s``."""
        while True:
            await asyncio.sleep(every_s)
            await self.table_changed({"type": "table.changed"})

    async def send_frame(self, revision: int, frame: dict[str, Any]) -> None:
        # A change that leaves this viewer's frame as it was (another socket's presence seen
        # the same, a read folded into one) is not sent again.
        self.sent_revision = max(self.sent_revision, revision)
        if frame == self.sent:
            return
        self.sent = frame
        await self.send_json({"type": "frame", "frame": frame})

    async def send_error(self, status: int, message: str) -> None:
        await self.send_json({"type": "error", "status": status, "message": message})

    # --- the client's messages -----------------------------------------------------------

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            content = json.loads(text_data or "")
        except ValueError:
            await self.send_error(400, "a message is a JSON object with a type")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        try:
            await self.handle(content)
        except Refusal as refusal:
            await self.send_error(refusal.status, refusal.message)
        except ServiceError as error:
            await self.send_error(error.status, error.message)

    async def handle(self, content: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "act":
            action, ply = content.get("action"), content.get("ply")
            if not isinstance(action, str) or not action:
                raise Refusal(400, "an act names its action as a string: {'action': 'bid 250'}")
            if not isinstance(ply, int) or isinstance(ply, bool):
                raise Refusal(400, "an act gives the ply of the frame it answers, an integer")
            await _act(table_id=self.table_id, user=self.signed_in(), action=action, ply=ply)
        elif kind == "talk":
            key = content.get("key")
            if not isinstance(key, str) or not key:
                raise Refusal(400, "a talk message names its key as a string")
            await _talk(table_id=self.table_id, user=self.signed_in(), key=key)
        else:
            raise Refusal(400, "a message's type is one of act, talk, ping")

    def signed_in(self) -> AbstractBaseUser:
        if not isinstance(self.viewer, AbstractBaseUser) or not self.viewer.is_authenticated:
            raise Refusal(403, "sign in to play or talk at a table")
        return self.viewer
