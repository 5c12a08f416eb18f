"""What every page's template may ask: the registry's default variant (the site's
navigation links to its leaderboard) and how many notices the reader has not read."""

from __future__ import annotations

from django.http import HttpRequest

from arena import notices
from engine.registry import default_variant

__all__ = ["games", "unread_notices"]


def games(request: HttpRequest) -> dict[str, str]:
    return {"default_variant": default_variant()}


def unread_notices(request: HttpRequest) -> dict[str, int]:
    """The header's count: one indexed count for a signed-in reader, nothing otherwise."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notices": 0}
    return {"unread_notices": notices.unread_count(user_id=user.pk)}
