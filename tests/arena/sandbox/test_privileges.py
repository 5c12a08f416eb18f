"""A sandboxed bot has no privilege and cannot gain one."""

from __future__ import annotations

from pathlib import Path

from arena.sandbox import SandboxConfig
from tests.arena.sandbox.conftest import attack, start


def test_its_effective_capabilities_are_zero(config: SandboxConfig) -> None:
    assert int(attack("plain", config, "snoop.py", "status")["value"]["CapEff"], 16) != 0
    assert int(attack("sandbox", config, "snoop.py", "status")["value"]["CapEff"], 16) == 0


def test_it_cannot_setuid_to_root(config: SandboxConfig) -> None:
    assert attack("plain", config, "escalate.py", "setuid_root")["ok"]
    # Root is not even mapped in the bot's user namespace (EINVAL rather than EPERM).
    assert not attack("sandbox", config, "escalate.py", "setuid_root")["ok"]


def test_it_cannot_make_a_user_namespace(config: SandboxConfig) -> None:
    assert attack("plain", config, "escalate.py", "unshare_user")["ok"]
    assert not attack("sandbox", config, "escalate.py", "unshare_user")["ok"]


def test_it_cannot_mount(config: SandboxConfig, tmp_path: Path) -> None:
    target = str(tmp_path)
    assert attack("plain", config, "escalate.py", "mount_tmpfs", target=target)["ok"]
    report = attack("sandbox", config, "escalate.py", "mount_tmpfs", target="/tmp")
    assert not report["unshare"]["ok"]
    assert not report["mount"]["ok"]


def test_it_cannot_ptrace(config: SandboxConfig, worker_process: tuple[int, str]) -> None:
    pid, _ = worker_process
    assert attack("plain", config, "escalate.py", "ptrace", pid=pid)["ok"]
    assert not attack("sandbox", config, "escalate.py", "ptrace", pid=pid)["ok"]
    # Not even bubblewrap's init, the one other process in its namespace.
    assert not attack("sandbox", config, "escalate.py", "ptrace", pid=1)["ok"]


def test_only_the_three_standard_descriptors_are_open(config: SandboxConfig) -> None:
    with start("sandbox", config, "snoop.py") as bot:
        descriptors = bot.request({"id": 1, "do": "open_fds"})["value"]
    # The fourth is the directory being listed.
    assert descriptors == [0, 1, 2, 3]


def test_it_runs_as_nobody_inside(config: SandboxConfig) -> None:
    uids = attack("sandbox", config, "snoop.py", "status")["value"]["Uid"].split()
    assert set(uids) == {"65534"}
