"""Random whole hands per second of the individual games, ``cutthroat3`` and ``twohand``.

    python tests/bench/bench_individual.py [--hands 2000] [--repeat 3]

A ``cutthroat3`` hand is a deal, a random auction, trump, the bury, the meld of every
seat and 15 tricks; a ``twohand`` hand is a deal, 12 stock tricks with their melds and
draws, and the 12 tricks of the play-out. Two columns: ``play_randomly`` (the engine's
own loop) and the same policy through the public interface only (every action taken from
``legal_actions`` and checked again by ``apply``). One core; the best of ``--repeat``
runs is printed.
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

from engine.cutthroat import CutthroatState, new_cutthroat_hand  # noqa: E402
from engine.twohand import TwoHandState, new_twohand_hand  # noqa: E402

SEATS = {"cutthroat3": 3, "twohand": 2}


def deal(variant: str, number: int) -> CutthroatState | TwoHandState:
    if variant == "cutthroat3":
        return new_cutthroat_hand(variant, seed=number, dealer=number % 3)
    return new_twohand_hand(variant, seed=number, dealer=number % 2)


def engine_hands(variant: str, hands: int) -> None:
    choices = random.Random(1)
    for number in range(hands):
        state = deal(variant, number)
        state.play_randomly(choices)
        state.result()


def engine_hands_through_apply(variant: str, hands: int) -> None:
    choices = random.Random(1)
    draw = choices.random
    for number in range(hands):
        state = deal(variant, number)
        while not state.is_terminal():
            legal = state.legal_actions
            state.apply(legal[int(draw() * len(legal))])
        state.result()


def best_rate(run: Callable[[str, int], None], variant: str, hands: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run(variant, hands)
        best = min(best, time.process_time() - started)
    return hands / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'variant':<12}{'play_randomly':>16}{'through apply':>16}   (hands/s, CPU time)")
    for variant in SEATS:
        fast = best_rate(engine_hands, variant, args.hands, args.repeat)
        public = best_rate(engine_hands_through_apply, variant, args.hands, args.repeat)
        print(f"{variant:<12}{fast:>16,.0f}{public:>16,.0f}")


if __name__ == "__main__":
    main()
