"""Random playouts of whole hands of any registered variant, for ``python -m engine play``.

>>> summary = play_summary("pinnacolo2", hands=2, seed=1)
>>> summary["hands"], sorted(summary["outcomes"]) <= ["closed", "stock_out"]
(2, True)
>>> len(play_summary("cutthroat3", hands=1, seed=1)["mean_team_scores"])
3
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from engine.game import hand_seed
from engine.kernel import outcomes_of, random_summary, supports
from engine.registry import load_game

__all__ = ["play_summary"]


def play_summary(variant: str, *, hands: int, seed: int) -> dict[str, Any]:
    """Random legal playouts of ``hands`` whole hands: hand ``n`` dealt from
    ``hand_seed(seed, n)`` (the ``n``-th SplitMix64 output) with dealer ``n`` mod the
    number of players, choices from ``random.Random(seed)``. The mean scores are per side
    (``Game.teams``: per partnership or pair, otherwise per player). ``kernel``: the hands
    were played by the C kernel (``engine.kernel``: the same hands, faster)."""
    game = load_game(variant)
    choices = random.Random(seed)
    outcomes: Counter[str] = Counter()
    actions = 0
    side_scores = [0] * len(game.teams)
    started, cpu_started = time.perf_counter(), time.process_time()
    # The C kernel plays the same hands with the same generator (engine.kernel), in one batch.
    kernel = supports(game.rules)
    if kernel:
        codes, actions, sums = random_summary(
            game.rules, game_seed=seed, first=0, count=hands, rng=choices
        )
        names = outcomes_of(game.rules)
        outcomes.update({names[code].value: n for code, n in enumerate(codes) if n})
        side_scores = list(sums)
    for number in range(0 if kernel else hands):
        # Every game's hand plays itself out at random (``play_randomly``): its own fast path.
        state: Any = game.new_initial_state(
            seed=hand_seed(seed, number), dealer=number % game.players
        )
        state.play_randomly(choices)
        result = state.result()
        outcomes[result.outcome.value] += 1
        actions += len(state.history)
        for side, score in enumerate(result.team_scores):
            side_scores[side] += score
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "variant": variant,
        "kernel": kernel,
        "hands": hands,
        "seed": seed,
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        "hands_per_second": round(hands / elapsed, 1) if elapsed > 0 else None,
        "actions_per_hand": round(actions / hands, 2),
        "outcomes": dict(sorted(outcomes.items())),
        "mean_team_scores": [round(total / hands, 2) for total in side_scores],
    }
