"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
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


def skip_or_fail(reason: str) -> None:
    """Skip a test whose real component is missing, except in CI, where that is a failure.

    CI provisions PostgreSQL, Redis and the sandbox, so a missing component there means the
    set-up is broken, and a skipped test would let it pass unnoticed.
    """
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)
