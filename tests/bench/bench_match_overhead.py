"""What the sandbox costs a whole match: sandboxed bot processes against in-process bots.

    python tests/bench/bench_match_overhead.py [--boards 1000] [--variant single4]

Both runs play the same duplicate match (same deals, both tables) between four trivial
bots (the first legal action) through the same referee (bots.match); the baseline calls
the SDK bots in this process (messages still JSON-encoded both ways), the measured run
starts one sandboxed process per seat per table (arena.runner, bubblewrap + seccomp +
rlimits + cgroups). Prints both times and their ratio (target: at most 3x). Run as root
on a machine prepared by deploy/sandbox-setup.sh.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.runner import MatchPlan, VersionFiles, run_match  # noqa: E402
from arena.sandbox import SandboxConfig, sandbox_problems  # noqa: E402
from bots import protocol  # noqa: E402
from bots.local import LocalAgent  # noqa: E402
from bots.match import combine_tables, play_table  # noqa: E402
from bots.sdk import FunctionBot  # noqa: E402
from bots.table import Agent, hello_for  # noqa: E402
from engine.registry import load_game  # noqa: E402

TRIVIAL = b"def act(observation, legal):\n    return legal[0]\n"


def in_process(variant: str, boards: int, seed: int) -> tuple[float, int]:
    game = load_game(variant)
    rules = game.rules_for(None)

    def start(table: str, seat: int) -> Agent:
        agent = LocalAgent(FunctionBot(lambda observation, legal: legal[0], "trivial"))
        agent.start(
            hello_for(
                game,
                rules,
                seat=seat,
                boards=boards,
                time=protocol.TimeControl(1000, 60000, 10000),
            )
        )
        return agent

    started = time.perf_counter()
    tables = {
        name: play_table(
            name,
            game=game,
            rules=rules,
            boards=range(1, boards + 1),
            match_seed=seed,
            start_agent=start,
        )
        for name in game.seatings
    }
    paired = combine_tables(tables, game, rules)
    return time.perf_counter() - started, sum(board.result for board in paired)


def sandboxed(variant: str, boards: int, seed: int) -> tuple[float, int]:
    config = SandboxConfig(runtime_packages=(str(ROOT / "engine"), str(ROOT / "bots")))
    problems = sandbox_problems(config)
    if problems:
        raise SystemExit("cannot sandbox here: " + "; ".join(problems))
    files = VersionFiles(1, "module", TRIVIAL)
    game = load_game(variant)
    plan = MatchPlan(
        game=game,
        rules=game.rules_for(None),
        seed=seed,
        boards=boards,
        x=files,
        y=files,
        decision_ms=1000,
        bank_ms=600_000,
    )
    started = time.perf_counter()
    outcome = run_match(plan, config=config, sandboxed=True)
    assert outcome.faults == 0
    return time.perf_counter() - started, outcome.summary.total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--variant", default="single4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        print(f"cpus: {len(os.sched_getaffinity(0))}")
    base_time, base_total = in_process(args.variant, args.boards, args.seed)
    box_time, box_total = sandboxed(args.variant, args.boards, args.seed)
    assert base_total == box_total == 0, "identical bots must tie on every board"
    games = 2 * args.boards
    print(f"{args.variant}, {args.boards} duplicate boards ({games} games), 4 trivial bots")
    print(f"in-process : {base_time:8.2f} s  {games / base_time:8.1f} games/s")
    print(f"sandboxed  : {box_time:8.2f} s  {games / box_time:8.1f} games/s")
    print(f"ratio      : {box_time / base_time:8.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
