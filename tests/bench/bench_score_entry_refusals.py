"""How long the score-entry check takes, by the reason an entry is refused.

    python tests/bench/bench_score_entry_refusals.py [--boards 300] [--repeat 5]

A player is told the same message for every refusal against the cards; this shows whether
the time of the answer still tells the reasons apart. For each of ``--boards`` double-deck
deals it times the check of three entries: one refused because the declarer lacks the
marriage in trump, one refused because the meld is wrong, and the table's true result
(accepted, the baseline of the same run). Prints the median microseconds of each and the
ratio of each refusal to the baseline (close to 1 means the timing tells nothing). One core;
the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import Suit  # noqa: E402
from engine.interface import Deal  # noqa: E402
from engine.registry import load_game  # noqa: E402
from tournaments.hands import (  # noqa: E402
    EntryOutcome,
    EntryRejected,
    ScoreEntry,
)

VARIANT = "double4"


def has_marriage(hand: list[engine.Card], suit: Suit) -> bool:
    faces = {(card.suit, card.rank) for card in hand}
    return (suit, engine.Rank.K) in faces and (suit, engine.Rank.Q) in faces


def cases(boards: int) -> list[tuple[list[list[engine.Card]], dict[str, ScoreEntry]]]:
    """Deals with the true result of a random play and two refused variations of it."""
    rules = engine.rules_for(VARIANT)
    out = []
    seed = 0
    while len(out) < boards:
        seed += 1
        state = engine.new_hand(VARIANT, seed=seed, dealer=seed % 4)
        deal = engine.load_game(VARIANT).initial_deal(state)
        dealt = [[engine.Card.parse(card) for card in hand] for hand in deal.hands]
        state.play_randomly(random.Random(seed), throw_in_rate=0.0)
        result = state.result()
        if result.outcome is not engine.HandOutcome.MADE and result.outcome is not (
            engine.HandOutcome.SET
        ):
            continue
        missing = [s for s in Suit if not has_marriage(dealt[result.declarer], s)]
        if not missing:
            continue
        true = ScoreEntry(
            EntryOutcome.PLAYED,
            result.declarer,
            result.bid,
            result.trump,
            (result.teams[0].meld, result.teams[1].meld),
            (result.teams[0].taken, result.teams[1].taken),
        )
        out.append(
            (
                dealt,
                {
                    "accepted (baseline)": true,
                    "no marriage in trump": ScoreEntry(
                        true.outcome, true.declarer, true.bid, missing[0], true.meld, true.taken
                    ),
                    "wrong meld": ScoreEntry(
                        true.outcome,
                        true.declarer,
                        true.bid,
                        true.trump,
                        (true.meld[0] + 1000, true.meld[1]),
                        true.taken,
                    ),
                },
            )
        )
    assert rules.trump_needs_marriage
    return out


def timed(check: Callable[[], object]) -> float:
    started = time.perf_counter()
    with suppress(EntryRejected):
        check()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = load_game(VARIANT)
    deals = [
        (Deal(tuple(tuple(str(card) for card in hand) for hand in dealt)), entries)
        for dealt, entries in cases(args.boards)
    ]
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        samples: dict[str, list[float]] = {}
        for dealt, entries in deals:
            for name, entry in entries.items():
                samples.setdefault(name, []).append(
                    timed(lambda d=dealt, e=entry: game.score_entry(d, e))
                )
        for name, values in samples.items():
            median = statistics.median(values)
            best[name] = min(best.get(name, median), median)
    baseline = best["accepted (baseline)"]
    print(f"{VARIANT}: score-entry check, median of {len(deals)} boards, best of {args.repeat}")
    for name, seconds in best.items():
        print(f"  {name:22} {seconds * 1e6:8.1f} us   x{seconds / baseline:5.2f} of the baseline")


if __name__ == "__main__":
    main()
