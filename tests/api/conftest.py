"""The API driven as a client would drive it: through the WSGI application, not a test client.

Django's test client keeps the test's database transaction open across requests by holding
back the end-of-request signal that closes connections; a bare WSGI call sends it, so it is
held back here in the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from tests.arena.conftest import (  # noqa: F401  (fixtures used by name)
    alice,
    anonymous_client,
    bob,
    empty_cache,
)


@pytest.fixture
def wsgi_requests_keep_the_test_transaction(db: None) -> Iterator[None]:
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
