"""What every page's template may ask of the games: the registry's default variant (the
site's navigation links to its leaderboard)."""

from __future__ import annotations

from django.http import HttpRequest

from engine.registry import default_variant

__all__ = ["games"]


def games(request: HttpRequest) -> dict[str, str]:
    return {"default_variant": default_variant()}
