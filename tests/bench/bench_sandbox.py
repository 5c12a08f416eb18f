"""How much the bot sandbox costs: per-decision round trip and start-up time.

Run as root on a prepared host (deploy/sandbox-setup.sh):

    .venv/bin/python tests/bench/bench_sandbox.py [--rounds N] [--starts N] [--no-pin]

The baseline is the raw round trip over plain pipes measured in the same run: a host
writing one JSON line to a child and reading one back with a buffered readline. By
default the host and its bots share one CPU, since crossing CPUs in a VM costs more
than the sandbox does (a plain-pipe round trip took about 12 µs on one CPU and 55 to
85 µs across two when the sandbox was designed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.sandbox import (  # noqa: E402
    BotConnection,
    BotProcess,
    InProcessBot,
    PlainProcess,
    SandboxConfig,
    sandbox_problems,
)

ECHO_DIR = ROOT / "tests" / "arena" / "sandbox" / "bots"
ECHO = ECHO_DIR / "echo.py"
HELLO = {"id": 0, "type": "hello"}
WARM_UP = 200


def summary(name: str, samples_ns: list[int]) -> float:
    """Print median and p95 in microseconds; return the median."""
    ordered = sorted(samples_ns)
    median = statistics.median(ordered) / 1000
    p95 = ordered[int(len(ordered) * 0.95)] / 1000
    print(f"  {name:<34} median {median:9.1f} us   p95 {p95:9.1f} us   (n={len(ordered)})")
    return median


def time_calls(call: Callable[[int], object], rounds: int) -> list[int]:
    for number in range(WARM_UP):
        call(number)
    samples = []
    for number in range(rounds):
        started = time.perf_counter_ns()
        call(number)
        samples.append(time.perf_counter_ns() - started)
    return samples


def raw_pipe_round_trips(interpreter: str, rounds: int) -> list[int]:
    """The floor: blocking buffered pipes, no deadline, no checks."""
    child = subprocess.Popen(
        [interpreter, "-B", str(ECHO)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert child.stdin is not None and child.stdout is not None
    stdin, stdout = child.stdin, child.stdout

    def call(number: int) -> object:
        stdin.write(json.dumps({"id": number, "type": "act"}).encode() + b"\n")
        stdin.flush()
        return json.loads(stdout.readline())

    try:
        return time_calls(call, rounds)
    finally:
        child.kill()
        child.wait()


def connection_round_trips(bot: BotConnection, rounds: int) -> list[int]:
    with bot:
        return time_calls(lambda number: bot.request({"id": number, "type": "act"}), rounds)


def start_ups(start: Callable[[], BotConnection], count: int) -> list[int]:
    samples = []
    for _ in range(count):
        started = time.perf_counter_ns()
        bot = start()
        samples.append(time.perf_counter_ns() - started)
        bot.close()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000, help="round trips per measure")
    parser.add_argument("--starts", type=int, default=30, help="start-ups per measure")
    parser.add_argument("--no-pin", action="store_true", help="let bots run on any CPU")
    arguments = parser.parse_args()

    config = SandboxConfig()
    problems = sandbox_problems(config)
    if problems:
        print("cannot benchmark the sandbox here: " + "; ".join(problems), file=sys.stderr)
        return 1
    if not arguments.no_pin:
        # Children (and bwrap's) inherit the affinity.
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    pinned = "unpinned" if arguments.no_pin else "host and bot pinned to one CPU"
    print(f"Round trip of one JSON line, {arguments.rounds} rounds ({pinned}):")
    raw = summary(
        "raw plain pipes (baseline)", raw_pipe_round_trips(config.interpreter, arguments.rounds)
    )
    in_process = summary(
        "in-process callable",
        connection_round_trips(
            InProcessBot.start(lambda message: {"id": message["id"]}, hello=HELLO),
            arguments.rounds,
        ),
    )
    plain = summary(
        "PlainProcess",
        connection_round_trips(
            PlainProcess.start(config, ECHO_DIR, entry="echo.py", hello=HELLO), arguments.rounds
        ),
    )
    sandboxed = summary(
        "BotProcess (sandboxed)",
        connection_round_trips(
            BotProcess.start(config, ECHO_DIR, entry="echo.py", hello=HELLO), arguments.rounds
        ),
    )
    print(
        f"  sandboxed / raw: {sandboxed / raw:.2f}x   plain / raw: {plain / raw:.2f}x   "
        f"in-process / raw: {in_process / raw:.2f}x"
    )

    print(f"Start-up, spawn to the answer to the first message, {arguments.starts} starts:")
    summary(
        "PlainProcess",
        start_ups(
            lambda: PlainProcess.start(config, ECHO_DIR, entry="echo.py", hello=HELLO),
            arguments.starts,
        ),
    )
    summary(
        "BotProcess (sandboxed)",
        start_ups(
            lambda: BotProcess.start(config, ECHO_DIR, entry="echo.py", hello=HELLO),
            arguments.starts,
        ),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
