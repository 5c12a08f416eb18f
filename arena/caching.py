"""Caching of hot, read-mostly API responses (the leaderboard, replays).

Two levels: a small in-process cache in front of the shared one (Redis in production), so
that a hot page costs no network round trip at all.

- Replays of a finished match never change: cached without expiry.
- Leaderboard pages are cached under a generation number that every rating write replaces
  once its transaction commits. Each process re-reads the generation at most every
  ``GENERATION_REFRESH`` seconds, so a reader sees a rating change within that delay.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache, caches
from django.db import transaction

T = TypeVar("T")

FORMAT = 2
"""Part of every key: bump it when the shape of a cached value changes, so that a deploy
never reads values written by the previous release."""
LEADERBOARD_TTL = 300
GENERATION_REFRESH = 1
_GENERATION_KEY = f"v{FORMAT}:leaderboard:generation"


def _local() -> Any:
    return caches["local"]


def peek(key: str) -> Any:
    """The value under ``key`` from this process, else from the shared cache, else None."""
    local = _local()
    value = local.get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            local.set(key, value)
    return value


def store(key: str, value: Any, timeout: int | None) -> None:
    cache.set(key, value, timeout)
    _local().set(key, value, timeout)


def cached(key: str, build: Callable[[], T], timeout: int | None) -> T:
    """The cached value under ``key``, or ``build()``'s, stored at both levels."""
    value = peek(key)
    if value is None:
        value = build()
        store(key, value, timeout)
    return value


def leaderboard_key(*parts: Any) -> str:
    local = _local()
    generation = local.get(_GENERATION_KEY)
    if generation is None:
        generation = cache.get_or_set(_GENERATION_KEY, time.time_ns(), None)
        local.set(_GENERATION_KEY, generation, GENERATION_REFRESH)
    return f"v{FORMAT}:leaderboard:" + ":".join(str(part) for part in (generation, *parts))


def replay_key(*parts: Any) -> str:
    return f"v{FORMAT}:replay:" + ":".join(str(part) for part in parts)


def leaderboard_changed() -> None:
    """Retire every cached leaderboard page once the current transaction commits."""

    def bump() -> None:
        # A fresh, never-reused number: pages cached under an older one are never read again.
        cache.set(_GENERATION_KEY, time.time_ns(), None)
        _local().delete(_GENERATION_KEY)

    transaction.on_commit(bump)


def clear() -> None:
    """Empty both levels (tests)."""
    cache.clear()
    _local().clear()
