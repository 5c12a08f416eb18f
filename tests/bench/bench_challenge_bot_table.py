"""What a challenge board's bot-only table costs, per variant and reference bot.

    python tests/bench/bench_challenge_bot_table.py [--boards 5] [--bots random,greedy,strong]

The bot-only table (``tables.bot_table.play``) is one board with the challenged bot at
every seat, each decision made as at a human's table (the bot rebuilt from what its seat
heard, under the reference clock). Bots in ``bot_table.INLINE_BOTS`` are played in the web
process when the challenge is next read, so their board must cost about as little as a page;
the others go through the ``play.challenge_par`` task. Prints the mean and the largest time
of a board over ``--boards`` deals, and the decisions a board took. No database is needed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from bots.reference import reference_bots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=5)
    parser.add_argument("--bots", default="random,greedy,strong")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()

    from engine.registry import load_game, variant_names
    from tables import bot_table
    from tables.referee import Seat

    print(f"{'variant':<11} {'bot':<7} {'inline':>6} {'decisions':>9} {'mean ms':>8} {'max ms':>8}")
    for variant in variant_names():
        for name in args.bots.split(","):
            if name not in reference_bots(load_game(variant)):
                continue
            times, decisions = [], []
            for number in range(1, args.boards + 1):
                started = time.perf_counter()
                played = bot_table.play(
                    variant=variant,
                    rules=None,
                    seed=1000 + number,
                    dealer=number % load_game(variant).players,
                    bot=Seat("reference", name),
                )
                times.append((time.perf_counter() - started) * 1000)
                decisions.append(len(played["actions"]))
            inline = "yes" if name in bot_table.INLINE_BOTS else "task"
            print(
                f"{variant:<11} {name:<7} {inline:>6} {statistics.fmean(decisions):>9.0f} "
                f"{statistics.fmean(times):>8.0f} {max(times):>8.0f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
