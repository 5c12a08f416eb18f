"""A duplicate match between two bots: every board at every table of the seating plan.

Partnership games use two tables (X at seats 0/2, then at 1/3); individual games one
table per arrangement of the two bots over the seats (``Game.seatings``). Each
table gets fresh bots (no memory of the other tables) that stay alive for all its boards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bots.duplicate import board_result, board_seed, side_scores
from bots.table import Agent, BoardRecord, Table
from engine.interface import AnyGame

StartAgent = Callable[[str, int], Agent]
"""Start the bot for (table, seat): the caller knows which bot sits there (the seating)."""


@dataclass(frozen=True)
class DuplicateBoard:
    board: int
    seed: int
    tables: dict[str, BoardRecord]
    result: int
    """Bot X's duplicate result on this board."""


def play_table(
    table_name: str,
    *,
    game: AnyGame,
    rules: Any,
    boards: Sequence[int],
    match_seed: int,
    start_agent: StartAgent,
    bot_faults: tuple[type[BaseException], ...] = (),
    on_board: Callable[[BoardRecord], None] | None = None,
) -> list[BoardRecord]:
    """Play the given boards at one table, returning one record per board."""
    # Bots start inside the table's first board, so a bot that fails to start forfeits
    # boards like any other fault instead of aborting the table.
    table = Table(
        [None] * game.players,
        restart=lambda seat: start_agent(table_name, seat),
        bot_faults=bot_faults,
        game=game,
    )
    records = []
    seating = game.seatings.get(table_name)
    totals = [0] * len(game.teams)
    dealt = game.with_rules(rules)
    for board in boards:
        seed = board_seed(match_seed, board)
        state = dealt.new_initial_state(seed=seed, dealer=game.board_dealer(board))
        record = table.play_board(state, board=board, seed=seed)
        for side, score in enumerate(side_scores(record, game, rules, seating)):
            totals[side] += score
        records.append(record)
        if on_board is not None:
            on_board(record)
    table.finish(totals)
    return records


def combine_tables(
    tables: Mapping[str, Sequence[BoardRecord]], game: AnyGame, rules: Any
) -> list[DuplicateBoard]:
    """Join the tables' records board by board and score them for bot X."""
    names = list(tables)
    combined = []
    for records in zip(*(tables[name] for name in names), strict=True):
        first = records[0]
        if any(r.board != first.board or r.seed != first.seed for r in records):
            raise ValueError(f"board {first.board} was not the same deal at every table")
        by_table = dict(zip(names, records, strict=True))
        combined.append(
            DuplicateBoard(first.board, first.seed, by_table, board_result(by_table, game, rules))
        )
    return combined
