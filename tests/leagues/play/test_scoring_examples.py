"""The examples in the play modules' docstrings hold (human-against-bot seatings, scores)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["leagues.play.scoring", "leagues.play.referee", "leagues.play.bot_table"]
)
def test_the_docstring_examples_hold(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0
