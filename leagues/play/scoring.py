"""A human against a bot, scored as the arena scores bot matches (bots/duplicate.py).

Each board is played at several tables with the same cards and the same dealer, the human
(X) in a different seat at each; every other seat is the challenged bot (Y):

- partnership games (RULES.md section 9): table A with X at seats 0/2, table B with X at
  1/3, as in an arena match. The human sits at seat 0, then seat 1, and the human's partner
  is a copy of the challenged bot. At the two tables the bot then plays exactly the cards
  the human did not, so the board compares the human with the bot on the same cards in the
  same seats, and nothing else (a third bot as partner would add its own play to the gap);
- individual games: one table for each seat, the human there and the bot in every other
  seat, so the human plays every hand of the deal once, as each bot does in a rotation.

X's table result is the mean score of X's seats minus the mean of Y's; the board result is
the sum over the tables, rounded (``bots.duplicate.table_result``'s arithmetic).

>>> tables("single4")
{'A': (0, 1, 0, 1), 'B': (1, 0, 1, 0)}
>>> tables("cutthroat3")
{'A': (0, 1, 1), 'B': (1, 0, 1), 'C': (1, 1, 0)}
>>> human_seat_at("B", "single4")
1
>>> board_result({"A": [30, -10], "B": [-5, 20]}, "single4")
65
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bots.games import game_for

MAX_BOARDS = 8
"""A short match: a human plays every table of every board."""


def tables(variant: str) -> dict[str, tuple[int, ...]]:
    """Each table's lineup: 0 where the human's side sits, 1 where the bot's does."""
    game = game_for(variant)
    if game.partnership:
        return game.seatings
    return {
        chr(ord("A") + seat): tuple(0 if other == seat else 1 for other in range(game.players))
        for seat in range(game.players)
    }


def human_seat_at(table: str, variant: str) -> int:
    """The human's seat at a table: the first seat of X's side."""
    return tables(variant)[table].index(0)


def table_result(side_scores: Sequence[int], lineup: Sequence[int], variant: str) -> Fraction:
    """X's mean seat score minus Y's at one table, from the table's score per side."""
    game = game_for(variant)
    seats = [int(side_scores[game.side_of(seat)]) for seat in range(game.players)]
    x = [seats[seat] for seat in range(game.players) if lineup[seat] == 0]
    y = [seats[seat] for seat in range(game.players) if lineup[seat] == 1]
    return Fraction(sum(x), len(x)) - Fraction(sum(y), len(y))


def board_result(by_table: Mapping[str, Sequence[int]], variant: str) -> int:
    """The human's duplicate result on one board, from every table's score per side."""
    lineups = tables(variant)
    total = sum(
        (table_result(scores, lineups[name], variant) for name, scores in by_table.items()),
        Fraction(0),
    )
    return round(total)
