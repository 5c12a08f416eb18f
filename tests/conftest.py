"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    _empty_tables_by_deleting_their_rows()
    _name_this_process_share(config)
    _let_new_accounts_play_at_once()


def _let_new_accounts_play_at_once() -> None:
    """Tests make their players on the spot and enter them in events and challenges at
    once: the wait before rated play (arena/newcomers.py) is off, here and in the processes
    the tests start, except in the tests of that wait, which set it."""
    from django.conf import settings

    settings.RATED_PLAY_MIN_ACCOUNT_AGE_S = 0
    os.environ["RATED_PLAY_MIN_ACCOUNT_AGE_S"] = "0"


def _empty_tables_by_deleting_their_rows() -> None:
    """Empty the test database with DELETE rather than PostgreSQL's TRUNCATE.

    Every transactional test (a live server, a worker, a browser) ends with Django's flush,
    and so do the module worlds. TRUNCATE gives each of the project's fifty-odd tables new
    files, over a second on every flush, where deleting the few rows a test wrote takes a
    hundredth of that. The tables end as empty either way, and the sequences are left as
    TRUNCATE without RESTART IDENTITY leaves them. The foreign keys Django creates are
    deferred to the commit of the flush's transaction, so the order of the deletes does not
    matter. A flush that resets sequences, or cascades to tables outside its list (a test
    case with ``available_apps``), keeps Django's TRUNCATE.
    """
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: BaseDatabaseOperations,
        style: Any,
        tables: Sequence[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return ["SET CONSTRAINTS ALL DEFERRED;"] + [
            f"DELETE FROM {self.quote_name(table)};" for table in tables
        ]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


def _name_this_process_share(config: pytest.Config) -> None:
    """Under pytest-xdist (``-n 2``), each worker process runs its share of the tests on a
    database, a task queue and cache keys of its own, so that neither reads, consumes or
    empties the other's. The processes a test starts (Celery workers, web servers) are given
    the same names through the environment (tests/arena/workers.py)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return  # pytest-django gives each xdist worker its database (test_<name>_gwN)
    from django.conf import settings

    settings.CELERY_TASK_DEFAULT_QUEUE = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-{worker}"
    settings.CACHE_KEY_PREFIX = f"{settings.CACHE_KEY_PREFIX}-{worker}"
    os.environ["CELERY_QUEUE"] = settings.CELERY_TASK_DEFAULT_QUEUE
    os.environ["CACHE_KEY_PREFIX"] = settings.CACHE_KEY_PREFIX
    for alias, suffix in (("default", ""), ("responses", "-responses")):
        if "KEY_PREFIX" in settings.CACHES[alias]:
            settings.CACHES[alias]["KEY_PREFIX"] = settings.CACHE_KEY_PREFIX + suffix
    # The channel layer's keys and Redis channels, as config/settings.py names them: the
    # sockets of one process never hear another's tables of the same number.
    layer = settings.CHANNEL_LAYERS["default"].get("CONFIG")
    if isinstance(layer, dict) and "prefix" in layer:
        layer["prefix"] = f"{settings.CACHE_KEY_PREFIX}-asgi"


def skip_or_fail(reason: str) -> None:
    """Skip a test whose real component is missing, except in CI, where that is a failure.

    CI provisions PostgreSQL, Redis and the sandbox, so a missing component there means the
    set-up is broken, and a skipped test would let it pass unnoticed.
    """
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)
