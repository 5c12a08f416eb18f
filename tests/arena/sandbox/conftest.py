"""Shared pieces of the sandbox tests: configs, bot launchers and decoys.

Every attack runs twice: once as a plain process, to prove the decoy is there and the
attack works, and once in the sandbox, where it must fail. Tests that need the sandbox
skip when the machine cannot provide it, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox import (
    MIB,
    BotProcess,
    Limits,
    PlainProcess,
    SandboxConfig,
    SandboxStartError,
    sandbox_problems,
)

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile"
BOTS = HERE / "bots"
PROJECT_ROOT = HERE.parents[2]
HELLO = {"id": 0, "do": "hello"}

TEST_LIMITS = Limits(
    memory_bytes=256 * MIB,
    address_space_bytes=1024 * MIB,
    pids=32,
    fsize_bytes=1 * MIB,
    tmpfs_bytes=8 * MIB,
    stderr_bytes=16 * 1024,
    # Deadlines a bot is meant to meet are generous, so that no test depends on the
    # machine's load; the tests of timeouts give their own short deadlines to bots that
    # never answer.
    startup_s=30.0,
    decision_s=60.0,
    time_bank_s=120.0,
)


def skip_or_fail(reason: str) -> None:
    """Skip when the machine lacks the sandbox, but fail in CI, which must provide it."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the sandbox is required in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def sandbox_missing() -> str | None:
    """Why this machine cannot run sandboxed bots, found once: None when it can."""
    config = SandboxConfig(limits=TEST_LIMITS)
    problems = sandbox_problems(config)
    if problems:
        return "; ".join(problems)
    # Everything is installed; only a real start shows that namespaces are allowed.
    try:
        BotProcess.start(config, BOTS, entry="echo.py", hello=HELLO).close()
    except SandboxStartError as error:
        return str(error)
    return None


@pytest.fixture
def config(sandbox_missing: str | None) -> SandboxConfig:
    """The sandbox config of the tests; skips (or fails in CI) where there is no sandbox."""
    if sandbox_missing is not None:
        skip_or_fail(sandbox_missing)
    return SandboxConfig(limits=TEST_LIMITS)


def start(
    kind: str,
    config: SandboxConfig,
    script: str,
    *,
    argv: Sequence[str] = (),
    directory: Path = HOSTILE,
) -> BotProcess | PlainProcess:
    if kind == "sandbox":
        return BotProcess.start(config, directory, entry=script, hello=HELLO, argv=argv)
    return PlainProcess.start(config, directory, entry=script, hello=HELLO, argv=argv)


def attack(
    kind: str, config: SandboxConfig, script: str, do: str, **args: object
) -> dict[str, Any]:
    """Start a hostile bot, have it try one thing, and return its report."""
    with start(kind, config, script) as bot:
        report: dict[str, Any] = bot.request({"id": 1, "do": do, "args": args})
    return report


def marker_processes(marker: str) -> list[int]:
    """Host pids whose command line contains `marker`."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError):
                if marker.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                    found.append(int(name))
    return found


def wait_until_gone(marker: str, timeout_s: float = 30.0) -> list[int]:
    """Wait for every process carrying `marker` to end; return the survivors."""
    give_up_at = time.monotonic() + timeout_s
    while (survivors := marker_processes(marker)) and time.monotonic() < give_up_at:
        time.sleep(0.05)
    return survivors


def wait_until_running(marker: str, timeout_s: float = 30.0) -> list[int]:
    """Wait for a process carrying `marker` to appear (a fork and exec away)."""
    give_up_at = time.monotonic() + timeout_s
    while not (found := marker_processes(marker)) and time.monotonic() < give_up_at:
        time.sleep(0.02)
    return found


def kill_all(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)


@pytest.fixture
def marker() -> Iterator[str]:
    """A unique word to find a bot's processes in the host's process table."""
    word = f"pinochle-marker-{uuid.uuid4().hex}"
    yield word
    kill_all(marker_processes(word))


def _listener(address: tuple[str, int]) -> socket.socket:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(address)
    server.listen(16)
    return server


@contextlib.contextmanager
def tcp_decoy(host: str, port: int) -> Iterator[int]:
    """Listen on host:port, unless a real service (PostgreSQL, Redis) already does."""
    try:
        server = _listener((host, port))
    except OSError:
        with socket.create_connection((host, port), timeout=2):
            pass
        yield port
        return
    with server:
        yield server.getsockname()[1]


def outside_address() -> str:
    """The host's own non-loopback address: reachable from the host's network namespace."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            pytest.skip("the host has no non-loopback IPv4 address")
        address: str = probe.getsockname()[0]
    if address.startswith("127."):
        pytest.skip("the host has no non-loopback IPv4 address")
    return address


@pytest.fixture
def udp_decoy() -> Iterator[int]:
    """A UDP server on 127.0.0.1 answering every datagram, like a resolver would."""
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def answer() -> None:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                data, peer = server.recvfrom(512)
                server.sendto(data[:2] + b"pong", peer)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


@pytest.fixture
def unix_decoy() -> Iterator[str]:
    """A listening unix socket in the host's /tmp, open to everyone."""
    path = f"/tmp/pinochle-decoy-{uuid.uuid4().hex}.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    os.chmod(path, 0o777)
    server.listen(16)
    yield path
    server.close()
    os.unlink(path)


@pytest.fixture
def abstract_decoy() -> Iterator[str]:
    """A listening abstract unix socket; given as "@name" to the bots."""
    name = f"pinochle-decoy-{uuid.uuid4().hex}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind("\0" + name)
    server.listen(16)
    yield "@" + name
    server.close()


@pytest.fixture
def project_decoy() -> Iterator[tuple[Path, str]]:
    """A world-readable settings file with a secret, inside the project directory."""
    secret = f"decoy-secret-{uuid.uuid4().hex}"
    directory = PROJECT_ROOT / f".sandbox-decoy-{uuid.uuid4().hex}"
    directory.mkdir(mode=0o755)
    settings = directory / "settings.py"
    settings.write_text(f'SECRET_KEY = "{secret}"\nDATABASE_URL = "postgres://{secret}"\n')
    settings.chmod(0o644)
    yield settings, secret
    shutil.rmtree(directory)


@pytest.fixture
def worker_process(marker: str) -> Iterator[tuple[int, str]]:
    """A stand-in for the Celery worker: secrets in its environment and command line."""
    secret = f"worker-secret-{uuid.uuid4().hex}"
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": f"postgres://arena:{secret}@127.0.0.1/arena",
        "CELERY_BROKER_URL": f"redis://:{secret}@127.0.0.1:6379/0",
        "DJANGO_SECRET_KEY": secret,
    }
    worker = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)", f"--token={secret}", marker],
        env=env,
    )
    yield worker.pid, secret
    worker.kill()
    worker.wait()


@pytest.fixture
def leaky_environment(monkeypatch: pytest.MonkeyPatch) -> str:
    """Secrets in this (host) process's environment, where a plain child inherits them."""
    secret = f"env-secret-{uuid.uuid4().hex}"
    monkeypatch.setenv("DJANGO_SECRET_KEY", secret)
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings")
    monkeypatch.setenv("DATABASE_URL", f"postgres://arena:{secret}@127.0.0.1/arena")
    monkeypatch.setenv("CELERY_BROKER_URL", f"redis://:{secret}@127.0.0.1:6379/0")
    monkeypatch.setenv("REDIS_URL", f"redis://:{secret}@127.0.0.1:6379/1")
    return secret
