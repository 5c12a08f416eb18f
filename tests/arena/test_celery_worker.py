"""A real Celery worker process, on the real broker, builds an uploaded version."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from arena.models import BotVersion
from tests.arena.conftest import GOOD_BOT, client_for
from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    params = connection.settings_dict
    user = params["USER"] or ""
    password = f":{params['PASSWORD']}" if params["PASSWORD"] else ""
    host = params["HOST"] or "127.0.0.1"
    port = params["PORT"] or "5432"
    return f"postgres://{user}{password}@{host}:{port}/{params['NAME']}"


@pytest.fixture
def worker_queue() -> Iterator[str]:
    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL:
        skip_or_fail("a worker test needs DATABASE_URL on PostgreSQL and a broker URL")
    # The worker consumes the queue this test process publishes to; `make test` makes the
    # name unique per run so a left-over message from another run is never picked up.
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_QUEUE": queue,
        "SECRET_KEY": settings.SECRET_KEY,
    }
    worker = subprocess.Popen(
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
            "-Q",
            queue,
            "-l",
            "info",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield queue
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
        print(output[-4000:])


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_uploaded_version_is_built_by_a_real_worker(worker_queue: str) -> None:
    client = APIClient()
    registered = client.post(
        "/api/players/", {"username": "wanda", "password": "worker-test-password-3"}, format="json"
    ).json()
    from arena.models import Player

    owner_client = client_for(Player.objects.get(pk=registered["id"]))
    bot = owner_client.post("/api/bots/", {"name": "w", "variant": "single4"}, format="json").json()
    uploaded = owner_client.post(
        f"/api/bots/{bot['id']}/versions/", {"source": GOOD_BOT.decode()}, format="json"
    )
    assert uploaded.status_code == 201
    assert uploaded.json()["status"] == "pending"

    deadline = time.monotonic() + 60
    status = "pending"
    while time.monotonic() < deadline:
        status = BotVersion.objects.get(bot_id=bot["id"], number=1).status
        if status != "pending":
            break
        time.sleep(0.2)
    assert status == "active"
