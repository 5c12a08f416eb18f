"""Caching of hot, read-mostly API responses (the leaderboard, replays).

Replays of a finished match never change, so they are cached without expiry. Leaderboard
pages are cached under a generation number that every rating write bumps, so a reader
never sees a page older than the last committed rating change (plus ``LEADERBOARD_TTL``
at worst, should a bump be lost with a cache restart).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

LEADERBOARD_TTL = 60
_GENERATION_KEY = "leaderboard:generation"


def cached(key: str, build: Callable[[], T], timeout: int | None) -> T:
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, timeout)
    return value


def leaderboard_key(*parts: Any) -> str:
    generation = cache.get_or_set(_GENERATION_KEY, time.time_ns(), None)
    return "leaderboard:" + ":".join(str(part) for part in (generation, *parts))


def leaderboard_changed() -> None:
    """Invalidate every cached leaderboard page once the current transaction commits."""

    # A fresh, never-reused number: pages cached under any older one are never read again.
    transaction.on_commit(lambda: cache.set(_GENERATION_KEY, time.time_ns(), None))
