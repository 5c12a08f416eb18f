"""Who moves up and who moves down: rules, without the database.

- Between divisions, after a season: the best ``promoted`` of a division go up a level, the
  worst ``relegated`` go down one (``models.Division``); promotion is looked at first.
- On a ladder, after each round: a challenger (X of its fixture) who won, on the board or by
  the defender's forfeit, takes the defender's rung (``scheduling.ladder_after``); a lost
  challenge, a double forfeit or a void match moves nobody. The standings of a ladder are
  ranked by rung, an entry not yet on a rung by its entry number.

The selectors mark the standings and the services move the entries; both ask here.

>>> season_move(1, 10, promoted=2, relegated=3)
<Move.UP: 'promoted'>
>>> season_move(8, 10, promoted=2, relegated=3)
<Move.DOWN: 'relegated'>
>>> season_move(1, 10, promoted=2, relegated=3, above=False)
<Move.STAY: ''>
>>> challenger_won(Result.Y_FORFEITED), challenger_won(Result.BOTH_FORFEITED)
(True, False)
>>> sorted([(None, 3), (2, 1), (1, 2)], key=lambda entry: ladder_rank(*entry))
[(1, 2), (2, 1), (None, 3)]
"""

from __future__ import annotations

from enum import Enum

from leagues.fixture_results import Result


class Move(Enum):
    """Where a season's place takes an entry; the value is the standings' mark."""

    UP = "promoted"
    DOWN = "relegated"
    STAY = ""


def season_move(
    rank: int,
    size: int,
    *,
    promoted: int,
    relegated: int,
    above: bool = True,
    below: bool = True,
) -> Move:
    """Where rank ``rank`` (1 at the top) of a division of ``size`` goes after the season.

    ``above`` and ``below`` say whether there is a division to go to; without one, the
    entry is not moved that way (and may still be moved the other way)."""
    if above and rank <= promoted:
        return Move.UP
    if below and rank > size - relegated:
        return Move.DOWN
    return Move.STAY


def challenger_won(result: Result) -> bool:
    """Whether a ladder challenge's fixture (the challenger is X) moves the challenger up."""
    return result in (Result.X_WON, Result.Y_FORFEITED)


def ladder_rank(rung: int | None, number: int) -> tuple[int, int]:
    """The sort key of a ladder's standings: the rung, then the entry number (an entry
    without a rung yet stands at its number)."""
    return (rung or number, number)
