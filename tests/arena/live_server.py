"""A real web server process for tests, on the test database (port 8102)."""

from __future__ import annotations

import json
import os
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

from django.conf import settings

from tests.arena.workers import ROOT, database_url, wait_for

PORT = 8102


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
    """``manage.py runserver`` on the test database and the test queue (``env`` overrides)."""
    log = tmp_path / "server.log"
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "false",
        **env,
    }
    url = f"http://127.0.0.1:{PORT}"
    with log.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{PORT}"],
            cwd=ROOT,
            env=environment,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
        )
    server = LiveServer(url, process, log)
    try:
        wait_for(lambda: process.poll() is not None or _answers(url), 120, "the web server")
        assert process.poll() is None, server.output()
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        print(server.output()[-4000:])
