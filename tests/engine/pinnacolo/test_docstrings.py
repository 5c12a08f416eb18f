"""The examples in Pinnacolo's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.pinnacolo",
    "engine.pinnacolo.actions",
    "engine.pinnacolo.cards",
    "engine.pinnacolo.game",
    "engine.pinnacolo.melds",
    "engine.pinnacolo.replay",
    "engine.pinnacolo.rules",
    "engine.pinnacolo.state",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
