"""The examples in the robot scoring module's docstring run."""

from __future__ import annotations

import doctest

from robot_events import scoring


def test_docstring_examples_hold() -> None:
    failures, tried = doctest.testmod(scoring)
    assert failures == 0 and tried > 0
