"""Figures for the three-hand and two-hand strong reference bots: duplicate against greedy.

    .venv/bin/python tests/bench/bench_strong_small.py --boards 400

For ``cutthroat3`` and ``twohand`` it plays a duplicate match of the strong reference bot
against the greedy one with ``bots.play.run`` (every arrangement of the two bots over the
seats, RULES.md section 9) and prints strong's mean board result, its 95% interval,
boards won/lost/tied, faults, the seconds taken, how often the safety clock cut a search
short (``stops``) and whether the C kernel played the playouts. The announced clock is the
arena's own (a second a decision, a minute a board): both bots' budgets are then their
caps, so the figures do not depend on the machine unless a safety stop fires (counted).
Not collected by pytest: it takes minutes.

On a busy machine a long match may be played in parts, each on its own match seed (its
own deals), and summarised together: ``--json --keep-results`` prints each part's board
results, and ``--combine FILE...`` reads such lines and prints one row per variant over
all of their boards.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from bots.duplicate import summarize
from bots.play import ARENA_CLOCK, run
from bots.protocol import TimeControl
from bots.reference import reference_bots
from bots.sdk import Bot, bot_from_module, load_module
from engine.kernel import KERNEL
from engine.registry import load_game

VARIANTS = ("cutthroat3", "twohand")


def maker(variant: str, name: str, made: list[Bot]) -> Callable[[], Bot]:
    module = load_module(reference_bots(load_game(variant))[name])

    def make() -> Bot:
        bot = bot_from_module(module)
        assert bot is not None
        made.append(bot)
        return bot

    return make


def bench(variant: str, boards: int, seed: int, clock: TimeControl) -> dict[str, object]:
    game = load_game(variant)
    made: list[Bot] = []
    started = time.perf_counter()
    results, faults = run(
        maker(variant, "strong", made),
        maker(variant, "greedy", made),
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
        "variant": variant,
        "boards": summary.boards,
        "seed": seed,
        "mean": round(summary.mean, 2),
        "low": round(low, 2),
        "high": round(high, 2),
        "won": summary.won,
        "lost": summary.lost,
        "tied": summary.tied,
        "faults": faults,
        "seconds": round(seconds, 1),
        "stops": sum(int(getattr(bot, "safety_stops", 0)) for bot in made),
        "kernel": KERNEL is not None,
        "results": results,
    }


def combine(paths: list[str]) -> list[dict[str, object]]:
    """One row per variant over the boards of every part in ``paths`` (JSON lines)."""
    parts: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        with open(path) as lines:
            for line in lines:
                if line.strip():
                    row = json.loads(line)
                    parts.setdefault(row["variant"], []).append(row)
    rows = []
    for variant, found in parts.items():
        results = [result for row in found for result in row["results"]]
        summary = summarize(results)
        low, high = summary.interval
        rows.append(
            {
                "variant": variant,
                "boards": summary.boards,
                "seed": ",".join(str(row["seed"]) for row in found),
                "mean": round(summary.mean, 2),
                "low": round(low, 2),
                "high": round(high, 2),
                "won": summary.won,
                "lost": summary.lost,
                "tied": summary.tied,
                "faults": sum(int(row["faults"]) for row in found),
                "seconds": round(sum(float(row["seconds"]) for row in found), 1),
                "stops": sum(int(row["stops"]) for row in found),
                "kernel": all(row["kernel"] for row in found),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--decision-ms", type=int, default=ARENA_CLOCK.decision_ms)
    parser.add_argument("--bank-ms", type=int, default=ARENA_CLOCK.bank_ms, help="per board")
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    parser.add_argument(
        "--keep-results", action="store_true", help="with --json: each board's result too"
    )
    parser.add_argument("--combine", nargs="+", metavar="FILE", help="summarise saved parts")
    args = parser.parse_args(argv)
    clock = TimeControl(args.decision_ms, args.bank_ms, startup_ms=ARENA_CLOCK.startup_ms)
    if not args.json:
        print(
            f"{'variant':10} {'boards':>6} {'mean':>8} {'95% interval':>19} "
            f"{'won/lost/tied':>13} {'faults':>6} {'seconds':>8} {'stops':>5} kernel"
        )
    rows = (
        combine(args.combine)
        if args.combine
        else (bench(variant, args.boards, args.seed, clock) for variant in args.variants)
    )
    for row in rows:
        if args.json:
            if not args.keep_results:
                row.pop("results", None)
            print(json.dumps(row))
        else:
            interval = f"{row['low']:+.1f} .. {row['high']:+.1f}"
            record = f"{row['won']}/{row['lost']}/{row['tied']}"
            print(
                f"{row['variant']:10} {row['boards']:>6} {row['mean']:>+8.1f} {interval:>19} "
                f"{record:>13} {row['faults']:>6} {row['seconds']:>8.1f} {row['stops']:>5} "
                f"{'yes' if row['kernel'] else 'no'}  seed {row['seed']}"
            )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
