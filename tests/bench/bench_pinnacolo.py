"""Random whole Pinnacolo hands per second, for 2, 3 and 4 players and two pairs.

    python tests/bench/bench_pinnacolo.py [--hands 200] [--repeat 3]

A hand is the deal, then turns until a player closes or the stock runs out, every action
chosen uniformly among the legal ones (every formable meld and addition listed, every
take from the pile checked for its obligation), then the score. The first column is
``PinnacoloHand.play_randomly``; the second plays the same policy through the public
interface only (actions taken from ``legal_actions`` and checked again by ``apply``).
Rates are hands per CPU second of this process, the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.pinnacolo import PINNACOLO_PRESETS, new_hand  # noqa: E402

VARIANTS = ("pinnacolo2", "pinnacolo3", "pinnacolo4", "pinnacolo")


def random_hands(variant: str, hands: int) -> int:
    players = PINNACOLO_PRESETS[variant].players
    choices = random.Random(1)
    actions = 0
    for number in range(hands):
        state = new_hand(variant, seed=number, dealer=number % players)
        state.play_randomly(choices)
        state.result()
        actions += len(state.history)
    return actions


def random_hands_through_apply(variant: str, hands: int) -> int:
    players = PINNACOLO_PRESETS[variant].players
    choices = random.Random(1)
    draw = choices.random
    actions = 0
    for number in range(hands):
        state = new_hand(variant, seed=number, dealer=number % players)
        while not state.is_terminal():
            legal = state.legal_actions
            state.apply(legal[int(draw() * len(legal))])
        state.result()
        actions += len(state.history)
    return actions


def best_rate(run: Callable[[str, int], int], variant: str, hands: int, repeat: int) -> float:
    # CPU time of this process, not wall time: on a shared machine other processes take
    # turns on the core.
    rates = []
    for _ in range(repeat):
        started = time.process_time()
        run(variant, hands)
        rates.append(hands / (time.process_time() - started))
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'variant':11} {'players':>9} {'hands/s':>8} {'via apply':>10} {'actions/hand':>13}")
    for variant in VARIANTS:
        rules = PINNACOLO_PRESETS[variant]
        rate = best_rate(random_hands, variant, args.hands, args.repeat)
        apply_rate = best_rate(random_hands_through_apply, variant, args.hands // 2, args.repeat)
        per_hand = random_hands(variant, args.hands) / args.hands
        players = f"{rules.players}{' (pairs)' if rules.pairs else ''}"
        print(f"{variant:11} {players:>9} {rate:8,.0f} {apply_rate:10,.0f} {per_hand:13.1f}")
    print("random playouts (whole hands) per CPU second, best of --repeat;")
    print("via apply: the same policy through legal_actions and apply() only")


if __name__ == "__main__":
    main()
