"""The C kernel against the pure engine on many whole hands: the number of differences.

    python tests/bench/kernel_differential.py [--hands 100000] [--legal-every 50]
        [--variant single4 ...] [--seed 2026] [--league] [--first 0]

Per variant, hands 0 to N - 1 of a game of seed ``--seed`` are played out at random by
the kernel's batch (``engine.kernel.random_hands``) and by the engine (``play_randomly``;
its pinochle hands run on the C hand core of this process, which
``tests/engine/public_driver.py --random N`` compares with the pure core) with the same
generator, and compared: every card played, the auction, outcome, contract,
trump, the bury, two-hand's melds and dix exchanges, meld, counters, tricks and scores by
side (``tests/engine/kernel_compare``); every ``--legal-every``-th hand also has its legal
sets compared card by card (two-hand: its meld choices too). Pinnacolo's variants compare
every action (draws, takes, melds, additions, replacements, discards), the outcome, every
seat's score and its parts and the cards left in hand; their legal check counts the legal
actions of every decision. ``--league``: under the league rules of the suite's comparison
as well (``LEAGUE_RULES``, ``PINNACOLO_LEAGUE_RULES``: every other branch of the rules).
Prints the hands that differ (0 expected) and the first differences. Minutes of work at
100,000 (Pinnacolo: about a quarter of an hour a variant, the pure engine's time);
``--first F`` compares hands F to F + N - 1 of the same run (the kernel plays the hands
before alone, to bring both generators there), so that a long run goes in parts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.kernel import KERNEL, kernel_status  # noqa: E402
from engine.pinnacolo import PinnacoloRules, pinnacolo_rules  # noqa: E402
from engine.rules import Rules, pinochle_rules  # noqa: E402
from tests.engine.kernel_compare import (  # noqa: E402
    KERNEL_VARIANTS,
    LEAGUE_RULES,
    PINNACOLO_LEAGUE_RULES,
    PINNACOLO_VARIANTS,
    compare,
)

VARIANTS = KERNEL_VARIANTS + PINNACOLO_VARIANTS


def rules_of(variant: str, league: bool) -> Rules | PinnacoloRules:
    if variant in PINNACOLO_VARIANTS:
        return pinnacolo_rules(variant, PINNACOLO_LEAGUE_RULES[variant] if league else None)
    return pinochle_rules(variant, LEAGUE_RULES[variant] if league else None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--legal-every", type=int, default=50)
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--league", action="store_true", help="a league's rules as well")
    parser.add_argument("--first", type=int, default=0, help="the first hand compared")
    args = parser.parse_args()
    if KERNEL is None:
        print(f"the C kernel is {kernel_status()}")
        return 1
    total = 0
    runs = [(variant, False) for variant in args.variant or VARIANTS]
    if args.league:
        runs += [(variant, True) for variant, _ in runs]
    for variant, league in runs:
        started = time.perf_counter()
        differing, shown = compare(
            rules_of(variant, league),
            game_seed=args.seed,
            count=args.hands,
            rng_seed=args.seed,
            legal_every=args.legal_every,
            first=args.first,
        )
        total += differing
        seconds = time.perf_counter() - started
        name = f"{variant} (league)" if league else variant
        hands = f"{args.hands:,} hands" + (f" from hand {args.first:,}" if args.first else "")
        print(f"{name:19} {hands}: {differing} differ ({seconds:.0f} s)")
        for line in shown:
            print(f"  {line}")
    print(f"differences: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
