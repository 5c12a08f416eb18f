"""How long the board-level rating fit takes, as each rated match refits its variant.

    .venv/bin/python tests/bench/bench_rating_fit.py --versions 10 25 50 100

For each pool size it builds a variant's tallies (each version met a third of the others,
each pair over 20 to 200 boards, seeded), fits them with ``arena.elo.fit_ratings``
(intervals and boards to separate included) and prints the median seconds per fit against
a two-version fit measured in the same run: the completion lock is held for this long.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Sequence

from arena.elo import Tally, fit_ratings


def tallies(versions: int, seed: int) -> dict[tuple[int, int], Tally]:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(versions)]
    made = {}
    for a in range(versions):
        for b in range(a + 1, versions):
            if versions > 3 and rng.random() > 1 / 3:
                continue
            boards = rng.randrange(20, 201)
            p = 1 / (1 + 10 ** ((strength[b] - strength[a]) * 0.5))
            wins = sum(rng.random() < p for _ in range(boards))
            draws = rng.randrange(0, boards - wins + 1) // 4
            made[(a, b)] = Tally(wins, draws, boards - wins - draws)
    return made


def seconds_per_fit(data: dict[tuple[int, int], Tally], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fit = fit_ratings(data)
        ordered = sorted(fit.ratings, key=lambda v: -fit.ratings[v].rating)
        for upper, lower in itertools.pairwise(ordered):
            fit.boards_to_separate(upper, lower)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, nargs="+", default=[10, 25, 50, 100])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    baseline = seconds_per_fit(tallies(2, 0), args.repeats)
    print(f"{'versions':>8} {'pairs':>6} {'seconds':>9} {'x two-version fit':>18}")
    print(f"{2:>8} {1:>6} {baseline:>9.4f} {1.0:>18.1f}")
    for versions in args.versions:
        data = tallies(versions, versions)
        seconds = seconds_per_fit(data, args.repeats)
        print(f"{versions:>8} {len(data):>6} {seconds:>9.4f} {seconds / baseline:>18.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
