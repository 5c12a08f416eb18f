"""The examples in the pure modules' docstrings run."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from tournaments import hands, imps, matchpoints, movements


@pytest.mark.parametrize("module", [hands, imps, matchpoints, movements], ids=lambda m: m.__name__)
def test_docstring_examples_hold(module: ModuleType) -> None:
    failures, _ = doctest.testmod(module)
    assert failures == 0
