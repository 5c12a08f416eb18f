"""Real Celery workers on the real broker: the whole path, and a worker killed mid-match."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from arena.models import BotVersion, Game, Match, RatingChange
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


def _upload(client: APIClient, name: str, source: bytes) -> int:
    bot = client.post("/api/bots/", {"name": name, "variant": "auction4"}).json()
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


SLOWISH_BOT = (
    b"import time\n\ndef act(observation, legal):\n    time.sleep(0.004)\n    return legal[-1]\n"
)


def _bot_processes() -> list[str]:
    listing = subprocess.run(
        ["pgrep", "-u", "pinochle-bot"], capture_output=True, text=True, check=False
    )
    return listing.stdout.split()


def test_a_match_survives_its_worker_being_killed_and_completes_once(
    tmp_path: Path,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    require_worker_services()
    require_sandbox()
    # Short clocks so that recovery takes seconds: the lease lapses 4 x 1 s + 2 s after the
    # last board, and the broker hands an unacknowledged message out again after 3 s.
    settings.MATCH_BANK_MS = 1000
    fast_recovery = {"BROKER_VISIBILITY_TIMEOUT": "3", "MATCH_LEASE_MARGIN_S": "2"}
    client = _register(APIClient(), "carol")
    other = _register(APIClient(), "dave")
    with celery_worker(tmp_path, "w1", **fast_recovery) as first_worker:
        x, y = _upload(client, "slowish", SLOWISH_BOT), _upload(other, "rnd", RANDOM_BOT)
        wait_for(lambda: {_version(x).status, _version(y).status} == {"active"}, 90, "validation")
        match_id = client.post(
            "/api/matches/",
            {"version": _version(x).pk, "opponent": _version(y).pk, "boards": 12},
        ).json()["id"]
        wait_for(
            lambda: Match.objects.get(pk=match_id).status == "running", 60, "the match to start"
        )
        wait_for(lambda: bool(_bot_processes()), 30, "the bots to start")
        first_worker.kill()
    killed = Match.objects.get(pk=match_id)
    assert (killed.status, killed.attempts) == ("running", 1)
    assert not Game.objects.filter(match=killed).exists()
    # The killed worker's sandboxed bots die with it (bubblewrap's --die-with-parent).
    wait_for(lambda: not _bot_processes(), 15, "the killed worker's bots to die")

    with celery_worker(tmp_path, "w2", **fast_recovery):
        wait_for(
            lambda: Match.objects.get(pk=match_id).status == "done",
            180,
            "the redelivered match to complete",
        )
    done = Match.objects.get(pk=match_id)
    assert done.attempts == 2
    assert Game.objects.filter(match=done).count() == 24
    assert RatingChange.objects.filter(match=done).count() == 2
