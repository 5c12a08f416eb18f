"""Starting and stopping: no survivors, no leftovers, faults of the machine named as such."""

from __future__ import annotations

import dataclasses
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox import (
    BotCrashed,
    BotProcess,
    InfrastructureFault,
    PlainProcess,
    SandboxConfig,
    SandboxStartError,
)
from tests.arena.sandbox.conftest import (
    BOTS,
    HELLO,
    HOSTILE,
    PROJECT_ROOT,
    kill_all,
    marker_processes,
    start,
    wait_until_gone,
    wait_until_running,
)

# The worker's stand-in: starts one bot that leaves a child process behind, then waits
# to be killed.
OWNER = """
import sys, time
from arena.sandbox import BotProcess, PlainProcess, SandboxConfig
kind, hostile, marker = sys.argv[1:4]
launcher = BotProcess if kind == "sandbox" else PlainProcess
bot = launcher.start(SandboxConfig(), hostile, entry="misbehave.py", hello={"id": 0})
bot.request({"id": 1, "do": "child", "args": {"marker": marker}})
print("ready", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("kind", ["plain", "sandbox"])
def test_a_double_forked_daemon_does_not_survive_close(
    config: SandboxConfig, kind: str, marker: str
) -> None:
    with start(kind, config, "misbehave.py") as bot:
        assert bot.request({"id": 1, "do": "daemon", "args": {"marker": marker}})["ok"]
        assert wait_until_running(marker), "the daemon should be running"
    survivors = wait_until_gone(marker, timeout_s=30.0 if kind == "sandbox" else 0.5)
    if kind == "plain":
        assert survivors, "an unsandboxed daemon escapes its process group"
    else:
        assert survivors == []


@pytest.mark.parametrize("kind", ["plain", "sandbox"])
def test_bots_die_with_a_sigkilled_worker(config: SandboxConfig, kind: str, marker: str) -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, kind, str(HOSTILE), marker],
        stdout=subprocess.PIPE,
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    try:
        assert owner.stdout is not None
        assert select.select([owner.stdout], [], [], 120)[0], "the owner did not start its bot"
        assert owner.stdout.readline() == b"ready\n"
        assert wait_until_running(marker)
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    survivors = wait_until_gone(marker, timeout_s=30.0 if kind == "sandbox" else 0.5)
    if kind == "plain":
        assert survivors, "an unsandboxed child outlives its worker"
    else:
        assert survivors == []
        # The next bot started on the host sweeps what the dead owner left behind.
        with start("sandbox", config, "misbehave.py"):
            assert not _leftovers(config, owner.pid)


def _leftovers(config: SandboxConfig, owner_pid: int) -> list[str]:
    """Runtime directories and cgroups whose names say `owner_pid` made them."""
    found = [name for name in os.listdir("/tmp") if name.startswith(f"pinochle-bot-{owner_pid}-")]
    for controller in ("pids", "memory"):
        parent = Path(config.cgroup_root, controller, config.cgroup_parent)
        if parent.is_dir():
            found += [p.name for p in parent.iterdir() if p.name.startswith(f"bot-{owner_pid}-")]
    return found


def test_close_removes_the_runtime_directory_and_the_cgroups(config: SandboxConfig) -> None:
    before = set(_leftovers(config, os.getpid()))
    bot = start("sandbox", config, "misbehave.py")
    assert set(_leftovers(config, os.getpid())) - before
    bot.close()
    bot.close()
    assert set(_leftovers(config, os.getpid())) == before


def test_a_missing_bot_user_is_an_infrastructure_fault(config: SandboxConfig) -> None:
    broken = dataclasses.replace(config, bot_user="pinochle-no-such-user")
    with pytest.raises(SandboxStartError, match="pinochle-no-such-user") as caught:
        BotProcess.start(broken, HOSTILE, entry="misbehave.py", hello=HELLO)
    assert isinstance(caught.value, InfrastructureFault)


def test_a_missing_bwrap_is_an_infrastructure_fault(config: SandboxConfig) -> None:
    broken = dataclasses.replace(config, bwrap="/usr/bin/no-such-bwrap")
    with pytest.raises(SandboxStartError, match="no-such-bwrap"):
        BotProcess.start(broken, HOSTILE, entry="misbehave.py", hello=HELLO)


def test_a_sandbox_that_fails_to_start_is_an_infrastructure_fault(
    config: SandboxConfig, tmp_path: Path
) -> None:
    # bwrap runs as the bot user, which cannot enter pytest's private temporary
    # directory: bwrap fails before the bot runs, nothing the bot did.
    tmp_path.chmod(0o700)
    broken = dataclasses.replace(config, work_dir=str(tmp_path))
    with pytest.raises(SandboxStartError, match=r"failed to start: bwrap: .*Permission denied"):
        BotProcess.start(broken, HOSTILE, entry="misbehave.py", hello=HELLO)


def test_a_cgroup_that_cannot_be_made_is_an_infrastructure_fault(
    config: SandboxConfig, tmp_path: Path
) -> None:
    # Looks like a prepared controller, but is a plain directory: no cgroup files appear.
    fake_parent = tmp_path / "pids" / config.cgroup_parent
    fake_parent.mkdir(parents=True)
    (fake_parent / "cgroup.procs").touch()
    broken = dataclasses.replace(config, cgroup_root=str(tmp_path))
    with pytest.raises(SandboxStartError, match="cannot create cgroup"):
        BotProcess.start(broken, HOSTILE, entry="misbehave.py", hello=HELLO)


def test_an_interpreter_outside_usr_is_refused(config: SandboxConfig) -> None:
    alternatives = [
        path
        for path in Path("/usr/bin").iterdir()
        if path.is_symlink() and os.readlink(path).startswith("/etc/") and os.access(path, os.X_OK)
    ]
    if not alternatives:
        pytest.skip("no /usr/bin link into /etc on this host")
    broken = dataclasses.replace(config, interpreter=str(alternatives[0]))
    with pytest.raises(SandboxStartError, match="resolves outside /usr"):
        BotProcess.start(broken, HOSTILE, entry="misbehave.py", hello=HELLO)


def test_a_bot_without_its_entry_script_crashes(config: SandboxConfig) -> None:
    with pytest.raises(BotCrashed, match="exited with status 1") as caught:
        BotProcess.start(config, HOSTILE, entry="no_such_bot.py", hello=HELLO)
    assert "no_such_bot.py" in caught.value.stderr


def test_a_bot_cannot_pass_its_failure_off_as_the_machines(
    config: SandboxConfig, tmp_path: Path
) -> None:
    # A module named like one the start-up code imports, failing as a broken sandbox would.
    (tmp_path / "runpy.py").write_text(
        "import os, sys\nprint('bwrap: oops', file=sys.stderr)\nos._exit(1)\n"
    )
    (tmp_path / "bot.py").write_text("")
    # Whether this Python imports the stdlib runpy (it is frozen in 3.11) or the bot's,
    # the bot ran and the fault is the bot's.
    with pytest.raises(BotCrashed, match="exited with status"):
        BotProcess.start(config, tmp_path, hello=HELLO)


def test_without_cgroups_the_bot_runs_and_the_gap_is_noted(
    config: SandboxConfig, tmp_path: Path
) -> None:
    degraded = dataclasses.replace(config, cgroup_root=str(tmp_path))
    with BotProcess.start(degraded, HOSTILE, entry="misbehave.py", hello=HELLO) as bot:
        assert bot.request({"id": 1, "do": "sleep", "args": {"seconds": 0}})["ok"]
        notes = " ".join(bot.notes)
    assert "'pids' is not prepared" in notes
    assert "'memory' is not prepared" in notes


def test_the_bot_sees_its_files_and_the_runtime_packages_read_only(
    config: SandboxConfig, tmp_path: Path
) -> None:
    package = tmp_path / "fakeengine"
    package.mkdir()
    (package / "__init__.py").write_text("RULES = 'pinochle'\n")
    (package / "__init__.py").chmod(0o600)
    with_package = dataclasses.replace(config, runtime_packages=(str(package),))
    with BotProcess.start(
        with_package, BOTS, entry="runtime_probe.py", hello=HELLO, argv=["--seat", "2"]
    ) as bot:
        reply: dict[str, Any] = bot.request({"id": 1, "import": "fakeengine"})
    assert reply["module_file"] == "/sandbox/lib/fakeengine/__init__.py"
    assert reply["pythonpath"] == "/sandbox/lib"
    assert reply["cwd"] == "/sandbox/bot"
    assert reply["argv"] == ["/sandbox/bot/runtime_probe.py", "--seat", "2"]
    assert not {"etc", "home", "root", "run", "var", "work"} & set(reply["root"])


def test_links_and_special_files_in_a_bot_stay_harmless(
    config: SandboxConfig, tmp_path: Path
) -> None:
    for name in ("snoop.py", "_loop.py"):
        shutil.copy(HOSTILE / name, tmp_path / name)
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "passwd").symlink_to("/etc/passwd")
    with BotProcess.start(config, tmp_path, entry="snoop.py", hello=HELLO) as bot:
        for name in ("passwd", "pipe"):
            path = f"/sandbox/bot/{name}"
            report = bot.request({"id": 1, "do": "read_file", "args": {"path": path}})
            assert not report["ok"], name


def test_the_runtime_cannot_be_written_to(config: SandboxConfig) -> None:
    with start("sandbox", config, "snoop.py") as bot:
        for path in ("/sandbox/bot/snoop.py", "/sandbox/lib/planted.py", "/usr/planted"):
            report = bot.request({"id": 1, "do": "write_file", "args": {"path": path}})
            assert not report["ok"], path


@pytest.mark.parametrize("kind", ["plain", "sandbox"])
def test_an_sdk_bot_runs_through_the_projects_launcher(
    config: SandboxConfig, kind: str, tmp_path: Path
) -> None:
    packages = tuple(str(PROJECT_ROOT / name) for name in ("engine", "bots"))
    if not Path(PROJECT_ROOT, "bots", "sdk.py").is_file():
        pytest.skip("the bot SDK is not in this checkout yet")
    bot_file = tmp_path / "bot.py"
    bot_file.write_text("def act(observation, legal):\n    return legal[0]\n")
    with_packages = dataclasses.replace(config, runtime_packages=packages)
    launch = BotProcess.start if kind == "sandbox" else PlainProcess.start
    hello = {"type": "hello", "id": 0, "protocol": 1, "seat": 2}
    with launch(with_packages, bot_file, hello=hello, launcher="bots.sdk") as bot:
        assert bot.hello_reply["type"] == "ready"


def test_kill_all_helper_is_idempotent(marker: str) -> None:
    kill_all(marker_processes(marker))
    assert marker_processes(marker) == []
