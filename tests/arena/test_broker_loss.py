"""Work accepted just before the broker was lost runs, each item exactly once.

The broker is a Redis of the test's own without persistence, killed (SIGKILL) after a
challenge and an upload were answered 201, and started again empty: their messages are
gone. The re-queue job, run while other messages keep the queue busy, sends each lost item
again once, and a worker then plays every match once and validates the version once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token

from arena import services
from arena.models import BotVersion, Game, Match, Player
from tests.arena import workers
from tests.arena.conftest import FIRST_LEGAL_BOT, PASSWORD, RANDOM_BOT, trusted_version
from tests.arena.live_server import LiveServer, live_server
from tests.arena.own_redis import (
    OwnRedis,
    match_messages,
    own_redis,
    queued_tasks,
    validation_messages,
)
from tests.arena.workers import (
    QUICK_RECOVERY,
    ROOT,
    celery_beat,
    celery_worker,
    require_worker_services,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _player(name: str) -> tuple[Player, dict[str, str]]:
    player = services.player_register(username=name, password=PASSWORD)
    token, _ = Token.objects.get_or_create(user=player.user)
    return player, {"Authorization": f"Token {token.key}"}


def _challenge(server: LiveServer, auth: dict[str, str], x: int, y: int) -> int:
    answer = server.request(
        "POST", "/api/matches/", {"version": x, "opponent": y, "boards": 1}, auth
    )
    assert answer.status == 201, answer.body
    return int(answer.body["id"])


def _requeue_job(env: dict[str, str]) -> None:
    """One run of the re-queue job, as a worker runs it, in a process of its own."""
    code = "from arena.tasks import match_requeue_stale_task as job; print(job())"
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=workers.test_environment(**env),
        check=True,
        capture_output=True,
        timeout=120,
    )


def test_a_challenge_and_an_upload_accepted_before_the_broker_was_lost_run_once(
    tmp_path: Path,
) -> None:
    require_worker_services()
    alice, alice_auth = _player("alice")
    bob, _ = _player("bob")
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    y = trusted_version(bob, "rnd", RANDOM_BOT)
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    with own_redis(tmp_path) as broker:
        on_it = _on(broker)
        with live_server(tmp_path, **on_it) as server:
            lost_match = _challenge(server, alice_auth, x.pk, y.pk)
            uploaded = server.request(
                "POST",
                f"/api/bots/{x.bot_id}/versions/",
                {"source": RANDOM_BOT.decode()},
                alice_auth,
            )
            assert uploaded.status == 201, uploaded.body
            lost_version = int(uploaded.body["id"])
            assert len(queued_tasks(broker.client, queue)) == 2
            broker.kill()
            broker.start()
            assert queued_tasks(broker.client, queue) == []
            # Challenges after the restart keep the queue busy: no worker takes them yet.
            waiting = [_challenge(server, alice_auth, x.pk, y.pk) for _ in range(3)]
        assert len(queued_tasks(broker.client, queue)) == 3

        def lost_items_sent_again() -> bool:
            _requeue_job(on_it)
            queued = queued_tasks(broker.client, queue)
            assert all(match_messages(queued, match) == 1 for match in waiting)
            return bool(match_messages(queued, lost_match))

        wait_for(lost_items_sent_again, 180, "the re-queue job to send the lost match again")
        # Once each, however often the job runs while the messages wait.
        _requeue_job(on_it)
        queued = queued_tasks(broker.client, queue)
        assert match_messages(queued, lost_match) == 1
        assert validation_messages(queued, lost_version) == 1
        assert len(queued) == 5

        with celery_worker(tmp_path, "w1", **on_it), celery_beat(tmp_path, **on_it):
            everything = [lost_match, *waiting]
            wait_for(
                lambda: Match.objects.filter(pk__in=everything, status="done").count() == 4,
                300,
                "every match",
            )
            wait_for(
                lambda: BotVersion.objects.get(pk=lost_version).status != "pending",
                300,
                "the validation",
            )
    for match in Match.objects.filter(pk__in=everything):
        assert match.attempts == 1
        assert Game.objects.filter(match=match).count() == 2  # one board at two tables
    version = BotVersion.objects.get(pk=lost_version)
    assert version.status == BotVersion.Status.ACTIVE, version.build_log
    assert version.build_log.count("validation match against itself") == 1


def _on(broker: OwnRedis) -> dict[str, str]:
    """The environment of processes whose broker and cache are ``broker``."""
    return {
        **QUICK_RECOVERY,
        "REDIS_URL": broker.url,
        "CELERY_BROKER_URL": broker.url,
        "MATCH_RESEND_AFTER_S": "1",
        "SANDBOX_MODE": "plain",
        "MATCH_REFERENCE_CONTROLS": "false",
    }
