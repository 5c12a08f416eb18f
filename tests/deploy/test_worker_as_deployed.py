"""The worker started exactly as compose and systemd start it runs with deploy's settings.

A worker that quietly takes two matches at a time, or prefetches a second one, holds a
match hostage behind a long one and doubles the sandbox's memory: the settings are read
back from the running worker (`celery inspect stats`), not from the file. So are the queues
each of the two pools consumes (`celery inspect active_queues`): a worker of the interactive
pool that also took matchmaking matches would leave an upload waiting behind them.
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

from config.celery import app
from tests.arena.workers import database_url, require_worker_services

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent

pytestmark = [pytest.mark.worker, pytest.mark.django_db]


Deployed = tuple[list[str], dict[str, str]]
"""A worker's command and the environment its service adds."""


def compose_worker(service: str) -> Deployed:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    command: list[str] = compose["services"][service]["command"]
    environment = compose["services"][service]["environment"]
    return command, {"ARENA_WORKER_QUEUES": environment["ARENA_WORKER_QUEUES"]}


def systemd_worker(unit: str) -> Deployed:
    text = (DEPLOY / "systemd" / unit).read_text()
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    # systemd's specifiers: %i is the instance (arena-worker@1), %% a literal percent sign.
    command = line.removeprefix("ExecStart=").replace("%i", "1").replace("%%", "%")
    environment = dict(
        line.removeprefix("Environment=").split("=", 1)
        for line in text.splitlines()
        if line.startswith("Environment=")
    )
    return shlex.split(command), environment


def local_program(argv: list[str]) -> list[str]:
    """The same command, with the program taken from this project's virtual environment."""
    return [str(VENV_BIN / Path(argv[0]).name), *argv[1:]]


def stats_of(pid: int, process: subprocess.Popen[str], log: Path) -> tuple[dict[str, Any], str]:
    """The `inspect stats` reply of the worker whose main process is ``pid``, and its name."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"the worker exited with status {process.returncode}:\n{log.read_text()[-3000:]}"
            )
        replies = app.control.inspect(timeout=2).stats() or {}
        for name, stats in replies.items():
            if stats.get("pid") == pid:
                return dict(stats), name
    raise AssertionError(f"the worker never answered `inspect stats`:\n{log.read_text()[-3000:]}")


def queues_of(name: str) -> set[str]:
    """The queues the worker called ``name`` consumes (`inspect active_queues`)."""
    replies = app.control.inspect(destination=[name], timeout=5).active_queues() or {}
    return {queue["name"] for queue in replies.get(name, [])}


@pytest.mark.parametrize(
    ("deployed", "consumed"),
    [
        (compose_worker("worker-interactive"), ""),
        (compose_worker("worker-background"), "-background"),
        (systemd_worker("arena-interactive@.service"), ""),
        (systemd_worker("arena-worker@.service"), "-background"),
    ],
    ids=["compose-interactive", "compose-background", "systemd-interactive", "systemd-background"],
)
def test_the_deployed_worker_takes_one_match_at_a_time_from_its_own_queue(
    deployed: Deployed, consumed: str, tmp_path: Path
) -> None:
    require_worker_services()
    command, service_environment = deployed
    log = tmp_path / "worker.log"
    # A queue of its own, so the worker never takes a message meant for another test.
    queue = f"deploy-check-{uuid.uuid4().hex[:8]}"
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.CELERY_BROKER_URL,
        "CELERY_QUEUE": queue,
        "SECRET_KEY": settings.SECRET_KEY,
        **service_environment,
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
        stats, name = stats_of(process.pid, process, log)
        queues = queues_of(name)
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert stats["pool"]["max-concurrency"] == 1
    assert stats["pool"]["max-tasks-per-child"] == 200
    assert stats["prefetch_count"] == 1
    # The interactive pool never takes the background queue's matches, and the other way round.
    assert queues == {queue + consumed}
