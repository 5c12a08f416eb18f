"""Sandbox settings: what a bot may use and how the host runs it.

The values are plain data so the Django settings (or a test) can build them from the
environment; `SandboxConfig.from_mapping` parses text strictly, a bad value is an error.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.sandbox.errors import ConfigError

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

_SIZE_UNITS = {"": 1, "k": KIB, "kib": KIB, "m": MIB, "mib": MIB, "g": GIB, "gib": GIB}
_SIZE_PATTERN = re.compile(r"(\d+)\s*([a-z]*)")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one bot process (sizes in bytes, times in seconds)."""

    memory_bytes: int = 512 * MIB
    """cgroup memory limit: resident memory, page cache and tmpfs pages together."""
    address_space_bytes: int = 1 * GIB
    """RLIMIT_AS: turns a huge allocation into a MemoryError inside the bot."""
    pids: int = 64
    """cgroup pids.max: processes and threads of one bot."""
    nproc: int = 1024
    """RLIMIT_NPROC, counted per user over all bots at once: a backstop, not a per-bot cap."""
    cpu_seconds: int = 300
    """RLIMIT_CPU over the whole life of the process (a table), not per decision."""
    cpu_share: float = 1.0
    """CPUs' worth of time all the bot's processes may use together (cgroup cpu quota)."""
    nofile: int = 64
    fsize_bytes: int = 16 * MIB
    tmpfs_bytes: int = 64 * MIB
    """Size of the bot's private /tmp and /dev/shm."""
    line_bytes: int = 1 * MIB
    """Longest reply line accepted from the bot."""
    stderr_bytes: int = 64 * KIB
    """How much of the bot's stderr is kept for its owner."""
    startup_s: float = 5.0
    """From spawn to the answer to the first message."""
    decision_s: float = 1.0
    """Default wall-clock deadline of one request."""
    time_bank_s: float = 60.0
    """Total wall-clock time a bot may spend answering requests in one game."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{item.name} must be a number, not {value!r}")
            if not math.isfinite(value) or value <= 0:
                raise ConfigError(f"{item.name} must be positive, not {value!r}")


@dataclass(frozen=True)
class SandboxConfig:
    """Where the sandbox's tools are and whom bots run as."""

    bot_user: str = "pinochle-bot"
    """Unprivileged host user that starts bubblewrap (see deploy/sandbox-setup.sh)."""
    interpreter: str = "/usr/bin/python3"
    """Absolute path under /usr: only /usr is visible inside the sandbox."""
    bwrap: str = "/usr/bin/bwrap"
    prlimit: str = "/usr/bin/prlimit"
    cgroup_root: str = "/sys/fs/cgroup"
    cgroup_parent: str = "pinochle-arena"
    """Directory under each cgroup v1 controller that holds one child cgroup per bot."""
    runtime_packages: tuple[str, ...] = ()
    """Pure-Python package directories copied read-only next to every bot (engine, bots)."""
    work_dir: str | None = None
    """Where per-bot runtime directories are made (None: the system temporary directory)."""
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        for name in ("interpreter", "bwrap", "prlimit", "cgroup_root"):
            if not getattr(self, name).startswith("/"):
                raise ConfigError(f"{name} must be an absolute path")
        if not self.interpreter.startswith("/usr/"):
            raise ConfigError("interpreter must live under /usr, the only tree the bot sees")
        if not self.bot_user or self.bot_user in ("root", "0"):
            raise ConfigError("bot_user must name an unprivileged user")
        if (
            not self.cgroup_parent
            or self.cgroup_parent.startswith("/")
            or (".." in self.cgroup_parent.split("/"))
        ):
            raise ConfigError("cgroup_parent must be a relative path inside the controller")
        if not isinstance(self.runtime_packages, tuple):
            raise ConfigError("runtime_packages must be a tuple of directories")

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> SandboxConfig:
        """Build a config from flat settings; limit names sit next to the others.

        Numbers may be given as text, sizes with a binary unit, lists as comma-separated
        text:

        >>> config = SandboxConfig.from_mapping({"memory_bytes": "256MiB", "pids": "32"})
        >>> config.limits.memory_bytes, config.limits.pids
        (268435456, 32)
        >>> SandboxConfig.from_mapping({"pids": "many"})
        Traceback (most recent call last):
        ...
        arena.sandbox.errors.ConfigError: pids: expected a whole number, got 'many'
        """
        config_fields = {item.name: item for item in dataclasses.fields(cls)}
        limit_fields = {item.name: item for item in dataclasses.fields(Limits)}
        config_values: dict[str, Any] = {}
        limit_values: dict[str, Any] = {}
        for name, raw in values.items():
            if name in limit_fields:
                limit_values[name] = _parse_limit(name, limit_fields[name].type, raw)
            elif name in config_fields and name != "limits":
                config_values[name] = _parse_setting(name, raw)
            else:
                raise ConfigError(f"unknown sandbox setting {name!r}")
        return cls(**config_values, limits=Limits(**limit_values))


def _parse_limit(name: str, kind: object, raw: object) -> int | float:
    if isinstance(raw, bool):
        raise ConfigError(f"{name}: expected a number, got {raw!r}")
    if kind in (float, "float"):
        if isinstance(raw, int | float):
            return float(raw)
        if isinstance(raw, str):
            try:
                return float(raw.strip())
            except ValueError:
                raise ConfigError(f"{name}: expected a number of seconds, got {raw!r}") from None
        raise ConfigError(f"{name}: expected a number of seconds, got {raw!r}")
    if isinstance(raw, int):
        return raw
    if not isinstance(raw, str):
        raise ConfigError(f"{name}: expected a whole number, got {raw!r}")
    if name.endswith("_bytes"):
        return _parse_size(name, raw)
    text = raw.strip()
    if not text.isdecimal():
        raise ConfigError(f"{name}: expected a whole number, got {raw!r}")
    return int(text)


def _parse_size(name: str, raw: str) -> int:
    match = _SIZE_PATTERN.fullmatch(raw.strip().lower())
    if match is None or match.group(2) not in _SIZE_UNITS:
        raise ConfigError(f"{name}: expected a size such as 512MiB, got {raw!r}")
    return int(match.group(1)) * _SIZE_UNITS[match.group(2)]


def _parse_setting(name: str, raw: object) -> object:
    if name == "runtime_packages":
        if isinstance(raw, str):
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if isinstance(raw, list | tuple) and all(isinstance(part, str) for part in raw):
            return tuple(raw)
        raise ConfigError(f"{name}: expected directories, got {raw!r}")
    if name == "work_dir" and raw is None:
        return None
    if not isinstance(raw, str):
        raise ConfigError(f"{name}: expected text, got {raw!r}")
    return raw
