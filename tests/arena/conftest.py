"""Named players and API clients for the arena tests."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena import services
from arena.models import Bot, Player

PASSWORD = "a-long-test-password-1"

GOOD_BOT = b"def act(observation, legal):\n    return legal[0]\n"


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
