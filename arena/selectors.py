"""Reads used by the API and by other services."""

from __future__ import annotations

from django.db.models import Count, Max, Q, QuerySet

from arena.models import Bot, BotVersion, Game, Match, Player, Rating, RatingChange


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


def leaderboard(*, variant: str | None) -> QuerySet[Rating]:
    ratings = Rating.objects.select_related("version__bot__owner__user").order_by("-elo", "id")
    if variant:
        ratings = ratings.filter(variant=variant)
    return ratings


def rating_history(*, version: BotVersion) -> QuerySet[RatingChange]:
    return (
        RatingChange.objects.filter(rating__version=version)
        .select_related("rating", "match")
        .order_by("match__completion_seq")
    )


def head_to_head(*, version_a: int, version_b: int, variant: str) -> tuple[int, int, int]:
    """Wins, draws and losses of A over their duplicate boards against B (each board once)."""
    wins = draws = losses = 0
    matches = Match.objects.filter(status=Match.Status.DONE, variant=variant).filter(
        Q(version_x_id=version_a, version_y_id=version_b)
        | Q(version_x_id=version_b, version_y_id=version_a)
    )
    for version_x, results in matches.values_list("version_x_id", "board_results"):
        sign = 1 if version_x == version_a else -1
        for result in results:
            value = sign * result
            wins += value > 0
            draws += value == 0
            losses += value < 0
    return wins, draws, losses
