"""Helpers for the lobby tests: people, tables with reference bots, and playing on."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User

from lobby import game_state, selectors, services, turns
from lobby.models import GameTable
from tests.people import *  # noqa: F403  (fixtures used by name)


@pytest.fixture(autouse=True)
def _fresh_games() -> None:
    # Table numbers come back in a database made anew: nothing kept from another test.
    game_state.forget()
    selectors.forget_shared()


def person(name: str) -> User:
    return User.objects.create_user(username=name, password="cards-and-trumps-77")


def bot(name: str = "greedy") -> dict[str, Any]:
    return {"kind": "bot", "bot": {"kind": "reference", "name": name}}


def bots_table(
    host: User,
    variant: str = "auction4",
    *,
    target: dict[str, Any] | None = None,
    seats: Sequence[dict[str, Any]] | None = None,
    **options: Any,
) -> GameTable:
    """A table with the host at seat 0 and greedy bots everywhere else (or ``seats``)."""
    from engine.registry import load_game

    players = load_game(variant).players
    return services.table_open(
        host=host,
        variant=variant,
        target=target or {"kind": "hands", "value": 1},
        seats=list(seats) if seats is not None else [{"kind": "host"}] + [bot()] * (players - 1),
        **options,
    )


def choose(frame: dict[str, Any], rng: random.Random) -> str:
    """A legal action from a frame: the auction's first (a pass, mostly, so hands are
    short), a picked pass of the first cards, or a random card."""
    if frame["pick"] is not None:
        # The frame offers the cards to pick from; which sets are legal, the engine says.
        replay = services.replay_of(GameTable.objects.get(pk=frame["table"]))
        picks = [str(action) for action in replay.state.legal_actions]
        return rng.choice(picks)
    legal: list[str] = [entry["action"] for entry in frame["legal"]]
    return legal[0] if frame["phase"] == "auction" else rng.choice(legal)


def play_on(
    table: GameTable,
    people: dict[int, User],
    *,
    rng: random.Random | None = None,
    limit: int = 5000,
) -> GameTable:
    """Play the game out: the bots' tasks run here, the people choose legal actions."""
    rng = rng or random.Random(0)
    for _ in range(limit):
        table.refresh_from_db()
        if table.is_over:
            return table
        turns.bot_move(table_id=table.pk, ply=table.ply)
        table.refresh_from_db()
        if table.is_over:
            return table
        frame = selectors.frame_for(table_id=table.pk, viewer=next(iter(people.values())))
        seat = frame["to_act"]
        if seat in people:
            frame = selectors.frame_for(table_id=table.pk, viewer=people[seat])
            services.table_act(
                table_id=table.pk, user=people[seat], action=choose(frame, rng), ply=frame["ply"]
            )
    raise AssertionError("the game did not end")
