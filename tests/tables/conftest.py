"""Helpers for the play tests: a table with reference bots, and playing it out."""

from __future__ import annotations

import random

from django.contrib.auth.models import User

from tables import services
from tables.models import PlayTable
from tests.people import *  # noqa: F403  (fixtures used by name)


def greedy_table(
    user: User, variant: str = "single4", *, seed: int = 7, human_seat: int = 0, bot: str = "greedy"
) -> PlayTable:
    """A table with the human at ``human_seat`` and the same reference bot everywhere else."""
    from engine.registry import load_game

    players = load_game(variant).players
    return services.table_start(
        owner=user,
        variant=variant,
        seed=seed,
        dealer=0,
        human_seat=human_seat,
        bots=[{"kind": "reference", "name": bot}] * (players - 1),
    )


def play_out(table: PlayTable, user: User, *, rng: random.Random | None = None) -> PlayTable:
    """Play the human's turns with random legal actions until the hand is over."""
    rng = rng or random.Random(0)
    while True:
        table.refresh_from_db()
        if table.is_over:
            return table
        hand = services.hand_of(table)
        legal = [str(action) for action in hand.state.legal_actions]
        services.table_act(table_id=table.pk, user=user, action=rng.choice(legal), ply=table.ply)
