"""Ratings of people from their rated games at the lobby's tables: Elo, applied once.

A rated game is played by people only (``services.table_open``). When it ends, every
side meets every other side once: the engine's winner beats each other side, and the
sides that did not win compare their final scores (equal: a draw; a drawn game at the
hands limit, ``winner`` None, compares every side by score). A side's rating is the mean
of its people's; each person moves by ``K`` times the side's mean surprise over the sides
it met. A person who left is still scored with the side: leaving never pays.

Exactly once: under the table's row lock (held by the caller that finishes the game),
``rating_applied`` is checked and set, and ``LiveRatingChange`` is unique per table and
person, so a second attempt cannot write a second change.
"""

from __future__ import annotations

from collections.abc import Sequence

from lobby.models import GameSeat, GameTable, LiveRating, LiveRatingChange

K = 32.0
"""Elo points a fully surprising result moves a person by."""


def expected(rating: float, other: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0)))


def outcome(side: int, other: int, winner: int | None, scores: Sequence[int]) -> float:
    """``side``'s score against ``other``: 1 a win, 0.5 a draw, 0 a loss."""
    if winner == side:
        return 1.0
    if winner == other:
        return 0.0
    if scores[side] == scores[other]:
        return 0.5
    return 1.0 if scores[side] > scores[other] else 0.0


def changes(
    sides: Sequence[Sequence[float]], winner: int | None, scores: Sequence[int]
) -> list[float]:
    """Each side's change per person, from its people's ratings (``sides``) and the result.

    >>> changes([[1500, 1500], [1500, 1500]], 0, [1510, 900])
    [16.0, -16.0]
    """
    means = [sum(ratings) / len(ratings) for ratings in sides]
    out = []
    for side, mean in enumerate(means):
        others = [other for other in range(len(sides)) if other != side]
        surprise = sum(
            outcome(side, other, winner, scores) - expected(mean, means[other]) for other in others
        )
        out.append(K * surprise / len(others))
    return out


def apply_once(table: GameTable) -> bool:
    """Change the people's ratings for the finished rated ``table``, once; True if it did."""
    if not table.rated or table.rating_applied or not table.is_over or table.result is None:
        return False
    if "winner" not in table.result:  # closed before the start: nothing was played
        return False
    from engine.registry import load_game

    game = load_game(table.variant)
    seats = {seat.seat: seat for seat in GameSeat.objects.filter(table=table, user__isnull=False)}
    if len(seats) != game.players:
        return False
    ratings = {
        seat: LiveRating.objects.select_for_update().get_or_create(
            user_id=row.user_id, variant=table.variant
        )[0]
        for seat, row in seats.items()
    }
    sides = [[ratings[seat].rating for seat in team] for team in game.teams]
    moved = changes(sides, table.result["winner"], table.result["scores"])
    for index, team in enumerate(game.teams):
        for seat in team:
            rating = ratings[seat]
            before = rating.rating
            rating.rating = before + moved[index]
            rating.games += 1
            rating.save(update_fields=["rating", "games"])
            LiveRatingChange.objects.create(
                table=table, user_id=rating.user_id, before=before, after=rating.rating
            )
    table.rating_applied = True
    table.save(update_fields=["rating_applied"])
    return True
