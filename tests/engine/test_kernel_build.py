"""The optional C kernel's build and loading: used only while built from the source as it
is, never required (``engine/kernel.py``, ``deploy/build_kernel.py``).

Each case runs a fresh interpreter on a copy of the engine, since the kernel is loaded
once, when ``engine.kernel`` is first imported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.kernel import KERNEL, KERNEL_DIR, kernel_status

ROOT = Path(__file__).resolve().parents[2]
STATUS = "from engine.kernel import kernel_status; print(kernel_status())"


def status(cwd: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", STATUS],
        cwd=cwd,
        env={**os.environ, "ENGINE_KERNEL": "auto", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A checkout holding the engine alone (no kernel built)."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine")
    return tmp_path


def test_without_a_build_the_pure_engine_runs_and_says_why(copy: Path) -> None:
    assert status(copy).startswith("not built (make engine-kernel")


def test_engine_kernel_off_keeps_a_built_kernel_unused() -> None:
    assert status(ROOT, ENGINE_KERNEL="off") == "off (ENGINE_KERNEL=off)"


@pytest.mark.skipif(KERNEL is None, reason=f"the C kernel is {kernel_status()}")
def test_a_build_is_used_only_while_its_source_is_unchanged(copy: Path) -> None:
    shutil.copytree(KERNEL_DIR, copy / "build" / "engine-kernel")
    assert status(copy) == "loaded"
    stale = "stale: its sources (engine/_kernel.c and its includes) changed since it was built"
    for name in ("_handcore.c", "_records.c", "_enums.c", "_kernel.c"):
        source = copy / "engine" / name
        kept = source.read_text()
        source.write_text(kept + "\n/* changed */\n")
        assert status(copy) == stale
        source.write_text(kept)
        assert status(copy) == "loaded"


def test_a_build_without_a_compiler_fails_with_its_reason_and_nothing_else(copy: Path) -> None:
    (copy / "deploy").mkdir()
    shutil.copy(ROOT / "deploy" / "build_kernel.py", copy / "deploy")
    done = subprocess.run(
        [sys.executable, "deploy/build_kernel.py"],
        cwd=copy,
        env={**os.environ, "PATH": str(copy / "no-tools")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "the C kernel was not built: no C compiler (gcc); the pure engine runs"
    )
    assert not (copy / "build" / "engine-kernel" / "manifest.json").exists()
    assert status(copy).startswith("not built")


def test_the_pure_engine_says_once_why_it_plays_without_the_kernel() -> None:
    code = (
        "import logging; logging.basicConfig(level=logging.INFO)\n"
        "from engine.playouts import play_summary\n"
        "for seed in range(3): play_summary('single4', hands=2, seed=seed)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "ENGINE_KERNEL": "off"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "INFO:engine.kernel:the C kernel is off (ENGINE_KERNEL=off): the pure engine runs"
    ]
