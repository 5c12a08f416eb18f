"""How long three strong bots take to answer a human's card, by how many were forced.

    python tests/bench/bench_answer_timing.py [--variant single4] [--hands 6]

A human (random legal cards) plays at seat 0 against three strong reference bots, as at a
human's table: each bot is rebuilt from the log and answers through the referee
(``leagues.play.referee.reference_bot``, the announced ``REFERENCE_CLOCK``). One sample is
the time from the human's card to the human's next turn while the three bots each play a
card, grouped by how many of the three had a single legal card (0 to 3). The same hands
are timed twice: ``steady`` (the human's table: every card searched with the whole budget)
and ``baseline`` (the arena's behaviour: a forced card answered without a search). A gap
between the groups' medians is what a human could read from the clock.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from benchlib import percentile

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def rounds(variant: str, seed: int, *, steady: bool) -> list[tuple[int, float]]:
    """(forced bots, seconds) for each round of three bot cards after a human's card."""
    from leagues.play import referee

    hand = referee.rebuild(variant, rules=None, seed=seed, dealer=0, actions=[])
    rng = random.Random(seed)
    samples: list[tuple[int, float]] = []
    while (seat := hand.current) is not None:
        legal = [str(action) for action in hand.state.legal_actions]
        if seat != 0:
            hand.apply(referee.reference_move(hand, seat, name="strong", variant=variant))
            continue
        hand.apply(rng.choice(legal))
        forced = cards = 0
        started = time.perf_counter()
        while (seat := hand.current) not in (None, 0):
            legal = [str(action) for action in hand.state.legal_actions]
            cards += all(text.startswith("play ") for text in legal)
            forced += len(legal) == 1
            bot = referee.reference_bot(hand, seat, name="strong", variant=variant)
            bot.steady = steady  # type: ignore[attr-defined]
            request, legal = referee.act_request(hand, seat, clock=referee.REFERENCE_CLOCK)
            reply = bot.handle(json.loads(json.dumps(request)))
            assert reply is not None
            hand.apply(str(reply["action"]))
        elapsed = time.perf_counter() - started
        if cards == 3:
            samples.append((forced, elapsed))
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="single4")
    parser.add_argument("--hands", type=int, default=6)
    args = parser.parse_args()
    print(f"{args.variant}, {args.hands} hands, three strong bots answering a human's card")
    print(f"{'mode':<9} {'forced':>6} {'rounds':>6} {'p10 ms':>8} {'p50 ms':>8} {'p90 ms':>8}")
    for steady in (False, True):
        mode = "steady" if steady else "baseline"
        by_forced: dict[int, list[float]] = {count: [] for count in range(4)}
        for seed in range(1, args.hands + 1):
            for forced, seconds in rounds(args.variant, seed, steady=steady):
                by_forced[forced].append(seconds * 1000)
        for forced, times in by_forced.items():
            if not times:
                print(f"{mode:<9} {forced:>6} {0:>6}")
                continue
            print(
                f"{mode:<9} {forced:>6} {len(times):>6} {percentile(times, 0.1):>8.1f} "
                f"{statistics.median(times):>8.1f} {percentile(times, 0.9):>8.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
