"""With the cache's Redis unreachable, reads are served from the database and the quotas
keep counting, in the database: counted actions are accepted, and their limits still hold.

Redis here is a real client connecting to a local port where nothing listens: the connection
is really refused. (The broker unreachable too: tests/arena/test_broker_loss.py.)
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion, Match, Player, QuotaSlot
from tests.arena.conftest import GOOD_BOT, PASSWORD, client_for
from tests.leagues.conftest import ready_version

pytestmark = pytest.mark.usefixtures("plain_bots")


def _closed_port() -> int:
    """A local port nobody listens on (just released by the kernel)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_down() -> Iterator[None]:
    url = f"redis://127.0.0.1:{_closed_port()}/0"
    unreachable = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
    with override_settings(CACHES={"default": unreachable, "responses": unreachable}):
        yield


def _assert_told_to_wait(response: Any) -> None:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) > 0


def test_the_leaderboard_and_replays_are_read_from_the_database(
    done_match: int, redis_down: None
) -> None:
    client = APIClient()
    board = client.get("/api/ratings/", {"variant": "auction4"})
    assert board.status_code == 200
    assert isinstance(board.json()["results"], list)
    replay = client.get(f"/api/matches/{done_match}/replay/")
    assert replay.status_code == 200
    assert len(replay.json()["games"]) == 4
    assert client.get(f"/api/matches/{done_match}/").status_code == 200


def test_an_uncached_verification_is_counted_and_served(done_match: int, redis_down: None) -> None:
    client = APIClient()
    assert client.get(f"/api/matches/{done_match}/replay/", {"verify": "true"}).status_code == 200
    assert QuotaSlot.objects.filter(key__startswith="quota:verify:").count() == 1


def test_a_challenge_is_accepted_and_counted(
    alice: Player, bob: Player, redis_down: None, settings: Any
) -> None:
    settings.CHALLENGE_RATE = "1/hour"
    mine, theirs = ready_version(alice, "mine"), ready_version(bob, "theirs")
    challenge = {"version": mine.pk, "opponent": theirs.pk, "boards": 1}
    accepted = client_for(alice).post("/api/matches/", challenge)
    assert accepted.status_code in (201, 202), accepted.content
    _assert_told_to_wait(client_for(alice).post("/api/matches/", challenge))
    assert Match.objects.count() == 1


def test_an_upload_is_accepted_and_counted(
    alice_client: APIClient, alices_bot: Bot, redis_down: None, settings: Any
) -> None:
    settings.UPLOAD_RATE = "1/hour"
    upload = {"source": GOOD_BOT.decode()}
    accepted = alice_client.post(f"/api/bots/{alices_bot.pk}/versions/", upload)
    assert accepted.status_code in (201, 202), accepted.content
    _assert_told_to_wait(alice_client.post(f"/api/bots/{alices_bot.pk}/versions/", upload))
    assert BotVersion.objects.count() == 1


def test_registration_and_sign_in_work_and_wrong_passwords_are_still_counted(
    alice: Player, redis_down: None, settings: Any
) -> None:
    settings.LOGIN_FAILURE_RATE_PER_IP = "2/15m"
    client = APIClient()
    registered = client.post("/api/players/", {"username": "newcomer", "password": PASSWORD})
    assert registered.status_code == 201, registered.content
    signed_in = client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    assert signed_in.status_code == 200, signed_in.content
    page = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert page.status_code == 302
    for _ in range(2):
        wrong = client.post("/api/auth/token/", {"username": "alice", "password": "wrong"})
        assert wrong.status_code == 400
    _assert_told_to_wait(
        client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    )
