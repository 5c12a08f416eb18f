"""The players, their clients and the bots every app's tests share, taken in by a folder's
conftest in one line (``from tests.people import *``). They are the arena tests' own
(tests/arena/conftest.py); the two autouse fixtures (an empty cache, a fast password
hasher) come with them, so that every app's tests start alike."""

from __future__ import annotations

from tests.arena.conftest import (
    FIRST_LEGAL_BOT,
    PASSWORD,
    RANDOM_BOT,
    active_version,
    alice,
    alice_client,
    anonymous_client,
    bob,
    bob_client,
    client_for,
    empty_cache,
    fast_password_hashing,
    plain_bots,
)

__all__ = [
    "FIRST_LEGAL_BOT",
    "PASSWORD",
    "RANDOM_BOT",
    "active_version",
    "alice",
    "alice_client",
    "anonymous_client",
    "bob",
    "bob_client",
    "client_for",
    "empty_cache",
    "fast_password_hashing",
    "plain_bots",
]
