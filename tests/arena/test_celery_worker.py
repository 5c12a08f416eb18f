"""A real Celery worker on the real broker: the whole path through the API.

Outages (a worker killed mid-match, the broker down) are in test_match_faults.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from celery import current_app
from rest_framework.test import APIClient

from arena.models import BotVersion, Match
from arena.queues.routing import all_queues
from arena.services.controls import REFERENCE_MIN_BOARDS
from engine.replay import Replay as HandReplay
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT
from tests.arena.workers import celery_worker, require_sandbox, require_worker_services, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _register(client: APIClient, username: str) -> APIClient:
    registered = client.post(
        "/api/players/", {"username": username, "password": f"{username}-long-password-7"}
    )
    assert registered.status_code == 201, registered.content
    authed = APIClient()
    authed.credentials(HTTP_AUTHORIZATION=f"Token {registered.json()['token']}")
    return authed


def _upload(client: APIClient, name: str, source: bytes, variant: str = "auction4") -> int:
    bot = client.post("/api/bots/", {"name": name, "variant": variant}).json()
    uploaded = client.post(f"/api/bots/{bot['id']}/versions/", {"source": source.decode()})
    assert uploaded.status_code == 201
    assert uploaded.json()["status"] == "pending"
    return int(bot["id"])


def _version(bot_id: int) -> BotVersion:
    return BotVersion.objects.get(bot_id=bot_id, number=1)


def test_the_whole_path_through_the_api_and_a_real_worker(tmp_path: Path) -> None:
    require_worker_services()
    require_sandbox()
    with celery_worker(tmp_path):
        alice = _register(APIClient(), "alice")
        bob = _register(APIClient(), "bob")
        first, rnd = _upload(alice, "first", FIRST_LEGAL_BOT), _upload(bob, "rnd", RANDOM_BOT)
        wait_for(
            lambda: {_version(first).status, _version(rnd).status} == {"active"},
            90,
            "both versions to pass validation in the sandbox",
        )
        assert "in the sandbox" in alice.get(f"/api/bots/{first}/versions/1/").json()["build_log"]

        challenge = alice.post(
            "/api/matches/",
            {"version": _version(first).pk, "opponent": _version(rnd).pk, "boards": 3},
        )
        assert challenge.status_code == 201
        match_id = challenge.json()["id"]
        wait_for(lambda: Match.objects.get(pk=match_id).status == "done", 120, "the match")

    detail = APIClient().get(f"/api/matches/{match_id}/").json()
    assert len(detail["boards"]) == 3
    board = APIClient().get("/api/ratings/", {"variant": "auction4"}).json()["results"]
    assert {row["version"]["name"] for row in board} == {"first", "rnd"}
    replay = APIClient().get(f"/api/matches/{match_id}/replay/").json()
    assert len(replay["games"]) == 6
    for game in replay["games"]:
        assert HandReplay.from_json(game["hand"]).verify() is None


def test_a_long_pinnacolo_match_leaves_no_error_in_the_workers_log(tmp_path: Path) -> None:
    """Pinnacolo in pairs has no reference pairing (README, "Control variate"): a match
    long enough for one elsewhere is played and stored without the worker logging an
    error, as it once did for each such match."""
    require_worker_services()
    require_sandbox()
    # Tasks earlier tests queued and never ran (their rows rolled back) would fail in this
    # worker and fill its log: it starts on this process's queues emptied.
    with current_app.connection_for_write() as connection:
        for queue in all_queues():
            connection.default_channel.queue_purge(queue)
    with celery_worker(tmp_path) as worker:
        alice = _register(APIClient(), "alice")
        bob = _register(APIClient(), "bob")
        first = _upload(alice, "first", FIRST_LEGAL_BOT, variant="pinnacolo")
        rnd = _upload(bob, "rnd", RANDOM_BOT, variant="pinnacolo")
        wait_for(
            lambda: {_version(first).status, _version(rnd).status} == {"active"},
            90,
            "both versions to pass validation in the sandbox",
        )
        challenge = alice.post(
            "/api/matches/",
            {
                "version": _version(first).pk,
                "opponent": _version(rnd).pk,
                "boards": REFERENCE_MIN_BOARDS,
            },
        )
        assert challenge.status_code == 201, challenge.content
        match_id = challenge.json()["id"]
        # The task's own closing line comes after the match is stored: the log is read
        # once the worker has said it finished the match.
        wait_for(lambda: _match_run_done(worker.output()), 300, "the worker to finish the match")
        log = worker.output()
    assert [line for line in log.splitlines() if "ERROR/" in line or "Traceback" in line] == []
    match = Match.objects.get(pk=match_id)
    assert len(match.board_results) == REFERENCE_MIN_BOARDS and match.faults == 0
    assert (match.board_controls, match.cv_mean_x) == ([], None)


def _match_run_done(log: str) -> bool:
    return any(
        "Task arena.match_run[" in line and "succeeded" in line and "'done'" in line
        for line in log.splitlines()
    )
