"""A Redis server of the test's own, without persistence, that the test may kill and restart
empty: a broker lost as a production Redis without AOF loses it."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis

from arena.queues.broker_contents import MATCH_TASK, VALIDATION_TASK, task_of
from tests.arena.live_server import closed_port
from tests.arena.workers import wait_for
from tests.conftest import skip_or_fail


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = closed_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.client = redis.Redis(port=self.port, socket_timeout=5)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it, empty: nothing is saved or loaded."""
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_for(self._answers, 60, "the test's Redis")

    def kill(self) -> None:
        """SIGKILL: what it held in memory is gone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()

    def _answers(self) -> bool:
        assert self.process is not None and self.process.poll() is None
        try:
            return bool(self.client.ping())
        except redis.exceptions.ConnectionError:
            return False


def queued_tasks(client: Any, queue: str) -> list[tuple[str, int] | None]:
    """The task name and id of each message waiting in ``queue`` of a Redis broker."""
    return [task_of(json.loads(message)) for message in client.lrange(queue, 0, -1)]


def messages_for(queued: list[tuple[str, int] | None], task: str, item: int) -> int:
    return sum(1 for entry in queued if entry == (task, item))


def match_messages(queued: list[tuple[str, int] | None], match_id: int) -> int:
    return messages_for(queued, MATCH_TASK, match_id)


def validation_messages(queued: list[tuple[str, int] | None], version_id: int) -> int:
    return messages_for(queued, VALIDATION_TASK, version_id)


@contextmanager
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        skip_or_fail("redis-server is not installed")
    folder = tmp_path / "redis"
    folder.mkdir()
    server = OwnRedis(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
