"""What the replay viewer's frames cost: time and size per hand, against re-playing it.

    python tests/bench/bench_replay_frames.py [--hands 20] [--repeat 3]

For each variant, random hands are recorded as replays; then, per hand, three timings:
re-playing the replay through the engine (the baseline: ``verify`` does this much), the
frames of one seat's view, and those of the open view; and the JSON the viewer fetches
(raw and gzipped). One core; the best of ``--repeat`` runs is printed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.replay_view import new_replay, replay_frames  # noqa: E402
from engine.registry import load_game, variant_names  # noqa: E402


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def simulate_all(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        load_game(hand["variant"]).read_replay(hand).simulate()


def frames_all(hands: list[dict[str, Any]], seat: int | None) -> None:
    for hand in hands:
        replay_frames(hand, seat=seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    print(f"{options.hands} random hands per variant, best of {options.repeat} runs, one core")
    print(
        f"{'variant':<11} {'steps':>6} {'replay ms':>10} {'seat ms':>8} {'x':>5} "
        f"{'open ms':>8} {'x':>5} {'seat KiB':>9} {'gzip':>6} {'open KiB':>9} {'gzip':>6}"
    )
    for variant in variant_names():
        hands = [new_replay(variant, seed=number) for number in range(options.hands)]
        steps = sum(len(hand["actions"]) + 1 for hand in hands) / len(hands)
        baseline = best(options.repeat, lambda hands=hands: simulate_all(hands)) / len(hands)
        seat = best(options.repeat, lambda hands=hands: frames_all(hands, 1)) / len(hands)
        open_ = best(options.repeat, lambda hands=hands: frames_all(hands, None)) / len(hands)
        seat_json = [json.dumps(replay_frames(h, seat=1)).encode() for h in hands]
        open_json = [json.dumps(replay_frames(h, seat=None)).encode() for h in hands]

        def kib(blobs: list[bytes], packed: bool = False) -> float:
            sizes = [len(gzip.compress(b)) if packed else len(b) for b in blobs]
            return sum(sizes) / len(sizes) / 1024

        print(
            f"{variant:<11} {steps:>6.0f} {baseline * 1000:>10.2f} {seat * 1000:>8.2f} "
            f"{seat / baseline:>5.0f} {open_ * 1000:>8.2f} {open_ / baseline:>5.0f} "
            f"{kib(seat_json):>9.0f} {kib(seat_json, True):>6.0f} "
            f"{kib(open_json):>9.0f} {kib(open_json, True):>6.0f}"
        )


if __name__ == "__main__":
    main()
