"""How long three strong bots take to answer a human's card, by how many were forced.

    python tests/bench/bench_answer_timing.py [--variant single4] [--hands 40]

A human (random legal cards) plays at seat 0 against three strong reference bots, as at a
human's table: each bot is rebuilt from the log and answers through the referee
(``tables.referee.reference_bot``, the announced ``REFERENCE_CLOCK``). One sample is
a round: from the human's card to the human's next turn while the three bots each play a
card, grouped by how many of the three had a single legal card (0 to 3). The same hands
are played twice: ``steady`` (the human's table: every card searched with the whole
budget) and ``baseline`` (the arena's behaviour: a forced card answered without a search).

Forced cards are commoner late in a hand, when a search has fewer cards to play out, and
the trick number is public; so each round's time is also divided by the median time of
all rounds at the same trick (``rel``), and the last trick, where every card is forced
and that is no secret, is left out. A gap between the groups' ``rel`` is what a human
could read from the clock. Times are the wall clock and this process's CPU time (the
latter is less disturbed by other work on the machine).
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

Round = tuple[int, int, float, float]
"""(trick number, forced bots, wall seconds, CPU seconds)."""


def rounds(variant: str, seed: int, *, steady: bool) -> list[Round]:
    """Every round of three bot cards after a human's card, the last trick's left out."""
    from tables import referee

    hand = referee.rebuild(variant, rules=None, seed=seed, dealer=0, actions=[])
    rng = random.Random(seed)
    samples: list[Round] = []
    while (seat := hand.current) is not None:
        legal = [str(action) for action in hand.state.legal_actions]
        if seat != 0:
            hand.apply(referee.reference_move(hand, seat, name="strong", variant=variant))
            continue
        hand.apply(rng.choice(legal))
        view = hand.state.observation(0)
        trick, last = len(view["tricks"]), max(view["hand_sizes"]) <= 1
        forced = cards = 0
        wall, cpu = time.perf_counter(), time.process_time()
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
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if cards == 3 and not last:
            samples.append((trick, forced, wall, cpu))
    return samples


def relative(samples: list[Round], column: int) -> list[float]:
    """Each round's time over the median of the rounds at the same trick."""
    medians = {
        trick: statistics.median(s[column] for s in samples if s[0] == trick)
        for trick in {s[0] for s in samples}
    }
    return [s[column] / medians[s[0]] for s in samples]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="single4")
    parser.add_argument("--hands", type=int, default=40)
    args = parser.parse_args()
    print(f"{args.variant}, {args.hands} hands, three strong bots answering a human's card")
    print(
        f"{'mode':<9} {'forced':>6} {'rounds':>6} {'wall p10':>8} {'wall p50':>8} "
        f"{'wall p90':>8} {'cpu p50':>8} {'rel wall':>8} {'rel cpu':>8}"
    )
    for steady in (False, True):
        mode = "steady" if steady else "baseline"
        samples = [
            sample
            for seed in range(1, args.hands + 1)
            for sample in rounds(args.variant, seed, steady=steady)
        ]
        wall_rel, cpu_rel = relative(samples, 2), relative(samples, 3)
        for forced in range(4):
            picked = [i for i, sample in enumerate(samples) if sample[1] == forced]
            if not picked:
                print(f"{mode:<9} {forced:>6} {0:>6}")
                continue
            wall = [samples[i][2] * 1000 for i in picked]
            cpu = [samples[i][3] * 1000 for i in picked]
            print(
                f"{mode:<9} {forced:>6} {len(picked):>6} {percentile(wall, 0.1):>8.1f} "
                f"{statistics.median(wall):>8.1f} {percentile(wall, 0.9):>8.1f} "
                f"{statistics.median(cpu):>8.1f} "
                f"{statistics.median(wall_rel[i] for i in picked):>8.2f} "
                f"{statistics.median(cpu_rel[i] for i in picked):>8.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
