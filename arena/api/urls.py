"""Routes of the arena's API, under /api/: players, bots and versions, matches, ratings."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from arena.api import bots, matches, notices, tokens

app_name = "arena_api"

router = DefaultRouter()
router.register("players", bots.PlayerViewSet, basename="player")
router.register("bots", bots.BotViewSet, basename="bot")
router.register("matches", matches.MatchViewSet, basename="match")

VERSION = "bots/<int:bot_id>/versions/<int:number>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", tokens.TokenView.as_view(), name="token"),
    path("bots/<int:bot_id>/versions/", bots.BotVersionListView.as_view(), name="bot-versions"),
    path(VERSION, bots.BotVersionDetailView.as_view(), name="bot-version-detail"),
    path(f"{VERSION}source/", bots.BotVersionSourceView.as_view(), name="bot-version-source"),
    path(f"{VERSION}ratings/", matches.RatingHistoryView.as_view(), name="bot-version-ratings"),
    path("ratings/", matches.LeaderboardView.as_view(), name="ratings"),
    path("ratings/sprt/", matches.SprtView.as_view(), name="sprt"),
    path("ratings/controls/", matches.ControlValueView.as_view(), name="controls"),
    path("notices/", notices.NoticeListView.as_view(), name="notices"),
    path("notices/read/", notices.NoticeReadView.as_view(), name="notices-read"),
    *router.urls,
]
