"""A bot's move played by a real Celery worker reaches the sockets of the table: the worker
tells the table's group through the Redis channel layer, from another process; or, as in
the demo, where the web process's in-memory layer hears nothing from the workers, the
socket's own reading of its table every LOBBY_SOCKET_POLL_MS finds the move."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.arena.workers import celery_worker, require_worker_services
from tests.lobby.conftest import bots_table, choose, person
from tests.lobby.test_live_sockets import Socket, cookie, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.mark.parametrize("layer", ["redis", "in-memory, as in the demo"])
def test_a_bot_move_made_by_a_worker_reaches_the_hosts_socket(
    tmp_path: Path, layer: str, settings: Any
) -> None:
    require_worker_services()
    if layer != "redis":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
        settings.LOBBY_SOCKET_POLL_S = 0.2
    host = person("ann")
    table = bots_table(host)
    socket = Socket(table.pk, cookie(host), "ann")
    rng = random.Random(3)
    bot_moves: list[dict[str, object]] = []

    async def scenario() -> None:
        frame = (await socket.open())["frame"]
        seen = start = frame["ply"]
        while not bot_moves:
            if frame["legal"] or frame["pick"]:
                action = await database_sync_to_async(choose)(frame, rng)
                await socket.send({"type": "act", "action": action, "ply": frame["ply"]})
                seen = frame["ply"] + 1
            frame = await socket.frame_at(seen)
            seen = frame["ply"]
            # Moves made since the socket opened: none was in its first frame.
            bot_moves.extend(m for m in frame["recent"] if m["seat"] != 0 and m["ply"] >= start)
        await socket.close()

    with celery_worker(tmp_path) as worker:
        run(scenario)
    assert "lobby.bot_move" in worker.output()
    assert bot_moves
