"""Figures for the reference bots: duplicate matches of each against the one below it.

    .venv/bin/python tests/bench/bench_reference_bots.py --boards 500

For each variant and pairing (greedy against random, strong against greedy) it plays a
duplicate match with ``bots.play.run`` and prints the first bot's mean board result, its
95% interval, boards won/lost/tied, its share of the board points, the seconds taken and
how often the strong bot's safety clock cut a search short (``stops``). The announced
clock defaults to a generous one (a minute a decision) that gives the strong bot the same
work budget as the arena's default clock but keeps its safety clock out of reach on a
loaded machine, so the figures are the same on any machine; ``--decision-ms 1000
--bank-ms 60000`` plays under the arena's own clock. Not collected by pytest: it takes
minutes, not seconds.
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
from bots.reference import REFERENCE_BOTS, variants_played_by
from bots.sdk import Bot, bot_from_module, load_module
from engine.registry import load_game

PAIRINGS = (("greedy", "random"), ("strong", "greedy"))


def maker(name: str, made: list[Bot]) -> Callable[[], Bot]:
    module = load_module(REFERENCE_BOTS[name])

    def make() -> Bot:
        bot = bot_from_module(module)
        assert bot is not None
        made.append(bot)
        return bot

    return make


def bench(
    bot: str, opponent: str, variant: str, boards: int, seed: int, clock: TimeControl
) -> dict[str, object]:
    game = load_game(variant)
    made: list[Bot] = []
    started = time.perf_counter()
    results, faults = run(
        maker(bot, made),
        maker(opponent, made),
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
        "vs": opponent,
        "variant": variant,
        "boards": summary.boards,
        "mean": round(summary.mean, 2),
        "low": round(low, 2),
        "high": round(high, 2),
        "won": summary.won,
        "lost": summary.lost,
        "tied": summary.tied,
        "share": round(summary.share, 3),
        "significant": summary.significant,
        "faults": faults,
        "seconds": round(seconds, 1),
        "stops": sum(int(getattr(made_bot, "safety_stops", 0)) for made_bot in made),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variants", nargs="+", default=list(variants_played_by(REFERENCE_BOTS)))
    parser.add_argument(
        "--pairings",
        nargs="+",
        default=[f"{bot}:{opponent}" for bot, opponent in PAIRINGS],
        help="BOT:OPPONENT reference names",
    )
    parser.add_argument("--decision-ms", type=int, default=60_000)
    parser.add_argument("--bank-ms", type=int, default=600_000, help="per board")
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    args = parser.parse_args(argv)
    clock = TimeControl(args.decision_ms, args.bank_ms, startup_ms=60_000)
    header = (
        f"{'variant':9} {'pairing':17} {'boards':>6} {'mean':>8} {'95% interval':>19} "
        f"{'won/lost/tied':>13} {'share':>6} {'seconds':>8} {'stops':>5}"
    )
    if not args.json:
        print(header)
    for variant in args.variants:
        for pairing in args.pairings:
            bot, opponent = pairing.split(":")
            row = bench(bot, opponent, variant, args.boards, args.seed, clock)
            if args.json:
                print(json.dumps(row))
            else:
                interval = f"{row['low']:+.1f} .. {row['high']:+.1f}"
                record = f"{row['won']}/{row['lost']}/{row['tied']}"
                mark = "" if row["significant"] else "  (not significant)"
                faults = f"  faults {row['faults']}" if row["faults"] else ""
                print(
                    f"{variant:9} {bot + ' vs ' + opponent:17} {row['boards']:>6} "
                    f"{row['mean']:>+8.1f} {interval:>19} {record:>13} {row['share']:>6.3f} "
                    f"{row['seconds']:>8.1f} {row['stops']:>5}{mark}{faults}"
                )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
