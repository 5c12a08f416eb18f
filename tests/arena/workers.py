"""Real Celery worker processes for tests, on the real broker and the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

from arena.queues.routing import all_queues
from arena.sandbox import sandbox_problems
from arena.sandbox.deployment import sandbox_config
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


def test_environment(**env: str) -> dict[str, str]:
    """The environment of a process started by a test: the test database and queue."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "SECRET_KEY": settings.SECRET_KEY,
        **env,
    }


@contextmanager
def service_process(
    command: list[str], log: Path, *, env: dict[str, str], shown: int = 4000
) -> Iterator[Worker]:
    """``command`` run from the project root with its output in ``log``; stopped (SIGTERM,
    then SIGKILL) at the end, and the end of its output printed for a failing test."""
    with log.open("w") as sink:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=test_environment(**env),
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
        )
    running = Worker(process, log)
    try:
        yield running
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        print(running.output()[-shown:])


# A worker killed mid-match is taken over once its lease lapses and the re-queue job runs.
# With the production figures that is 20 + 15 seconds of waiting; with these it is the
# lease's floor (longer than any single wait on a bot, arena/services/matches.py) plus one
# second. The worker that plays renews its lease every second, so no live match lapses.
QUICK_RECOVERY = {"MATCH_HEARTBEAT_S": "1", "MATCH_LEASE_S": "2", "MATCH_REQUEUE_EVERY_S": "1"}


def celery_worker(
    tmp_path: Path, name: str = "w1", *, queues: Sequence[str] | None = None, **env: str
) -> AbstractContextManager[Worker]:
    """A worker consuming the queues this test process publishes to (`make test` makes the
    queue names unique per run, so messages left by another run are never picked up):
    both, the interactive and the background queue (arena/queues/routing.py), unless ``queues``
    names some."""
    chosen = list(queues) if queues is not None else all_queues()
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo"]
    command += ["--without-gossip", "--without-mingle", "-n", f"{name}@%h"]
    command += ["-Q", ",".join(chosen), "-l", "info"]
    return service_process(command, tmp_path / f"worker-{name}.log", env=env)


def celery_beat(tmp_path: Path, **env: str) -> AbstractContextManager[Worker]:
    """The periodic scheduler as production runs it (``celery -A config beat``), sending the
    beat schedule's tasks (the re-queue job, ...) to this test's queue."""
    command = [sys.executable, "-m", "celery", "-A", "config", "beat", "--max-interval", "1"]
    return service_process(command, tmp_path / "beat.log", env=env, shown=2000)


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
