"""Reads used by the API and by other services."""

from __future__ import annotations

from django.db.models import Count, Max, QuerySet

from arena.models import Bot, BotVersion, Player


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
