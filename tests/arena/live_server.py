"""A real web server process for tests, on the test database."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.arena.workers import service_process, wait_for


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen[str]
    log: Path

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return Answer(response.status, dict(response.headers), json.loads(response.read()))
        except urllib.error.HTTPError as error:
            return Answer(error.code, dict(error.headers), json.loads(error.read() or b"null"))

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/api/", timeout=5):
            return True
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def live_server(tmp_path: Path, **env: str) -> Iterator[LiveServer]:
    """``manage.py runserver`` on the test database and the test queue (``env`` overrides),
    on a port free at the start, so that runs side by side do not meet."""
    port = closed_port()
    command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    url = f"http://127.0.0.1:{port}"
    with service_process(command, tmp_path / "server.log", env={"DEBUG": "false", **env}) as run:
        server = LiveServer(url, run.process, run.log)
        wait_for(lambda: run.process.poll() is not None or _answers(url), 120, "the web server")
        assert run.process.poll() is None, server.output()
        yield server
