"""Real Celery worker processes for tests, on the real broker and the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

from arena.sandbox import sandbox_problems
from arena.sandboxing import sandbox_config
from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]


def require_worker_services() -> None:
    if connection.vendor != "postgresql" or settings.CELERY_TASK_ALWAYS_EAGER:
        skip_or_fail("a worker test needs DATABASE_URL on PostgreSQL and a broker URL")


def require_sandbox() -> None:
    problems = sandbox_problems(sandbox_config())
    if problems:
        skip_or_fail("the sandbox is not available: " + "; ".join(problems))


def database_url() -> str:
    params = connection.settings_dict
    user = params["USER"] or ""
    password = f":{params['PASSWORD']}" if params["PASSWORD"] else ""
    host = params["HOST"] or "127.0.0.1"
    port = params["PORT"] or "5432"
    return f"postgres://{user}{password}@{host}:{port}/{params['NAME']}"


class Worker:
    def __init__(self, process: subprocess.Popen[str], log: Path) -> None:
        self.process = process
        self.log = log

    def kill(self) -> None:
        """SIGKILL, as a machine losing power or the OOM killer would."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def celery_worker(tmp_path: Path, name: str = "w1", **env: str) -> Iterator[Worker]:
    """A worker consuming the queue this test process publishes to (`make test` makes the
    queue name unique per run, so messages left by another run are never picked up)."""
    log = tmp_path / f"worker-{name}.log"
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "SECRET_KEY": settings.SECRET_KEY,
        **env,
    }
    with log.open("w") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "arena",
                "worker",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{name}@%h",
                "-Q",
                settings.CELERY_TASK_DEFAULT_QUEUE,
                "-l",
                "info",
            ],
            cwd=ROOT,
            env=environment,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
        )
    worker = Worker(process, log)
    try:
        yield worker
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        print(worker.output()[-4000:])


@contextmanager
def celery_beat(tmp_path: Path, **env: str) -> Iterator[Worker]:
    """The periodic scheduler as production runs it (``celery -A arena beat``), sending the
    beat schedule's tasks (the re-queue job, ...) to this test's queue."""
    log = tmp_path / "beat.log"
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "SECRET_KEY": settings.SECRET_KEY,
        **env,
    }
    with log.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "arena", "beat", "--max-interval", "1"],
            cwd=ROOT,
            env=environment,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
        )
    beat = Worker(process, log)
    try:
        yield beat
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        print(beat.output()[-2000:])


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
