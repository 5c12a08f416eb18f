"""The hand's core in C and its twin in Python take the same steps (``engine/handcore.py``):
the same driver of the public interface (``public_driver.py``: legal and refused actions,
the legal actions read every way, copies and pickles, observations and results) prints
the same under each, hand for hand, in every preset and in league rules that take the
auction's and tricks' other branches.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.kernel import KERNEL

DRIVER = Path(__file__).with_name("public_driver.py")
HANDS = 25


def driven(kernel: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(DRIVER), str(HANDS)],
        env={**os.environ, "ENGINE_KERNEL": kernel},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.skipif(KERNEL is None, reason="the C kernel is not built (make engine-kernel)")
def test_the_c_core_and_the_python_core_play_every_hand_alike() -> None:
    with_kernel, without = driven("auto"), driven("off")
    assert with_kernel[0] == "loaded"
    assert without[0] == "off (ENGINE_KERNEL=off)"
    assert len(with_kernel) == 1 + HANDS * 8
    differing = [
        (ours, theirs)
        for ours, theirs in zip(with_kernel[1:], without[1:], strict=True)
        if ours != theirs
    ]
    assert not differing, differing[:5]
