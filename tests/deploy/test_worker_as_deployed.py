"""The worker started exactly as compose and systemd start it runs with deploy's settings.

A worker that quietly takes two matches at a time, or prefetches a second one, holds a
match hostage behind a long one and doubles the sandbox's memory: the settings are read
back from the running worker (`celery inspect stats`), not from the file.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

from arena.celery import app
from tests.arena.workers import database_url, require_worker_services

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent

pytestmark = [pytest.mark.worker, pytest.mark.django_db]


def compose_worker_command() -> list[str]:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    command: list[str] = compose["services"]["worker"]["command"]
    return command


def systemd_worker_command() -> list[str]:
    text = (DEPLOY / "systemd" / "arena-worker@.service").read_text()
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    # systemd's specifiers: %i is the instance (arena-worker@1), %% a literal percent sign.
    command = line.removeprefix("ExecStart=").replace("%i", "1").replace("%%", "%")
    return shlex.split(command)


def local_program(argv: list[str]) -> list[str]:
    """The same command, with the program taken from this project's virtual environment."""
    return [str(VENV_BIN / Path(argv[0]).name), *argv[1:]]


def stats_of(pid: int, process: subprocess.Popen[str], log: Path) -> dict[str, Any]:
    """The `inspect stats` reply of the worker whose main process is ``pid``."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"the worker exited with status {process.returncode}:\n{log.read_text()[-3000:]}"
            )
        replies = app.control.inspect(timeout=2).stats() or {}
        for stats in replies.values():
            if stats.get("pid") == pid:
                return dict(stats)
    raise AssertionError(f"the worker never answered `inspect stats`:\n{log.read_text()[-3000:]}")


@pytest.mark.parametrize(
    "command",
    [compose_worker_command(), systemd_worker_command()],
    ids=["compose", "systemd"],
)
def test_the_deployed_worker_takes_one_match_at_a_time(command: list[str], tmp_path: Path) -> None:
    require_worker_services()
    log = tmp_path / "worker.log"
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.CELERY_BROKER_URL,
        # A queue of its own, so the worker never takes a message meant for another test.
        "CELERY_QUEUE": f"deploy-check-{uuid.uuid4().hex[:8]}",
        "SECRET_KEY": settings.SECRET_KEY,
    }
    with log.open("w") as sink:
        process = subprocess.Popen(
            local_program(command),
            cwd=ROOT,
            env=environment,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
        )
    try:
        stats = stats_of(process.pid, process, log)
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert stats["pool"]["max-concurrency"] == 1
    assert stats["pool"]["max-tasks-per-child"] == 200
    assert stats["prefetch_count"] == 1
