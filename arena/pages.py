"""Human-facing pages: a landing page that points at the API and its documentation."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.models import Bot, BotVersion, Player


def index(request: HttpRequest) -> HttpResponse:
    context = {
        "players": Player.objects.count(),
        "bots": Bot.objects.count(),
        "active_versions": BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).count(),
    }
    return render(request, "arena/index.html", context)
