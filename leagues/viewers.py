"""Who is asking: the player behind a request, for the leagues' pages and API views.

A signed-in account may have no player profile (an administrator made in the shell): the
pages and the API then refuse what needs a player, each with its own kind of refusal.
"""

from __future__ import annotations

from django.core import exceptions as django_exceptions
from django.http import HttpRequest
from rest_framework import exceptions as api_exceptions
from rest_framework.request import Request

from arena.models import Player


def viewer(request: HttpRequest | Request) -> Player | None:
    """The signed-in player, or None for a visitor (or an account without a profile)."""
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).select_related("user").first()


def page_player(request: HttpRequest) -> Player:
    """The signed-in player of a page (403 when the account has no player profile)."""
    player = viewer(request)
    if player is None:
        raise django_exceptions.PermissionDenied("this account has no player profile")
    return player


def api_player(request: Request) -> Player:
    """The player of an API request: 401 for a visitor, 403 without a player profile."""
    player = viewer(request)
    if player is None:
        if not request.user.is_authenticated:
            raise api_exceptions.NotAuthenticated()
        raise api_exceptions.PermissionDenied("this account has no player profile")
    return player
