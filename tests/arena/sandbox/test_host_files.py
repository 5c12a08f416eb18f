"""A sandboxed bot sees no host file, process or secret, and writes nowhere on the host."""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from arena.sandbox import SandboxConfig
from tests.arena.sandbox.conftest import PROJECT_ROOT, attack, start

SECRET_VARIABLES = ("DJANGO_SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DATABASE_URL")


def test_it_cannot_read_etc_shadow(config: SandboxConfig) -> None:
    assert attack("plain", config, "snoop.py", "read_file", path="/etc/shadow")["ok"]
    assert not attack("sandbox", config, "snoop.py", "read_file", path="/etc/shadow")["ok"]


def test_it_cannot_read_a_world_readable_project_file(
    config: SandboxConfig, project_decoy: tuple[Path, str]
) -> None:
    settings, secret = project_decoy
    plain = attack("plain", config, "snoop.py", "read_file", path=str(settings))
    assert secret in plain["value"]
    report = attack("sandbox", config, "snoop.py", "read_file", path=str(settings))
    assert not report["ok"]
    assert "FileNotFoundError" in report["error"]


def test_it_cannot_read_the_workers_environment_or_command_line(
    config: SandboxConfig, worker_process: tuple[int, str]
) -> None:
    pid, secret = worker_process
    for part in ("environ", "cmdline"):
        path = f"/proc/{pid}/{part}"
        assert secret in attack("plain", config, "snoop.py", "read_file", path=path)["value"]
        assert not attack("sandbox", config, "snoop.py", "read_file", path=path)["ok"]
    # And this very process, the bot's owner.
    for part in ("environ", "cmdline"):
        path = f"/proc/{os.getpid()}/{part}"
        assert attack("plain", config, "snoop.py", "read_file", path=path)["value"]
        assert not attack("sandbox", config, "snoop.py", "read_file", path=path)["ok"]


def test_its_own_pid_1_holds_no_secret(config: SandboxConfig, leaky_environment: str) -> None:
    if _host_reads("/proc/1/environ"):
        assert attack("plain", config, "snoop.py", "read_file", path="/proc/1/environ")["ok"]
    # In the sandbox, pid 1 is bubblewrap's init: it may be readable, but holds nothing.
    report = attack("sandbox", config, "snoop.py", "read_file", path="/proc/1/environ")
    assert leaky_environment not in str(report)
    assert not any(name in str(report) for name in SECRET_VARIABLES)


def test_its_environment_holds_no_host_secret(
    config: SandboxConfig, leaky_environment: str
) -> None:
    plain = attack("plain", config, "snoop.py", "environ")["value"]
    assert leaky_environment in plain["DATABASE_URL"]
    environment = attack("sandbox", config, "snoop.py", "environ")["value"]
    assert leaky_environment not in str(environment)
    assert not any(name.startswith("DJANGO_") for name in environment)
    assert not {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"} & set(environment)


def _host_reads(path: str) -> bool:
    try:
        return bool(Path(path).read_bytes())
    except OSError:
        return False


@pytest.fixture
def escape_paths() -> Iterator[list[Path]]:
    """Places on the host a bot must not write to; removed afterwards if it did."""
    name = f"pinochle-escape-{uuid.uuid4().hex}"
    paths = [PROJECT_ROOT / name, Path("/tmp") / name, Path("/dev/shm") / name]
    yield paths
    for path in paths:
        path.unlink(missing_ok=True)


def test_it_cannot_write_to_the_project_host_tmp_or_dev_shm(
    config: SandboxConfig, escape_paths: list[Path]
) -> None:
    for path in escape_paths:
        assert attack("plain", config, "snoop.py", "write_file", path=str(path))["ok"]
        assert path.exists()
        path.unlink()
        # Inside the sandbox /tmp and /dev/shm are private: a write may succeed there,
        # but must not reach the host.
        attack("sandbox", config, "snoop.py", "write_file", path=str(path))
        assert not path.exists()


def test_it_cannot_signal_the_worker(config: SandboxConfig) -> None:
    received = []

    def record(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    previous = signal.signal(signal.SIGUSR1, record)
    try:
        args = {"pid": os.getpid(), "signum": int(signal.SIGUSR1)}
        assert attack("plain", config, "snoop.py", "signal", **args)["ok"]
        assert received == [signal.SIGUSR1]
        report = attack("sandbox", config, "snoop.py", "signal", **args)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert not report["ok"]
    assert received == [signal.SIGUSR1]


@pytest.mark.parametrize("kind", ["plain", "sandbox"])
def test_a_bot_cannot_find_another_bots_cards(
    config: SandboxConfig, kind: str, request: pytest.FixtureRequest
) -> None:
    secret = f"cards-{uuid.uuid4().hex}"
    name = f"pinochle-hand-{uuid.uuid4().hex}"
    request.addfinalizer(lambda: Path("/tmp", name).unlink(missing_ok=True))
    request.addfinalizer(lambda: Path("/dev/shm", name).unlink(missing_ok=True))
    with start(kind, config, "snoop.py") as holder, start(kind, config, "snoop.py") as seeker:
        holder.request({"id": 1, "do": "keep_secret", "args": {"secret": secret, "name": name}})
        hunt = {"secret": secret, "pids": [holder.pid]}
        report: dict[str, Any] = seeker.request({"id": 1, "do": "hunt", "args": hunt})
    if kind == "plain":
        assert report["ok"], "the unsandboxed seeker should find the cards"
    else:
        assert not report["ok"], report
        # Its own pid namespace: bubblewrap's init, the bot, nothing of the holder's.
        assert len(report["value"]["visible_pids"]) <= 2
