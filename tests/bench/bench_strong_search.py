"""The strong reference bot against its own earlier search, at the arena's clock.

    .venv/bin/python tests/bench/bench_strong_search.py --variants single4 auction4 \
        --boards 400 --seeds 2026

Plays a duplicate match per variant and seed of the strong bot (``new``: its searches in
the C kernel, at the kernel's calibration) against the strong bot as it was before
(``old``: the pure-Python search at CPython's calibration, 12,000 card plays a decision at
most), both selectable (``--bot``, ``--baseline``):

- ``new``: ``StrongBot`` as it is (the greedy auction);
- ``auction``: with ``auction_search`` on, bids and trump by whole hands simulated in the
  kernel (what that adds is ``auction`` against ``new``);
- ``old``: ``kernel_search`` off, today's budget policy frozen.

It prints the first bot's mean board result with its 95% interval (duplicate: both bots
play both sides of every deal), boards won/lost/tied, the seconds taken and how often a
safety clock cut a search short (``stops``: then the result depended on the machine).
The clock announced defaults to the arena's (1 s a decision, 60 s a board): both bots
are bounded by card plays derived from it, the wall clock only a safety stop, so that a
busy machine changes the seconds, not the result, unless a safety stop fires (counted in
``stops``). ``--decision-ms 60000 --bank-ms 600000`` gives both bots the very budgets of
the arena's clock (both at their caps) with the safety stop out of reach on a loaded
machine. Needs the C kernel (``make
engine-kernel``): without it both bots are the old one. Not collected by pytest: 400
boards take some ten minutes a variant.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from bots.duplicate import summarize
from bots.play import run
from bots.protocol import TimeControl
from bots.reference.strong import StrongBot
from bots.sdk import Bot
from engine import kernel
from engine.registry import load_game


class AuctionSearchStrongBot(StrongBot):
    """The card-play search in the kernel, and the auction by simulated whole hands."""

    name = "strong-auction-search"
    auction_search = True


class OldStrongBot(StrongBot):
    """The strong bot before the kernel searched: the pure-Python loop at CPython's
    calibration (400 card plays a ms, at most 12,000 a decision and 200 deals)."""

    name = "strong-old"
    kernel_search = False
    auction_search = False


BOTS: dict[str, type[StrongBot]] = {
    "new": StrongBot,
    "auction": AuctionSearchStrongBot,
    "old": OldStrongBot,
}


def bench(
    bot: str, baseline: str, variant: str, boards: int, seed: int, clock: TimeControl
) -> dict[str, object]:
    game = load_game(variant)
    made: list[Bot] = []

    def maker(name: str) -> Callable[[], Bot]:
        def make() -> Bot:
            made.append(BOTS[name]())
            return made[-1]

        return make

    started = time.perf_counter()
    results, faults = run(
        maker(bot),
        maker(baseline),
        game=game,
        rules=game.rules_for(None),
        boards=boards,
        seed=seed,
        clock=clock,
    )
    seconds = time.perf_counter() - started
    summary = summarize(results)
    low, high = summary.interval
    return {
        "bot": bot,
        "vs": baseline,
        "variant": variant,
        "seed": seed,
        "boards": summary.boards,
        "mean": round(summary.mean, 2),
        "low": round(low, 2),
        "high": round(high, 2),
        "won": summary.won,
        "lost": summary.lost,
        "tied": summary.tied,
        "significant": summary.significant,
        "faults": faults,
        "seconds": round(seconds, 1),
        "stops": sum(int(getattr(made_bot, "safety_stops", 0)) for made_bot in made),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seeds", type=int, nargs="+", default=[2026])
    parser.add_argument("--variants", nargs="+", default=["single4", "auction4"])
    parser.add_argument("--bot", choices=sorted(BOTS), default="new")
    parser.add_argument("--baseline", choices=sorted(BOTS), default="old")
    parser.add_argument("--decision-ms", type=int, default=1_000)
    parser.add_argument("--bank-ms", type=int, default=60_000, help="per board")
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    args = parser.parse_args(argv)
    if kernel.KERNEL is None:
        print(f"the C kernel is {kernel.kernel_status()}: both bots would be the old one")
        return 1
    clock = TimeControl(args.decision_ms, args.bank_ms, startup_ms=60_000)
    if not args.json:
        print(
            f"{'variant':9} {'seed':>6} {'pairing':15} {'boards':>6} {'mean':>8} "
            f"{'95% interval':>19} {'won/lost/tied':>13} {'seconds':>8} {'stops':>5}"
        )
    for variant in args.variants:
        for seed in args.seeds:
            row = bench(args.bot, args.baseline, variant, args.boards, seed, clock)
            if args.json:
                print(json.dumps(row))
            else:
                interval = f"{row['low']:+.1f} .. {row['high']:+.1f}"
                record = f"{row['won']}/{row['lost']}/{row['tied']}"
                mark = "" if row["significant"] else "  (not significant)"
                faults = f"  faults {row['faults']}" if row["faults"] else ""
                print(
                    f"{variant:9} {seed:>6} {args.bot + ' vs ' + args.baseline:15} "
                    f"{row['boards']:>6} {row['mean']:>+8.1f} {interval:>19} {record:>13} "
                    f"{row['seconds']:>8.1f} {row['stops']:>5}{mark}{faults}"
                )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
