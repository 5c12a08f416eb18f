"""The examples in the robot scoring module's docstring run."""

from __future__ import annotations

import doctest

from leagues.robots import scoring


def test_docstring_examples_hold() -> None:
    failures, tried = doctest.testmod(scoring)
    assert failures == 0 and tried > 0
