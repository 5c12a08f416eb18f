"""Caching of hot, read-mostly responses: the API's leaderboard and replays, and the
content of the leaderboard, match and match list pages (arena/pages/shared.py).

Two levels: a small in-process cache in front of the shared one (``CACHES["responses"]``:
Redis at ``CACHE_URL``, else ``REDIS_URL``), so that a hot page costs no network round trip.

- Replays and pages of a finished match never change; leaderboard pages (API and site) are
  cached under a generation number that every rating write replaces once its transaction
  commits. Each process re-reads the generation at most every ``GENERATION_REFRESH``
  seconds, so a reader sees a rating change within that delay.

Bounds, so that no stream of requests can fill memory (Redis is also the broker):

- A key names the canonical object (a match id as a number, a board the match has), and only
  answers about objects that exist are stored: a request adds at most one entry per real
  object, however it spells it.
- Every entry expires: ``REPLAY_TTL``, ``MATCH_PAGE_TTL``, ``MATCH_LIST_TTL`` and
  ``LEADERBOARD_TTL`` in the shared cache, at most ``LOCAL_TTL`` in the process.
- The in-process level is an LRU holding at most ``settings.LOCAL_CACHE_MAX_BYTES`` of values
  (16 MiB by default); a value larger than an eighth of that stays in the shared cache only.
- The shared cache should have its own Redis with ``maxmemory`` and ``allkeys-lru``
  (deploy/README.md), apart from the broker's, which must never evict.

The cache is an optimisation only: when the shared cache cannot be reached, the error is
logged and treated as a miss, and the database answers.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from redis.exceptions import RedisError

T = TypeVar("T")

log = logging.getLogger(__name__)

CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)
"""What a cache that cannot be reached raises."""

FORMAT = 3
"""Part of every key: bump it when the shape of a cached value changes, so that a deploy
never reads values written by the previous release."""
LEADERBOARD_TTL = 300
REPLAY_TTL = 24 * 3600
MATCH_PAGE_TTL = 3600
"""A finished match's page never changes; an hour bounds how long a page rendered by an
earlier release is shown after a deploy."""
MATCH_LIST_TTL = 10
"""A page of the match list is kept under the newest match and the newest completion, which
a new or finished match changes; a match that starts or fails changes neither, so its new
status shows within this many seconds."""
LOCAL_TTL = 600
GENERATION_REFRESH = 1
GENERATION_TTL = 7 * 24 * 3600
"""A generation nobody has replaced for a week may lapse: a new one is then drawn."""
_GENERATION_KEY = f"v{FORMAT}:leaderboard:generation"


class BoundedMemoryCache:
    """A thread-safe LRU of values with expiry, bounded by the total size of its values."""

    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[Any, float, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def size_of(value: Any) -> int:
        # Values are rendered JSON (bytes) or small numbers; a fixed charge covers the key
        # and the bookkeeping of each entry.
        return (len(value) if isinstance(value, bytes | str) else 8) + 100

    def get(self, key: str) -> Any:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            value, expires, _ = entry
            if expires <= time.monotonic():
                self._remove(key)
                return None
            self._entries.move_to_end(key)
            return value

    def set(self, key: str, value: Any, timeout: float) -> None:
        limit = int(settings.LOCAL_CACHE_MAX_BYTES)
        size = self.size_of(value)
        with self._lock:
            self._remove(key)
            if size > limit // 8:
                return
            self._entries[key] = (value, time.monotonic() + min(timeout, LOCAL_TTL), size)
            self._bytes += size
            while self._bytes > limit:
                self._remove(next(iter(self._entries)))

    def delete(self, key: str) -> None:
        with self._lock:
            self._remove(key)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def stats(self) -> tuple[int, int]:
        """Entries held and the bytes they are charged."""
        with self._lock:
            return len(self._entries), self._bytes

    def _remove(self, key: str) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._bytes -= entry[2]


local = BoundedMemoryCache()
"""This process's level."""


def _shared() -> Any:
    return caches["responses"]


def peek(key: str | None) -> Any:
    """The value under ``key`` from this process, else from the shared cache, else None."""
    if key is None:
        return None
    value = local.get(key)
    if value is None:
        try:
            value = _shared().get(key)
        except CACHE_ERRORS as error:
            log.warning("response cache unavailable, reading %s: %s", key, error)
            return None
        if value is not None:
            local.set(key, value, LOCAL_TTL)
    return value


def store(key: str | None, value: Any, timeout: int) -> None:
    """Keep ``value`` under ``key`` for ``timeout`` seconds (None: not cacheable)."""
    if key is None:
        return
    try:
        _shared().set(key, value, timeout)
    except CACHE_ERRORS as error:
        log.warning("response cache unavailable, storing %s: %s", key, error)
    local.set(key, value, timeout)


def cached(key: str | None, build: Callable[[], T], timeout: int) -> T:
    """The cached value under ``key``, or ``build()``'s, stored at both levels."""
    value: T | None = peek(key)
    if value is None:
        value = build()
        store(key, value, timeout)
    return value


def _generation() -> int | None:
    """The current leaderboard generation; None when it cannot be read."""
    generation: int | None = local.get(_GENERATION_KEY)
    if generation is None:
        try:
            generation = _shared().get_or_set(_GENERATION_KEY, time.time_ns(), GENERATION_TTL)
        except CACHE_ERRORS as error:
            log.warning("response cache unavailable, reading the generation: %s", error)
            return None
        local.set(_GENERATION_KEY, generation, GENERATION_REFRESH)
    return generation


def leaderboard_key(
    *, host: str, variant: str | None, disabled: bool, page: str, page_size: int | None
) -> str | None:
    """The key of one leaderboard page; None when the generation cannot be read (then the
    page is built from the database and not cached)."""
    generation = _generation()
    if generation is None:
        return None
    return f"v{FORMAT}:leaderboard:{generation}:{host}:{variant}:{int(disabled)}:{page}:{page_size}"


def leaderboard_page_key(*, variant: str, sort: str, page: int) -> str | None:
    """The key of one page of a variant's leaderboard on the site, under the same generation
    as the API's (None: not cached)."""
    generation = _generation()
    if generation is None:
        return None
    return f"v{FORMAT}:page:leaderboard:{generation}:{variant}:{sort}:{page}"


def rating_check_key(*, variant: str) -> str | None:
    """The key of a variant's model check, under the leaderboard's generation: the pages
    and the API's pages of one generation share one fit (None: not cached)."""
    generation = _generation()
    if generation is None:
        return None
    return f"v{FORMAT}:rating-check:{generation}:{variant}"


def match_page_key(*, match_id: int, status: str) -> str:
    """The key of a finished match's page: its status is part of it, so a match that left
    its status (a failed match run again) is never shown as it was."""
    return f"v{FORMAT}:page:match:{match_id}:{status}"


def replay_key(*, match_id: int, board: int | None, table: str | None, verify: bool) -> str:
    return f"v{FORMAT}:replay:{match_id}:{board}:{table}:{int(verify)}"


def leaderboard_changed() -> None:
    """Retire every cached leaderboard page once the current transaction commits."""

    def bump() -> None:
        # A fresh, never-reused number: pages cached under an older one are never read again.
        try:
            _shared().set(_GENERATION_KEY, time.time_ns(), GENERATION_TTL)
        except CACHE_ERRORS as error:
            # Pages cached under the old generation lapse within LEADERBOARD_TTL.
            log.warning("response cache unavailable, retiring the leaderboard: %s", error)
        local.delete(_GENERATION_KEY)

    transaction.on_commit(bump)


def match_list_key(
    *, newest: tuple[int | None, int | None], filters: tuple[object, ...], page: int
) -> str:
    """The key of a page of the match list: ``newest`` is the newest match's id and the
    newest completion's number, so a new match or a completion makes new keys."""
    spelt = ":".join(str(value) for value in filters)  # checked choices and numbers only
    return f"v{FORMAT}:page:matches:{newest[0]}:{newest[1]}:{spelt}:{page}"


def clear() -> None:
    """Empty both levels and the quota counters (tests)."""
    for alias in ("default", "responses"):
        _clear(caches[alias])
    local.clear()


def _clear(level: BaseCache) -> None:
    """Only this deployment's keys: a Redis cache's clear() would empty the whole database,
    the broker's queues with it when they share one."""
    if not isinstance(level, RedisCache):
        level.clear()
        return
    client = level._cache.get_client(write=True)  # type: ignore[attr-defined]  # the client is private in the stubs
    keys = list(client.scan_iter(match=level.make_key("*"), count=1000))
    if keys:
        client.delete(*keys)
