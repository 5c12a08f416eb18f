"""No stream of requests can fill the caches: one entry per real object, every entry expires,
the in-process level is bounded in bytes, and costly verification is counted per client."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from arena.http import caching

pytestmark = pytest.mark.usefixtures("plain_bots")


def shared_entries() -> dict[str, float | None]:
    """Every key of the shared response cache, with its remaining lifetime (None: forever)."""
    backend: Any = caches["responses"]
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(None)
        keys = client.keys(f"{backend.key_prefix}:*")
        return {key.decode(): (None if client.ttl(key) < 0 else client.ttl(key)) for key in keys}
    return {key: backend._expire_info.get(key) for key in backend._cache}


def replay_entries() -> list[str]:
    return [key for key in shared_entries() if ":replay:" in key]


def test_a_hundred_spellings_of_one_replay_make_one_entry(done_match: int) -> None:
    client = APIClient()
    bodies = set()
    for zeros in range(100):
        response = client.get(f"/api/matches/{'0' * zeros}{done_match}/replay/")
        assert response.status_code == 200
        bodies.add(response.content)
    assert len(bodies) == 1
    assert len(replay_entries()) == 1


def test_boards_a_match_does_not_have_are_refused_and_never_cached(done_match: int) -> None:
    client = APIClient()
    for board in (0, 3, 17, 10**6):
        response = client.get(f"/api/matches/{done_match}/replay/", {"board": board})
        assert response.status_code == 400
        assert "boards 1 to 2" in response.json()["board"]
    assert client.get(f"/api/matches/{done_match + 1000}/replay/").status_code == 404
    assert replay_entries() == []
    for board in (1, 2):
        assert client.get(f"/api/matches/{done_match}/replay/", {"board": board}).status_code == 200
    assert len(replay_entries()) == 2


def test_every_cached_entry_expires(done_match: int, alice: Any) -> None:
    client = APIClient()
    client.get(f"/api/matches/{done_match}/replay/")
    client.get(f"/api/matches/{done_match}/replay/", {"board": 1, "table": "A"})
    client.get("/api/ratings/", {"variant": "auction4"})
    client.get("/api/ratings/", {"variant": "auction4", "page": "01"})
    entries = shared_entries()
    assert len([key for key in entries if ":leaderboard:" in key]) == 2  # a page, its generation
    assert len(replay_entries()) == 2
    assert all(lifetime is not None for lifetime in entries.values()), entries


@override_settings(VERIFY_RATE="2/hour")
def test_verification_is_counted_only_when_it_is_computed(done_match: int) -> None:
    client = APIClient()
    url = f"/api/matches/{done_match}/replay/"
    for _ in range(3):
        # The same answer again is served from the cache and costs nothing.
        assert client.get(url, {"verify": "true", "board": 1}).status_code == 200
    assert client.get(url, {"verify": "true", "board": 2}).status_code == 200
    refused = client.get(url, {"verify": "true"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "verif" in refused.json()["detail"]
    assert "seconds" in refused.json()["detail"]
    # Cached verifications and plain replays are still served.
    assert client.get(url, {"verify": "true", "board": 1}).status_code == 200
    assert client.get(url).status_code == 200


@override_settings(LOCAL_CACHE_MAX_BYTES=8 * 1024)
def test_the_in_process_cache_keeps_within_its_byte_budget() -> None:
    level = caching.BoundedMemoryCache()
    for number in range(200):
        level.set(f"k{number}", b"x" * 500, 60)
    entries, size = level.stats()
    assert size <= 8 * 1024
    assert level.get("k199") == b"x" * 500  # the most recent stay
    assert level.get("k0") is None  # the least recently used went
    level.set("big", b"x" * 2000, 60)  # over an eighth of the budget: not kept in-process
    assert level.get("big") is None
    assert entries == level.stats()[0]


@override_settings(LOCAL_CACHE_MAX_BYTES=4096)
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"]),
            st.integers(min_value=0, max_value=1200),
            st.booleans(),
        ),
        max_size=60,
    )
)
def test_the_in_process_cache_accounts_for_every_byte(operations: list[Any]) -> None:
    level = caching.BoundedMemoryCache()
    model: dict[str, bytes] = {}
    for key, length, delete in operations:
        if delete:
            level.delete(key)
            model.pop(key, None)
        else:
            level.set(key, b"v" * length, 60)
            model[key] = b"v" * length
        entries, size = level.stats()
        held = {k: level.get(k) for k in model}
        held = {k: v for k, v in held.items() if v is not None}
        assert size <= 4096
        assert all(model[k] == v for k, v in held.items())  # never a stale or wrong value
        assert size == sum(caching.BoundedMemoryCache.size_of(v) for v in held.values())
        assert entries == len(held)
