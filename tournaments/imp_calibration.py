"""How a game's IMP scale (``Game.imp_scales``) is computed: by simulation.

``calibrate`` plays boards at two tables of club-level players: the greedy reference bot
of the four-hand pinochle games at every seat, which at each card plays a random legal card
one time in four and at each auction call passes or makes the lowest bid one time in four,
so two tables holding the same cards drift apart as two human tables do. The thresholds
are the 2.5%, 7.5%, ..., 97.5% quantiles of the swings that are not zero, rounded up to the
variant's scoring step. Run ``python -m tournaments.imp_calibration 1000 2026``
(1000 boards per variant, seed 2026; about 25 s a variant): it prints the scale of every
variant its bot plays that has one.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from math import ceil, gcd
from typing import Any

import engine
from bots.reference import reference_bots
from bots.reference.greedy import GreedyBot
from engine.registry import load_game, variant_names
from tournaments.imps import MAX_IMPS

__all__ = ["calibrate"]


def _club_player(rng: random.Random, noise: float) -> Callable[[dict[str, Any], Any], Any]:
    bot = GreedyBot()

    def decide(observation: dict[str, Any], legal: Any) -> Any:
        names = [str(action) for action in legal]
        phase = observation["phase"]
        if phase == "tricks" and rng.random() < noise:
            return engine.Action.parse(rng.choice(names))
        if phase == "auction" and rng.random() < noise:
            modest = [n for n in names if n == "pass"] + [n for n in names if n.startswith("bid")]
            return engine.Action.parse(rng.choice(modest[:2]))
        return engine.Action.parse(bot.act(observation, names))

    return decide


def _net(variant: str, seed: int, board: int, rng: random.Random, noise: float) -> int:
    game = load_game(variant)
    state = game.new_initial_state(seed=seed, dealer=game.board_dealer(board))
    engine.play(state, [_club_player(rng, noise) for _ in range(game.players)])
    first, second = state.result().team_scores
    return int(first - second)


def calibrate(variant: str, *, boards: int, seed: int, noise: float = 0.25) -> tuple[int, ...]:
    """Twenty swing thresholds for ``variant`` from ``boards`` simulated two-room boards."""
    rng = random.Random(seed)
    swings = []
    for number in range(1, boards + 1):
        deal_seed = rng.getrandbits(63)
        open_room = _net(variant, deal_seed, number, rng, noise)
        closed_room = _net(variant, deal_seed, number, rng, noise)
        if open_room != closed_room:
            swings.append(abs(open_room - closed_room))
    swings.sort()
    rules = load_game(variant).rules
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
    for name in variant_names():
        game = load_game(name)
        if game.imp_scale is not None and "greedy" in reference_bots(game):
            print(f'    "{name}": {calibrate(name, boards=count, seed=base_seed)},', flush=True)
