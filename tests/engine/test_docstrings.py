"""The examples in the engine's docstrings run."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

MODULES = [
    "engine",
    "engine.actions",
    "engine.cards",
    "engine.forfeit",
    "engine.game",
    "engine.hand",
    "engine.interface",
    "engine.kernel",
    "engine.meld",
    "engine.pinochle_forfeit",
    "engine.pinochle_replay",
    "engine.playouts",
    "engine.registry",
    "engine.replay",
    "engine.rng",
    "engine.rules",
    "engine.seats",
    "engine.tricks",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_the_engine_imports_and_plays_with_only_the_standard_library() -> None:
    # -S leaves out site-packages, as in the bot sandbox; -E ignores PYTHONPATH.
    code = (
        "import random, engine, engine.cli; "
        "state = engine.new_hand('double4', seed=1); "
        "state.play_randomly(random.Random(1)); "
        "assert state.is_terminal()"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-E", "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
