"""A league fixture's result and the league points it is worth: rules, without the database.

The selectors read a fixture's walkover and its match, and ask here what they mean; the
standings (``leagues.scheduling.standings``) then add the points up with their tiebreaks.
"""

from __future__ import annotations

from enum import Enum

from leagues import scheduling


class Result(Enum):
    """A fixture's result as it stands, from X's side."""

    PENDING = "pending"
    X_WON = "x_won"
    DRAWN = "drawn"
    Y_WON = "y_won"
    BYE = "bye"
    X_FORFEITED = "x_forfeited"
    Y_FORFEITED = "y_forfeited"
    BOTH_FORFEITED = "both_forfeited"
    VOID = "void"
    """The match failed for infrastructure reasons: nothing is scored."""


PLAYED = (Result.X_WON, Result.DRAWN, Result.Y_WON)
"""The results of a match that was played to its end."""

_POINTS = {
    Result.X_WON: (scheduling.WIN_POINTS, scheduling.LOSS_POINTS),
    Result.DRAWN: (scheduling.DRAW_POINTS, scheduling.DRAW_POINTS),
    Result.Y_WON: (scheduling.LOSS_POINTS, scheduling.WIN_POINTS),
    Result.X_FORFEITED: (scheduling.LOSS_POINTS, scheduling.WIN_POINTS),
    Result.Y_FORFEITED: (scheduling.WIN_POINTS, scheduling.LOSS_POINTS),
    Result.BOTH_FORFEITED: (scheduling.LOSS_POINTS, scheduling.LOSS_POINTS),
}


def fixture_result(*, walkover: str, failed: bool, score_x: int | None) -> Result:
    """The result of a fixture decided without a match (its ``walkover``: a bye or a
    forfeit), or of its match: void if it ``failed``, pending until it has X's board total
    ``score_x``, else won, drawn or lost by that total's sign."""
    if walkover:
        return Result(walkover)
    if failed:
        return Result.VOID
    if score_x is None:
        return Result.PENDING
    points_x, _ = scheduling.fixture_points(score_x)
    if points_x == scheduling.WIN_POINTS:
        return Result.X_WON
    return Result.DRAWN if points_x == scheduling.DRAW_POINTS else Result.Y_WON


def result_points(result: Result) -> tuple[int, int]:
    """League points of X and Y for a fixture with an opponent (nothing until it ends)."""
    return _POINTS.get(result, (0, 0))


def bye_points(*, swiss: bool) -> int:
    """A Swiss bye is a win; a round robin's bye comes to everyone once a cycle and scores
    nothing."""
    return scheduling.WIN_POINTS if swiss else 0


def forfeits(result: Result, x: int, y: int) -> list[scheduling.Forfeit]:
    """The forfeits of a fixture between players ``x`` and ``y`` (none unless forfeited)."""
    if result == Result.X_FORFEITED:
        return [scheduling.Forfeit(winner=y, loser=x)]
    if result == Result.Y_FORFEITED:
        return [scheduling.Forfeit(winner=x, loser=y)]
    if result == Result.BOTH_FORFEITED:
        return [scheduling.Forfeit(winner=None, loser=x), scheduling.Forfeit(winner=None, loser=y)]
    return []
