"""A human against a bot, scored on the same cards as the bot itself plays them.

The human plays every board once, at one table: the human in one seat, the challenged bot
(Y) in every other seat (in partnership games the human's partner is a copy of the bot).
The same board is then played at a second table with the bot in every seat: the bot-only
table (``tables.bot_table``). The two tables have the same cards, the same dealer,
the same partner and the same opponents; the only difference is who plays the human's
seat. The board compares exactly that and nothing else: the luck of the cards cancels, as
in any duplicate comparison (RULES.md section 9), and so does the play of the partner and
the opponents, which are the same bot at both tables.

The human never sees a deal twice: the bot-only table is never shown to the human before
the human's table of that board is over, and no later table of the challenge deals it
again. (The earlier format seated the human at a second table of every board in another
seat, whose cards the first table had shown.)

The human's seat rotates over the boards so that the human plays every position relative
to the dealer: board ``n`` (dealt by the game's ``board_dealer(n)``, as every match deals)
seats the human ``n`` seats after the dealer, from the dealer's left round to the dealer.

A side's margin at a table is its mean seat score minus the mean of the other seats
(``bots.duplicate.table_result``'s arithmetic). The board result is the human side's
margin at the human's table minus the same side's margin at the bot-only table, rounded:
positive when the human did better than the bot in the same seat. In a partnership game it
is exactly the board result an arena match would give the human's side against the bot
with the human's table as table A and the bot-only table as table B (same cards, the
other side's score seen from the human's side), so it has the arena's scale.

Challenges started before this format (``two_tables``) keep their tables and results; their
arithmetic is ``two_table_result`` over the lineups of ``two_tables``.

Worked examples in each kind of game: tests/tables/test_challenge_board_examples.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from engine.registry import load_game

MAX_BOARDS = 8
"""A short match: a human plays one table of every board."""


def human_seat(number: int, variant: str) -> int:
    """The human's seat on board ``number``: ``number`` seats after the board's dealer,
    passing to the left as the deal does."""
    game = load_game(variant)
    seat = game.board_dealer(number)
    for _ in range(number):
        seat = game.next_dealer(seat)
    return seat


def lineup(seat: int, variant: str) -> tuple[int, ...]:
    """0 at the human's side (the human's seat, and the partner's), 1 at every other seat."""
    game = load_game(variant)
    ours = game.teams[game.side_of(seat)]
    return tuple(0 if other in ours else 1 for other in range(game.players))


def margin(side_scores: Sequence[int], lineup: Sequence[int], variant: str) -> Fraction:
    """The mean seat score where the lineup has 0 minus the mean where it has 1 (the
    game's ``margin``, as the arena's duplicate tables are scored)."""
    return load_game(variant).margin(side_scores, lineup)


def board_result(
    human_table: Sequence[int], bot_table: Sequence[int], *, seat: int, variant: str
) -> int:
    """The human's result on a board: the human side's margin at the human's table minus
    the same side's margin at the bot-only table (both given as the table's score per side)."""
    sides = lineup(seat, variant)
    return round(margin(human_table, sides, variant) - margin(bot_table, sides, variant))


def two_tables(variant: str) -> dict[str, tuple[int, ...]]:
    """The earlier format's tables of a board: 0 where the human's side sat, 1 the bot's."""
    game = load_game(variant)
    if game.partnership:
        return game.seatings
    return {
        chr(ord("A") + seat): tuple(0 if other == seat else 1 for other in range(game.players))
        for seat in range(game.players)
    }


def two_table_seat(table: str, variant: str) -> int:
    """The human's seat at a table of the earlier format: the first seat of the human's side."""
    return two_tables(variant)[table].index(0)


def two_table_result(by_table: Mapping[str, Sequence[int]], variant: str) -> int:
    """The earlier format's board result: the human's margin summed over the board's tables."""
    lineups = two_tables(variant)
    total = sum(
        (margin(scores, lineups[name], variant) for name, scores in by_table.items()),
        Fraction(0),
    )
    return round(total)
