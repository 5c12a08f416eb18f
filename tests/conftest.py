"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os

import pytest


def skip_or_fail(reason: str) -> None:
    """Skip a test whose real component is missing, except in CI, where that is a failure.

    CI provisions PostgreSQL, Redis and the sandbox, so a missing component there means the
    set-up is broken, and a skipped test would let it pass unnoticed.
    """
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)
