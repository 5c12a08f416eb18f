"""Try a bot locally: a duplicate match against a reference bot, no server needed.

    python -m bots.play mybot.py --vs greedy --boards 200
    python -m bots.play --cmd 'node mybot.js' --vs random --variant VARIANT

``--variant`` is any registered variant (``--help`` lists them; by default the first
registered), a game registered before ``main`` runs included.

The bot is an SDK bot file (a Bot subclass or ``act``), a Python script that speaks the
protocol itself, or any command line (``--cmd``, and ``--vs-cmd`` for the opponent). SDK
bots run in this process; the others as child processes under the arena's clock and
protocol rules (``bots.program``). Every seat is refereed by the arena's own table code
(``bots.match``), with the arena's default time control, so a local result predicts the
arena's. The summary gives the mean board result of the first bot with its 95% interval
(see bots.duplicate).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from bots import protocol
from bots.duplicate import summarize
from bots.local import LocalAgent
from bots.match import combine_tables, play_table
from bots.program import ProgramAgent, ProgramFault
from bots.reference import reference_bots
from bots.sdk import Bot, bot_from_module, load_module, uses_sdk
from bots.table import Agent, BoardRecord, SeatFault, hello_for
from engine.interface import AnyGame
from engine.registry import load_game, variant_names

ARENA_CLOCK = protocol.TimeControl(decision_ms=1000, bank_ms=60_000, startup_ms=10_000)
"""The arena's default time control (MATCH_DECISION_MS, MATCH_BANK_MS, start-up)."""

_PROJECT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Program:
    """A bot run as a child process: any program that speaks the protocol."""

    argv: tuple[str, ...]
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] | None = None

    @classmethod
    def python_script(cls, path: Path) -> Program:
        """A Python file run as the arena runs an upload: ``python -m bots.sdk bot.py``."""
        path_entries = [str(_PROJECT), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path_entries)}
        return cls(
            (sys.executable, "-m", "bots.sdk", str(path.resolve())),
            cwd=str(path.resolve().parent),
            env=tuple(env.items()),
        )

    @classmethod
    def command(cls, line: str) -> Program:
        argv = tuple(shlex.split(line))
        if not argv:
            raise SystemExit("error: --cmd needs a command line")
        return cls(argv)


BotSpec = Callable[[], Bot] | Program
"""How to get a fresh bot for a seat: make an SDK bot, or start a program."""


def _load(spec: str, game: AnyGame) -> BotSpec:
    references = reference_bots(game)
    path = references.get(spec, Path(spec))
    if not path.is_file():
        known = ", ".join(sorted(references))
        raise SystemExit(
            f"error: {spec!r} is neither a bot file nor a reference bot for "
            f"{game.variant} ({known})"
        )
    try:
        sdk = uses_sdk(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, SyntaxError) as error:
        raise SystemExit(f"error: {path} is not a Python bot: {error}") from None
    if not sdk:
        return Program.python_script(path)
    return _factory(load_module(path))


def _factory(module: ModuleType) -> Callable[[], Bot]:
    def make() -> Bot:
        bot = bot_from_module(module)
        if bot is None:
            raise SystemExit(f"error: {module.__file__} defines neither a Bot subclass nor act()")
        return bot

    make()  # fail early, before any board is played
    return make


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[], None]]:
    if not enabled:
        yield lambda: None
        return
    try:
        from rich.progress import Progress
    except ImportError:
        yield lambda: None
        return
    with Progress(transient=True) as progress:
        task = progress.add_task("boards", total=total)
        yield lambda: progress.advance(task)


def run(
    bot_x: BotSpec,
    bot_y: BotSpec,
    *,
    game: AnyGame,
    rules: Any,
    boards: int,
    seed: int,
    clock: protocol.TimeControl = ARENA_CLOCK,
    tick: Callable[[], None] = lambda: None,
    on_board: Callable[[str, BoardRecord], None] | None = None,
) -> tuple[list[int], int]:
    """Play the match; return X's board results and the number of faulted boards."""
    specs = (bot_x, bot_y)
    seatings = game.seatings
    programs: list[ProgramAgent] = []

    def start(table: str, seat: int) -> Agent:
        hello = hello_for(game, rules, seat=seat, boards=boards, time=clock)
        spec = specs[seatings[table][seat]]
        if isinstance(spec, Program):
            env = None if spec.env is None else dict(spec.env)
            program = ProgramAgent.start(spec.argv, hello=hello, clock=clock, cwd=spec.cwd, env=env)
            programs.append(program)
            return program
        agent = LocalAgent(spec())
        try:
            protocol.read_ready(agent.start(hello))
        except protocol.ProtocolViolation as violation:
            raise SeatFault(str(violation)) from None
        return agent

    def played(table: str) -> Callable[[BoardRecord], None]:
        def done(record: BoardRecord) -> None:
            tick()
            if on_board is not None:
                on_board(table, record)

        return done

    numbers = range(1, boards + 1)
    tables = {}
    try:
        for name in seatings:
            tables[name] = play_table(
                name,
                game=game,
                rules=rules,
                boards=numbers,
                match_seed=seed,
                start_agent=start,
                bot_faults=(ProgramFault,),
                on_board=played(name),
            )
            # Every program of the table has had its bye; any still running is stopped.
            while programs:
                programs.pop().close()
    finally:
        for program in programs:
            program.close()
    combined = combine_tables(tables, game, rules)
    faults = sum(
        1 for board in combined for record in board.tables.values() if record.fault is not None
    )
    return [board.result for board in combined], faults


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.play", description=__doc__.split("\n")[0])
    parser.add_argument("bot", nargs="?", help="a bot file, or a reference bot's name")
    parser.add_argument("--cmd", help="the bot as a command line, e.g. 'node mybot.js'")
    parser.add_argument("--vs", default="random", help="the opponent (file or reference name)")
    parser.add_argument("--vs-cmd", help="the opponent as a command line")
    # Asked of the registry now, not at import: a game registered since is offered too.
    variants = variant_names()
    parser.add_argument(
        "--variant", default=variants[0], choices=variants, help="default: %(default)s"
    )
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decision-ms", type=int, default=ARENA_CLOCK.decision_ms)
    parser.add_argument("--bank-ms", type=int, default=ARENA_CLOCK.bank_ms, help="per board")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.boards < 2:
        parser.error("--boards must be at least 2 for an interval")
    if (args.bot is None) == (args.cmd is None):
        parser.error("give the bot as a file or reference name, or as --cmd, not both")
    if args.decision_ms <= 0 or args.bank_ms <= 0:
        parser.error("--decision-ms and --bank-ms must be positive")
    game = load_game(args.variant)
    rules = game.rules_for(None)
    x = Program.command(args.cmd) if args.cmd else _load(args.bot, game)
    y = Program.command(args.vs_cmd) if args.vs_cmd else _load(args.vs, game)
    clock = protocol.TimeControl(args.decision_ms, args.bank_ms, ARENA_CLOCK.startup_ms)
    total = len(game.seatings) * args.boards
    fault_lines: list[str] = []

    def note_fault(table: str, record: BoardRecord) -> None:
        if record.fault is not None:
            fault = record.fault
            fault_lines.append(
                f"board {record.board} table {table} seat {fault.seat}: {fault.kind}: "
                f"{fault.reason}"
            )

    with _progress(total, enabled=not args.quiet and sys.stderr.isatty()) as tick:
        results, faults = run(
            x,
            y,
            game=game,
            rules=rules,
            boards=args.boards,
            seed=args.seed,
            clock=clock,
            tick=tick,
            on_board=note_fault,
        )
    summary = summarize(results)
    name = args.cmd or args.bot
    opponent = args.vs_cmd or args.vs
    report = {
        "bot": name,
        "vs": opponent,
        "variant": args.variant,
        "seed": args.seed,
        "faults": faults,
        "first_faults": fault_lines[:5],
        **summary.to_json(),
    }
    if args.json:
        print(json.dumps(report))
    else:
        low, high = summary.interval
        print(f"{name} vs {opponent}, {args.variant}, {summary.boards} duplicate boards")
        print(f"mean board result {summary.mean:+.1f}  (95% interval {low:+.1f} .. {high:+.1f})")
        print(
            f"boards won {summary.won}, lost {summary.lost}, tied {summary.tied}; "
            f"share of board points {summary.share:.3f}; faults {faults}"
        )
        verdict = "significant" if summary.significant else "not significant at 95%"
        print(f"difference: {verdict}")
        for line in fault_lines[:5]:
            print(f"fault: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
