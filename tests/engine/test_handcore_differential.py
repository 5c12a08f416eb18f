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

from engine.kernel import KERNEL, kernel_status

DRIVER = Path(__file__).with_name("public_driver.py")
HANDS = 25
RANDOM_HANDS = 300


def driven(kernel: str, *mode: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(DRIVER), *mode],
        env={**os.environ, "ENGINE_KERNEL": kernel},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.skipif(KERNEL is None, reason=f"the C kernel is {kernel_status()}")
def test_the_c_core_and_the_python_core_play_every_hand_alike() -> None:
    with_kernel, without = driven("auto", str(HANDS)), driven("off", str(HANDS))
    assert with_kernel[0] == "loaded"
    assert without[0] == "off (ENGINE_KERNEL=off)"
    assert len(with_kernel) == 1 + HANDS * 8
    differing = [
        (ours, theirs)
        for ours, theirs in zip(with_kernel[1:], without[1:], strict=True)
        if ours != theirs
    ]
    assert not differing, differing[:5]


@pytest.mark.skipif(KERNEL is None, reason=f"the C kernel is {kernel_status()}")
def test_random_hands_are_the_same_with_either_core() -> None:
    with_kernel = driven("auto", "--random", str(RANDOM_HANDS))
    without = driven("off", "--random", str(RANDOM_HANDS))
    assert len(with_kernel) == 1 + 8
    assert with_kernel[1:] == without[1:]
