"""A player's page: her bots, league entries and events; her API token for herself only."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from arena.errors import NotFound
from arena.identity import asking_player_required
from arena.models import Player
from arena.services.bots import player_token_create, player_token_of
from home import selectors


# The page of a signed-in player may hold her token: no cache may keep a copy.
@never_cache
def player_detail(request: HttpRequest, username: str) -> HttpResponse:
    viewer = request.user.pk if request.user.is_authenticated else None
    try:
        page = selectors.player_page(username=username, viewer_id=viewer)
    except Player.DoesNotExist:
        raise NotFound(f"there is no player {username!r}") from None
    return render(request, "home/player.html", {"page": page, "is_self": page.is_self})


@never_cache
@require_POST
@login_required
def player_token(request: HttpRequest, username: str) -> HttpResponse:
    player = player_token_of(player=asking_player_required(request), username=username)
    player_token_create(player=player)
    messages.success(request, "A new API token was created; the previous one no longer works.")
    return redirect("home:player", username=username)
