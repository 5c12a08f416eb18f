"""With Redis unreachable, reads are served from the database and writes that need Redis (the
quota counters, the broker) answer 503 with a Retry-After, storing nothing.

Redis here is a real client connecting to a local port where nothing listens: the connection
is really refused.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion, Match, Player
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


def _assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.content
    assert int(response["Retry-After"]) > 0
    assert "unavailable" in response.content.decode()


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


def test_an_uncached_verification_cannot_be_counted_so_it_waits(
    done_match: int, redis_down: None
) -> None:
    response = APIClient().get(f"/api/matches/{done_match}/replay/", {"verify": "true"})
    _assert_unavailable(response)


def test_a_challenge_answers_503_and_nothing_is_queued(
    alice: Player, bob: Player, redis_down: None
) -> None:
    mine, theirs = ready_version(alice, "mine"), ready_version(bob, "theirs")
    response = client_for(alice).post(
        "/api/matches/", {"version": mine.pk, "opponent": theirs.pk, "boards": 1}
    )
    _assert_unavailable(response)
    assert not Match.objects.exists()


def test_an_upload_answers_503_and_nothing_is_stored(
    alice_client: APIClient, alices_bot: Bot, redis_down: None
) -> None:
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/", {"source": GOOD_BOT.decode()}
    )
    _assert_unavailable(response)
    assert not BotVersion.objects.exists()


def test_registration_and_sign_in_answer_503(alice: Player, redis_down: None) -> None:
    client = APIClient()
    registered = client.post("/api/players/", {"username": "newcomer", "password": PASSWORD})
    _assert_unavailable(registered)
    assert not Player.objects.filter(user__username="newcomer").exists()
    _assert_unavailable(
        client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    )
    page = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    _assert_unavailable(page)
