"""Random playouts of Pinnacolo hands for ``python -m engine play``.

>>> summary = play_summary("pinnacolo2", hands=2, seed=1)
>>> summary["hands"], sorted(summary["outcomes"]) <= ["closed", "stock_out"]
(2, True)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from engine.pinnacolo.rules import pinnacolo_rules
from engine.pinnacolo.state import new_hand
from engine.rng import splitmix64_output

__all__ = ["play_summary"]


def play_summary(variant: str, *, hands: int, seed: int) -> dict[str, Any]:
    """Random legal playouts of ``hands`` whole hands: hand ``n`` dealt from the ``n``-th
    SplitMix64 output of ``seed`` with dealer ``n`` mod the number of players, choices
    from ``random.Random(seed)``. The summary has the keys of the pinochle games' (the
    mean scores are per side: per pair, or per player)."""
    rules = pinnacolo_rules(variant)
    choices = random.Random(seed)
    outcomes: Counter[str] = Counter()
    actions = 0
    side_scores = [0] * rules.sides
    started, cpu_started = time.perf_counter(), time.process_time()
    for number in range(hands):
        state = new_hand(
            variant, seed=splitmix64_output(seed, number), dealer=number % rules.players
        )
        state.play_randomly(choices)
        result = state.result()
        outcomes[result.outcome.value] += 1
        actions += len(state.actions)
        for side, score in enumerate(result.side_scores):
            side_scores[side] += score
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "variant": variant,
        "hands": hands,
        "seed": seed,
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        "hands_per_second": round(hands / elapsed, 1) if elapsed > 0 else None,
        "actions_per_hand": round(actions / hands, 2),
        "outcomes": dict(sorted(outcomes.items())),
        "mean_team_scores": [round(total / hands, 2) for total in side_scores],
    }
