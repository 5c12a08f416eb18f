"""A real Celery worker on the real broker: the whole path through the API.

Outages (a worker killed mid-match, the broker down) are in test_match_faults.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from arena.models import BotVersion, Match
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
