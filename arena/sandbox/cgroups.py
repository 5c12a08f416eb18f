"""Per-bot cgroup v1 groups: hard caps on the processes, memory and CPU of one bot.

Rlimits alone cannot cap a bot: RLIMIT_NPROC counts every process of the bot user (all
bots at once), RLIMIT_AS counts address space, not memory, and RLIMIT_CPU is per process,
so a bot's children could keep every CPU of the worker busy between its decisions. Each
bot therefore gets its own child of a prepared parent group (deploy/sandbox-setup.sh) in
the pids, memory and cpu controllers. A controller that is not there is reported in
`notes`, never fatal.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass

from arena.sandbox.config import Limits
from arena.sandbox.errors import SandboxStartError

CONTROLLERS = ("pids", "memory", "cpu")
_CPU_PERIOD_US = 100_000
_WITHOUT = {
    "pids": "processes are capped only by RLIMIT_NPROC, shared by all bots",
    "memory": "memory is capped only by RLIMIT_AS",
    "cpu": "CPU time is capped only per process, by RLIMIT_CPU",
}
_PREFIX = "bot-"


@dataclass(frozen=True)
class CgroupGroup:
    """One bot's groups, one directory per available controller."""

    directories: tuple[str, ...]
    memory_directory: str | None

    @property
    def procs_files(self) -> tuple[str, ...]:
        """The files the bot's launcher writes its own pid into to join the groups."""
        return tuple(os.path.join(directory, "cgroup.procs") for directory in self.directories)

    def memory_exhausted(self) -> bool:
        """Whether the kernel had to kill a process of the group for lack of memory."""
        if self.memory_directory is None:
            return False
        control = _read(os.path.join(self.memory_directory, "memory.oom_control"))
        for line in control.splitlines():
            name, _, value = line.partition(" ")
            if name == "oom_kill":
                return value.strip() not in ("", "0")
        # Kernels without the oom_kill counter: hitting the limit is the best sign left.
        return _read(os.path.join(self.memory_directory, "memory.failcnt")).strip() not in (
            "",
            "0",
        )

    def kill_all(self, timeout_s: float = 2.0) -> bool:
        """SIGKILL every member until the groups are empty, then remove them.

        Returns False if a group could not be removed in time; the sweep after its owner
        exits removes it.
        """
        give_up_at = time.monotonic() + timeout_s
        removed = [_empty_and_remove(directory, give_up_at) for directory in self.directories]
        return all(removed)


class CgroupManager:
    """Finds the prepared parent groups and creates one child per bot."""

    def __init__(self, root: str, parent: str) -> None:
        self.parents: dict[str, str] = {}
        self.notes: list[str] = []
        for controller in CONTROLLERS:
            directory = os.path.join(root, controller, parent)
            if os.path.isfile(os.path.join(directory, "cgroup.procs")):
                self.parents[controller] = directory
            else:
                self.notes.append(
                    f"cgroup v1 controller {controller!r} is not prepared at {directory}: "
                    + _WITHOUT[controller]
                )

    def create(self, *, owner_uid: int, limits: Limits) -> CgroupGroup:
        """Make the groups of one bot, with limits set, joinable by `owner_uid` only."""
        name = f"{_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"
        created: list[str] = []
        memory_directory: str | None = None
        try:
            for controller, parent in self.parents.items():
                directory = os.path.join(parent, name)
                os.mkdir(directory)
                created.append(directory)
                _apply_limits(controller, directory, limits)
                if controller == "memory":
                    memory_directory = directory
                # The launcher runs as the bot user and moves itself in before exec.
                os.chown(os.path.join(directory, "cgroup.procs"), owner_uid, -1)
        except OSError as error:
            # Nothing has joined yet: the directories go at once, or stay for the sweep.
            CgroupGroup(tuple(created), memory_directory).kill_all(timeout_s=0.1)
            raise SandboxStartError(f"cannot create cgroup {name}: {error}") from error
        return CgroupGroup(tuple(created), memory_directory)

    def sweep(self) -> None:
        """Remove groups left behind by owners that died without closing their bots."""
        for parent in self.parents.values():
            try:
                names = os.listdir(parent)
            except OSError:
                continue
            for name in names:
                if _owner_is_gone(name):
                    CgroupGroup((os.path.join(parent, name),), None).kill_all(timeout_s=0.1)


def _apply_limits(controller: str, directory: str, limits: Limits) -> None:
    if controller == "pids":
        _write(os.path.join(directory, "pids.max"), str(limits.pids))
    elif controller == "memory":
        _write(os.path.join(directory, "memory.limit_in_bytes"), str(limits.memory_bytes))
        # Without a swap limit the bot could page out past its memory limit.
        swap_limit = os.path.join(directory, "memory.memsw.limit_in_bytes")
        if os.path.exists(swap_limit):
            _write(swap_limit, str(limits.memory_bytes))
    else:
        _write(os.path.join(directory, "cpu.cfs_period_us"), str(_CPU_PERIOD_US))
        quota = max(int(limits.cpu_share * _CPU_PERIOD_US), 1000)
        _write(os.path.join(directory, "cpu.cfs_quota_us"), str(quota))


def _empty_and_remove(directory: str, give_up_at: float) -> bool:
    while True:
        for pid in _read(os.path.join(directory, "cgroup.procs")).split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        try:
            os.rmdir(directory)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            # Killed members stay in the group until their parent reaps them.
            if time.monotonic() >= give_up_at:
                return False
        time.sleep(0.005)


def _owner_is_gone(name: str) -> bool:
    """Whether a name made by `create` belongs to a process that no longer exists."""
    if not name.startswith(_PREFIX):
        return False
    owner, _, _ = name[len(_PREFIX) :].partition("-")
    if not owner.isdecimal() or int(owner) == os.getpid():
        return False
    return not os.path.exists(f"/proc/{owner}")


def _read(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return ""


def _write(path: str, value: str) -> None:
    with open(path, "w") as handle:
        handle.write(value)
