"""Named players and API clients for the arena tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena import services
from arena.http import caching
from arena.models import Bot, BotVersion, Player
from arena.tasks import bot_version_validate_task, match_run_task

PASSWORD = "a-long-test-password-1"

GOOD_BOT = b"def act(observation, legal):\n    return legal[0]\n"


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Cached leaderboard pages and replays must not leak from one test into the next."""
    caching.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Registering the named players hashes their passwords, a quarter of a second each with
    the production hasher; what these tests check never depends on the hash's strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db: None) -> Player:
    return services.player_register(username="alice", password=PASSWORD, display_name="Alice")


@pytest.fixture
def bob(db: None) -> Player:
    return services.player_register(username="bob", password=PASSWORD, display_name="Bob")


def client_for(player: Player | None) -> APIClient:
    client = APIClient()
    if player is not None:
        token, _ = Token.objects.get_or_create(user=player.user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def anonymous_client(db: None) -> APIClient:
    return client_for(None)


@pytest.fixture
def alice_client(alice: Player) -> APIClient:
    return client_for(alice)


@pytest.fixture
def bob_client(bob: Player) -> APIClient:
    return client_for(bob)


@pytest.fixture
def alices_bot(alice: Player) -> Bot:
    return services.bot_create(owner=alice, name="greedy", variant="auction4")


FIRST_LEGAL_BOT = b"NAME = 'first'\n\ndef act(observation, legal):\n    return legal[0]\n"
RANDOM_BOT = (Path(__file__).resolve().parents[2] / "bots/reference/random_bot.py").read_bytes()
SLOW_BOT = b"import time\n\ndef act(observation, legal):\n    time.sleep(5)\n    return legal[0]\n"


@pytest.fixture
def plain_bots(settings: Any) -> None:
    """Run the tests' own trusted bots as plain processes (the sandbox has its own tests)."""
    settings.SANDBOX_MODE = "plain"


def active_version(
    owner: Player, name: str, source: bytes, variant: str = "auction4"
) -> BotVersion:
    """A bot with one version, validated through the task as the worker would."""
    bot = services.bot_create(owner=owner, name=name, variant=variant)
    version = services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    bot_version_validate_task.apply(args=(version.pk,))
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.build_log
    return version


def trusted_version(
    owner: Player, name: str, source: bytes, variant: str = "auction4"
) -> BotVersion:
    """A bot with one version marked active without validation: for tests of what happens
    after it (validation has tests of its own), with trusted bots only."""
    bot = services.bot_create(owner=owner, name=name, variant=variant)
    version = services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    version.refresh_from_db()
    return version


@pytest.fixture
def done_match(alice: Player, bob: Player, plain_bots: None) -> int:
    """A finished two-board match (its id), played through the task, the caches emptied.

    Its versions are marked active without validation (which would play two more matches):
    what the users of this fixture test is what happens to a finished match."""
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    y = trusted_version(bob, "rnd", RANDOM_BOT)
    client = APIClient()
    client.force_authenticate(alice.user)
    created = client.post(
        "/api/matches/",
        {"version": x.pk, "opponent": y.pk, "boards": 2, "seed": 3, "rated": False},
    )
    assert created.status_code == 201, created.content
    match_run_task.apply(args=(created.json()["id"],))
    caching.clear()
    return int(created.json()["id"])
