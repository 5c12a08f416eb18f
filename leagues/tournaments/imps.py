"""An IMP-like scale for pinochle: a board's swing between two rooms as a bounded number.

Bridge's IMP table does not fit pinochle scores, so ours comes from simulation. A swing
is a team's net result in one room minus the other room's on the same board (nets are
North-South's score minus East-West's). ``calibrate`` plays boards at two tables of
club-level players: the greedy reference bot at every seat, which at each card plays a
random legal card one time in four and at each auction call passes or makes the lowest
bid one time in four, so two tables holding the same cards drift apart as two human
tables do. The thresholds are the 2.5%, 7.5%, ..., 97.5% quantiles of the swings that
are not zero, rounded up to the variant's scoring step: a swing earns one IMP for each
threshold it reaches, at most 20, so one wild board weighs at most as much as a
twentieth-percentile one does twenty times.

The constants were computed with ``python -m leagues.tournaments.imps 1000 2026`` (1000
boards per variant, seed 2026; about 25 s a variant). In ``auction4`` a 100-point swing
is 10 IMPs and 870 or more is 20; ``imps`` is all that scoring needs:

>>> imps(0, "single4"), imps(100, "auction4"), imps(-10_000, "auction4")
(0, 10, -20)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from math import ceil, gcd
from typing import Any

import engine
from bots.reference.greedy import GreedyBot
from engine import Action
from engine.rules import pinochle_rules

__all__ = ["IMP_THRESHOLDS", "MAX_IMPS", "calibrate", "imps"]

MAX_IMPS = 20

IMP_THRESHOLDS: dict[str, tuple[int, ...]] = {
    "single4": (2, 3, 4, 5, 6, 7, 8, 10, 15, 18, 23, 29, 34, 38, 45, 50, 55, 61, 66, 82),
    "auction4": (
        10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 130, 200, 280, 390, 470, 570, 630, 670, 730, 870,
    ),
    "double4": (2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 16, 20, 25, 30, 38, 49, 67, 85, 110, 136),
}  # fmt: skip


def imps(swing: int, variant: str) -> int:
    """The IMPs of a swing: positive for the team that gained, bounded by 20."""
    magnitude = abs(swing)
    earned = sum(1 for threshold in IMP_THRESHOLDS[variant] if magnitude >= threshold)
    return earned if swing >= 0 else -earned


def _club_player(rng: random.Random, noise: float) -> Callable[[dict[str, Any], Any], Action]:
    bot = GreedyBot()

    def decide(observation: dict[str, Any], legal: Any) -> Action:
        names = [str(action) for action in legal]
        phase = observation["phase"]
        if phase == "tricks" and rng.random() < noise:
            return Action.parse(rng.choice(names))
        if phase == "auction" and rng.random() < noise:
            modest = [n for n in names if n == "pass"] + [n for n in names if n.startswith("bid")]
            return Action.parse(rng.choice(modest[:2]))
        return Action.parse(bot.act(observation, names))

    return decide


def _net(variant: str, seed: int, dealer: int, rng: random.Random, noise: float) -> int:
    state = engine.load_game(variant).new_initial_state(seed=seed, dealer=dealer)
    engine.play(state, [_club_player(rng, noise) for _ in range(4)])
    ns, ew = state.result().team_scores
    return int(ns - ew)


def calibrate(variant: str, *, boards: int, seed: int, noise: float = 0.25) -> tuple[int, ...]:
    """Twenty swing thresholds for ``variant`` from ``boards`` simulated two-room boards."""
    rng = random.Random(seed)
    swings = []
    for number in range(boards):
        deal_seed = rng.getrandbits(63)
        open_room = _net(variant, deal_seed, number % 4, rng, noise)
        closed_room = _net(variant, deal_seed, number % 4, rng, noise)
        if open_room != closed_room:
            swings.append(abs(open_room - closed_room))
    swings.sort()
    rules = pinochle_rules(variant)
    step = gcd(rules.counter_value, rules.last_trick_bonus, rules.meld_scale)
    thresholds: list[int] = []
    for k in range(MAX_IMPS):
        quantile = swings[min(len(swings) - 1, int((k + 0.5) / MAX_IMPS * len(swings)))]
        value = max(step, ceil(quantile / step) * step)
        # Strictly rising, so that every IMP needs a larger swing than the one before.
        thresholds.append(max(value, thresholds[-1] + step) if thresholds else value)
    return tuple(thresholds)


if __name__ == "__main__":
    count, base_seed = int(sys.argv[1]), int(sys.argv[2])
    for name in ("single4", "auction4", "double4"):
        print(f'    "{name}": {calibrate(name, boards=count, seed=base_seed)},', flush=True)
