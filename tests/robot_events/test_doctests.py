"""The examples in the robot events standings module's docstring run."""

from __future__ import annotations

import doctest

from robot_events import standings


def test_docstring_examples_hold() -> None:
    failures, tried = doctest.testmod(standings)
    assert failures == 0 and tried > 0
