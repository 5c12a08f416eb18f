"""Human-facing pages: the landing page with leaderboards and recent matches."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena import selectors
from arena.models import Bot, BotVersion, Match, Player
from arena.variants import PLAYABLE_VARIANTS


def index(request: HttpRequest) -> HttpResponse:
    context = {
        "players": Player.objects.count(),
        "bots": Bot.objects.count(),
        "active_versions": BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).count(),
        "matches": Match.objects.filter(status=Match.Status.DONE).count(),
        "leaderboards": [
            (variant, list(selectors.leaderboard(variant=variant)[:10]))
            for variant in PLAYABLE_VARIANTS
        ],
        "recent": list(selectors.match_list()[:10]),
    }
    return render(request, "arena/index.html", context)
