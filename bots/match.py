"""A duplicate match between two partnership bots: every board at two tables.

Table A seats bot X at 0/2 and bot Y at 1/3; table B swaps them. Each table gets fresh
bots (no memory of the other table) that stay alive for all its boards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots.duplicate import board_dealer, board_result, board_seed, team_scores
from bots.table import Agent, BoardRecord, Table
from engine.hand import new_hand
from engine.rules import Rules

TABLES = ("A", "B")

# seat -> 0 for bot X, 1 for bot Y, at each table
SEATING = {"A": (0, 1, 0, 1), "B": (1, 0, 1, 0)}

StartAgent = Callable[[str, int], Agent]
"""Start the bot for (table, seat): the caller knows which bot sits there (SEATING)."""


@dataclass(frozen=True)
class DuplicateBoard:
    board: int
    seed: int
    tables: tuple[BoardRecord, BoardRecord]
    result: int
    """Bot X's duplicate result on this board."""


def play_table(
    table_name: str,
    *,
    rules: Rules,
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
        [None] * 4, restart=lambda seat: start_agent(table_name, seat), bot_faults=bot_faults
    )
    records = []
    totals = [0, 0]
    for board in boards:
        seed = board_seed(match_seed, board)
        state = new_hand(rules.name, seed=seed, dealer=board_dealer(board), rules=rules)
        record = table.play_board(state, board=board, seed=seed)
        for team, score in enumerate(team_scores(record, rules)):
            totals[team] += score
        records.append(record)
        if on_board is not None:
            on_board(record)
    table.finish(totals)
    return records


def pair_boards(
    table_a: Sequence[BoardRecord], table_b: Sequence[BoardRecord], rules: Rules
) -> list[DuplicateBoard]:
    """Join the two tables' records board by board and score them for bot X."""
    paired = []
    for first, second in zip(table_a, table_b, strict=True):
        if first.board != second.board or first.seed != second.seed:
            raise ValueError(f"board {first.board} was not the same deal at both tables")
        paired.append(
            DuplicateBoard(
                first.board, first.seed, (first, second), board_result(first, second, rules)
            )
        )
    return paired
