"""Named players, API clients and a helper that plays a board's hand for score entry."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from arena import services as arena_services
from arena.models import Player
from tests.arena.conftest import PASSWORD, alice, alice_client, bob, client_for

__all__ = ["alice", "alice_client", "bob", "client_for", "entry_payload", "field"]


@pytest.fixture
def field(db: None) -> list[Player]:
    """Twelve club players: six pairs."""
    names = [
        "Carol",
        "Dave",
        "Erin",
        "Frank",
        "Grace",
        "Heidi",
        "Ivan",
        "Judy",
        "Mallory",
        "Niaj",
        "Olivia",
        "Peggy",
    ]
    return [
        arena_services.player_register(username=name.lower(), password=PASSWORD, display_name=name)
        for name in names
    ]


def entry_payload(variant: str, seed: int, dealer: int, play_seed: int) -> dict[str, Any]:
    """What a table would report after playing the board (a random but legal play)."""
    state = engine.new_hand(variant, seed=seed, dealer=dealer)
    state.play_randomly(random.Random(play_seed), throw_in_rate=0.2)
    result = state.result()
    outcome = {"no_marriage": "no_marriage", "thrown_in": "thrown_in"}.get(
        result.outcome.value, "played"
    )
    return {
        "outcome": outcome,
        "declarer": result.declarer,
        "bid": result.bid,
        "trump": None if result.trump is None else str(result.trump),
        "meld": [result.teams[0].meld, result.teams[1].meld],
        "taken": [result.teams[0].taken, result.teams[1].taken],
    }
