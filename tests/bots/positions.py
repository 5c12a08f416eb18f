"""Positions of real hands in the trick play, for the tests of the bots' search."""

from __future__ import annotations

import random

from engine.actions import ThrowIn
from engine.hand import HandState, new_hand
from engine.rules import pinochle_rules
from engine.trickstate import Phase


def positions(variant: str, count: int) -> list[tuple[HandState, random.Random]]:
    """Hands played at random up to some card of the tricks."""
    rules = pinochle_rules(variant)
    found = []
    for seed in range(count * 3):
        state = new_hand(variant, seed=seed, dealer=seed % 4, rules=rules)
        rng = random.Random(seed)
        while not state.is_terminal() and state.phase is not Phase.TRICKS:
            legal = [action for action in state.legal_actions if not isinstance(action, ThrowIn)]
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_terminal():
            continue
        for _ in range(rng.randrange(0, 4 * rules.hand_size - 1)):
            legal = list(state.legal_actions)
            state.apply(legal[rng.randrange(len(legal))])
        found.append((state, rng))
        if len(found) == count:
            break
    return found
