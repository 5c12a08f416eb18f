"""Reads used by the API and by other services."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Q, QuerySet

from arena.models import Bot, BotVersion, Game, Match, Player, Rating, RatingChange
from arena.ratings import SprtPath, sprt_path


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").annotate(bot_count=Count("bots")).order_by("id")


def bot_list() -> QuerySet[Bot]:
    return (
        Bot.objects.select_related("owner__user")
        .annotate(version_count=Count("versions"), latest_version=Max("versions__number"))
        .order_by("id")
    )


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    # The source can be large and is only for the owner's source endpoint.
    return bot.versions.defer("source").order_by("number")


def match_list() -> QuerySet[Match]:
    return Match.objects.select_related(
        "version_x__bot__owner__user", "version_y__bot__owner__user", "requested_by__user"
    ).order_by("-id")


def match_games(
    *, match: Match, board: int | None = None, table: str | None = None
) -> QuerySet[Game]:
    games = Game.objects.filter(match=match).select_related("replay").order_by("number", "table")
    if board is not None:
        games = games.filter(number=board)
    if table is not None:
        games = games.filter(table=table)
    return games


def leaderboard(*, variant: str | None, disabled: bool = True) -> QuerySet[Rating]:
    """Ratings, best first; ``disabled=False`` leaves out the versions disabled for faults."""
    ratings = Rating.objects.select_related("version__bot__owner__user").order_by("-elo", "id")
    if variant:
        ratings = ratings.filter(variant=variant)
    if not disabled:
        ratings = ratings.exclude(version__status=BotVersion.Status.DISABLED)
    return ratings


def rating_history(*, version: BotVersion) -> QuerySet[RatingChange]:
    return (
        RatingChange.objects.filter(rating__version=version)
        .select_related("rating", "match")
        .order_by("match__completion_seq")
    )


def head_to_head(*, version_a: int, version_b: int, variant: str) -> list[int]:
    """A's board results against B, seen from A, in the order they were played: every
    finished match between the two, whether rated or not, each board once."""
    matches = (
        Match.objects.filter(status=Match.Status.DONE, variant=variant)
        .filter(
            Q(version_x_id=version_a, version_y_id=version_b)
            | Q(version_x_id=version_b, version_y_id=version_a)
        )
        .order_by("completion_seq", "id")
    )
    results: list[int] = []
    for version_x, boards in matches.values_list("version_x_id", "board_results"):
        sign = 1 if version_x == version_a else -1
        results.extend(sign * result for result in boards)
    return results


def match_rating_changes(*, match: Match) -> QuerySet[RatingChange]:
    """The rating changes a match caused (one per side once it is rated)."""
    return RatingChange.objects.filter(match=match).select_related("rating__version__bot")


@dataclass(frozen=True)
class SprtReport:
    a: BotVersion
    b: BotVersion
    variant: str
    path: SprtPath


def sprt_between(
    *, a: BotVersion, b: BotVersion, elo0: float, elo1: float, alpha: float, beta: float
) -> SprtReport:
    """The SPRT of A against B over their boards so far, with its LLR path."""
    variant = a.bot.variant
    boards = head_to_head(version_a=a.pk, version_b=b.pk, variant=variant)
    path = sprt_path(boards, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    return SprtReport(a, b, variant, path)
