"""A sandboxed bot cannot exhaust the host: processes, threads, memory, CPU, disk."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox import (
    GIB,
    MIB,
    BotCpuExceeded,
    BotMemoryExceeded,
    BotTimeout,
    SandboxConfig,
)
from tests.arena.sandbox.conftest import attack, start

BOMB = 200


def with_limits(config: SandboxConfig, **changes: Any) -> SandboxConfig:
    return dataclasses.replace(config, limits=dataclasses.replace(config.limits, **changes))


def test_a_fork_bomb_stops_at_the_pids_limit(config: SandboxConfig) -> None:
    assert attack("plain", config, "exhaust.py", "fork_bomb", cap=BOMB)["value"] == BOMB
    report = attack("sandbox", config, "exhaust.py", "fork_bomb", cap=BOMB)
    assert not report["ok"]
    assert report["value"] < config.limits.pids


def test_a_thread_bomb_stops_at_the_pids_limit(config: SandboxConfig) -> None:
    assert attack("plain", config, "exhaust.py", "thread_bomb", cap=BOMB)["value"] == BOMB
    report = attack("sandbox", config, "exhaust.py", "thread_bomb", cap=BOMB)
    assert not report["ok"]
    assert report["value"] < config.limits.pids


def test_a_2_gib_allocation_fails(config: SandboxConfig) -> None:
    assert attack("plain", config, "exhaust.py", "reserve", size=2 * GIB)["ok"]
    report = attack("sandbox", config, "exhaust.py", "reserve", size=2 * GIB)
    assert not report["ok"]


def test_touching_more_than_the_memory_limit_kills_the_bot(config: SandboxConfig) -> None:
    if not os.path.isdir(os.path.join(config.cgroup_root, "memory", config.cgroup_parent)):
        pytest.skip("no memory cgroup controller prepared on this host")
    assert attack("plain", config, "exhaust.py", "touch", size=192 * MIB)["ok"]
    # A generous address space, so that the cgroup, not RLIMIT_AS, is what stops it.
    small = with_limits(config, memory_bytes=64 * MIB, address_space_bytes=4 * GIB)
    with pytest.raises(BotMemoryExceeded, match="memory limit of 64 MiB"):
        attack("sandbox", small, "exhaust.py", "touch", size=192 * MIB)


def test_a_cpu_loop_misses_its_deadline(config: SandboxConfig) -> None:
    with start("sandbox", config, "exhaust.py") as bot, pytest.raises(BotTimeout):
        bot.request({"id": 1, "do": "spin", "args": {"seconds": 10}}, deadline_s=0.3)


def test_a_cpu_loop_is_killed_at_the_cpu_limit(config: SandboxConfig) -> None:
    assert attack("plain", config, "exhaust.py", "spin", seconds=1.5)["ok"]
    short = with_limits(config, cpu_seconds=1)
    with (
        start("sandbox", short, "exhaust.py") as bot,
        pytest.raises(BotCpuExceeded, match="CPU-time limit of 1 s"),
    ):
        # However little of a CPU a busy machine gives it, it reaches its one CPU-second
        # long before it would stop spinning or the deadline would pass.
        bot.request({"id": 1, "do": "spin", "args": {"seconds": 600}}, deadline_s=600)


def test_spinning_children_share_the_bots_cpu_quota(config: SandboxConfig) -> None:
    if not os.path.isdir(os.path.join(config.cgroup_root, "cpu", config.cgroup_parent)):
        pytest.skip("no cpu cgroup controller prepared on this host")
    # Unsandboxed, two children asking for half a CPU-second each get it (on a busy host
    # it takes longer, never less); a twentieth of a CPU gives them at most about 0.05 in
    # a second, however idle the host.
    plain = attack("plain", config, "exhaust.py", "spin_children", count=2, cpu=0.5, seconds=600)
    assert plain["value"] >= 0.9  # counted in clock ticks, a little under the 1.0 used
    twentieth = with_limits(config, cpu_share=0.05)
    used = attack("sandbox", twentieth, "exhaust.py", "spin_children", count=2, cpu=0.5, seconds=1)
    assert used["value"] < 0.2


def test_a_file_over_fsize_fails(config: SandboxConfig, tmp_path: Path) -> None:
    size = 2 * config.limits.fsize_bytes
    assert attack("plain", config, "exhaust.py", "big_file", path=str(tmp_path / "big"), size=size)[
        "ok"
    ]
    report = attack("sandbox", config, "exhaust.py", "big_file", path="/tmp/big", size=size)
    assert not report["ok"]
    assert "File too large" in report["error"]


def test_filling_tmp_stops_at_the_tmpfs_size(config: SandboxConfig, tmp_path: Path) -> None:
    cap = 2 * config.limits.tmpfs_bytes
    chunk = config.limits.fsize_bytes // 2
    plain = attack(
        "plain", config, "exhaust.py", "fill", directory=str(tmp_path), cap=cap, chunk=chunk
    )
    assert plain["value"] == cap
    report = attack("sandbox", config, "exhaust.py", "fill", directory="/tmp", cap=cap, chunk=chunk)
    assert not report["ok"]
    assert "No space left" in report["error"]
    assert report["value"] <= config.limits.tmpfs_bytes
