"""Who is asking: the player behind a request, the one lookup every API view and page uses.

A signed-in account may have no player profile (an administrator made in the shell): what
needs a player is then refused with a 403 (``NotAllowed``); an anonymous API request is asked
to sign in (401), as DRF answers it.
"""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

from arena.errors import NotAllowed
from arena.models import Player


def asking_player(request: HttpRequest | Request) -> Player | None:
    """The signed-in player, or None for a visitor (or an account without a profile)."""
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).select_related("user").first()


def asking_player_required(request: HttpRequest | Request) -> Player:
    """The signed-in player: an anonymous API request is a 401; a page's visitor, or an
    account without a player profile, is a 403."""
    player = asking_player(request)
    if player is None:
        if isinstance(request, Request) and not request.user.is_authenticated:
            raise NotAuthenticated()
        raise NotAllowed("this account has no player profile")
    return player
