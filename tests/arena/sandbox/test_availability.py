"""Whether this machine can sandbox bots, and what the test suite does when it cannot."""

from __future__ import annotations

import dataclasses

import pytest

from arena.sandbox import SandboxConfig, sandbox_problems
from tests.arena.sandbox.conftest import skip_or_fail


def test_it_names_every_missing_piece() -> None:
    broken = dataclasses.replace(
        SandboxConfig(), bwrap="/usr/bin/no-such-bwrap", bot_user="pinochle-no-such-user"
    )
    problems = " ".join(sandbox_problems(broken))
    assert "/usr/bin/no-such-bwrap is missing" in problems
    assert "user 'pinochle-no-such-user' is missing" in problems


def test_a_missing_sandbox_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no bubblewrap"):
        skip_or_fail("no bubblewrap")


def test_a_missing_sandbox_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="required in CI: no bubblewrap"):
        skip_or_fail("no bubblewrap")
