"""Try a bot locally: a duplicate match against a reference bot, no server needed.

    python -m bots.play mybot.py --vs greedy --variant auction4 --boards 200

Both bots run in this process through the protocol's messages. The summary gives the
mean board result of the first bot with its 95% interval (see bots.duplicate).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from bots import protocol
from bots.duplicate import summarize
from bots.games import VARIANTS, Game, game_for
from bots.local import LocalAgent
from bots.match import combine_tables, play_table
from bots.sdk import Bot, bot_from_module, load_module
from bots.table import Agent, BoardRecord, SeatFault

PARTNERSHIP_VARIANTS = ("single4", "auction4", "double4")


def _load(spec: str, game: Game) -> ModuleType:
    references = game.reference_bots
    path = references.get(spec, Path(spec))
    if not path.is_file():
        known = ", ".join(sorted(references))
        raise SystemExit(
            f"error: {spec!r} is neither a bot file nor a reference bot for "
            f"{game.variant} ({known})"
        )
    return load_module(path)


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
    bot_x: Callable[[], Bot],
    bot_y: Callable[[], Bot],
    *,
    game: Game,
    rules: Any,
    boards: int,
    seed: int,
    tick: Callable[[], None] = lambda: None,
) -> tuple[list[int], int]:
    """Play the match; return X's board results and the number of faulted boards."""
    makers = (bot_x, bot_y)
    seatings = game.seatings

    def start(table: str, seat: int) -> Agent:
        agent = LocalAgent(makers[seatings[table][seat]]())
        hello = protocol.hello_message(
            game=str(getattr(rules, "game", game.variant)),
            variant=game.variant,
            rules=rules.to_json(),
            seat=seat,
            players=game.players,
            boards=boards,
            time=protocol.TimeControl(decision_ms=10_000, bank_ms=600_000, startup_ms=10_000),
        )
        try:
            protocol.read_ready(agent.start(hello))
        except protocol.ProtocolViolation as violation:
            raise SeatFault(str(violation)) from None
        return agent

    def on_board(_record: BoardRecord) -> None:
        tick()

    numbers = range(1, boards + 1)
    tables = {
        name: play_table(
            name,
            game=game,
            rules=rules,
            boards=numbers,
            match_seed=seed,
            start_agent=start,
            on_board=on_board,
        )
        for name in seatings
    }
    combined = combine_tables(tables, game, rules)
    faults = sum(
        1 for board in combined for record in board.tables.values() if record.fault is not None
    )
    return [board.result for board in combined], faults


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.play", description=__doc__.split("\n")[0])
    parser.add_argument("bot", help="a bot file, or a reference bot's name")
    parser.add_argument("--vs", default="random", help="the opponent (file or reference name)")
    parser.add_argument("--variant", default="auction4", choices=VARIANTS)
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.boards < 2:
        parser.error("--boards must be at least 2 for an interval")
    game = game_for(args.variant)
    rules = game.rules_for(None)
    x, y = _factory(_load(args.bot, game)), _factory(_load(args.vs, game))
    total = len(game.seatings) * args.boards
    with _progress(total, enabled=not args.quiet and sys.stderr.isatty()) as tick:
        results, faults = run(
            x, y, game=game, rules=rules, boards=args.boards, seed=args.seed, tick=tick
        )
    summary = summarize(results)
    report = {
        "bot": args.bot,
        "vs": args.vs,
        "variant": args.variant,
        "seed": args.seed,
        "faults": faults,
        **summary.to_json(),
    }
    if args.json:
        print(json.dumps(report))
    else:
        low, high = summary.interval
        print(f"{args.bot} vs {args.vs}, {args.variant}, {summary.boards} duplicate boards")
        print(f"mean board result {summary.mean:+.1f}  (95% interval {low:+.1f} .. {high:+.1f})")
        print(
            f"boards won {summary.won}, lost {summary.lost}, tied {summary.tied}; "
            f"share of board points {summary.share:.3f}; faults {faults}"
        )
        verdict = "significant" if summary.significant else "not significant at 95%"
        print(f"difference: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
