"""The files a bot sees: its own code and read-only copies of chosen packages.

Everything is copied into one fresh directory per bot process, which the sandbox binds
read-only at `SANDBOX_ROOT`. Copying (rather than binding the sources) keeps the project
directory, its settings and its siblings out of the bot's sight.

    <runtime>/bot/   the bot's files; the entry script runs with this as sys.path[0]
    <runtime>/lib/   one copy per runtime package (engine, bots), on PYTHONPATH
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass

from arena.sandbox.errors import SandboxStartError

SANDBOX_ROOT = "/sandbox"
BOT_SUBDIR = "bot"
LIB_SUBDIR = "lib"
DEFAULT_ENTRY = "bot.py"
_PREFIX = "pinochle-bot-"
_IGNORED_NAMES = shutil.ignore_patterns("__pycache__", "*.pyc", ".git")


def _ignored(directory: str, names: list[str]) -> set[str]:
    """Caches, and anything but files, directories and links (a FIFO would hang the copy)."""
    ignored = set(_IGNORED_NAMES(directory, names))
    for name in names:
        mode = os.lstat(os.path.join(directory, name)).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            ignored.add(name)
    return ignored


@dataclass(frozen=True)
class Runtime:
    """A prepared runtime directory on the host and the entry script inside it."""

    directory: str
    entry: str
    """Path of the entry script relative to the bot directory."""

    @property
    def bot_directory(self) -> str:
        return os.path.join(self.directory, BOT_SUBDIR)

    @property
    def lib_directory(self) -> str:
        return os.path.join(self.directory, LIB_SUBDIR)

    def remove(self) -> None:
        _remove_tree(self.directory)


def prepare_runtime(
    bot_path: str | os.PathLike[str],
    *,
    packages: Sequence[str | os.PathLike[str]] = (),
    entry: str | None = None,
    work_dir: str | None = None,
    readable_by_gid: int | None = None,
) -> Runtime:
    """Copy a bot (a directory holding `entry`, or a single module) and `packages`.

    The copy is read-only to everyone and, when `readable_by_gid` is given, only that
    group may enter it: bots' source code is private to their owners.
    """
    source = os.fspath(bot_path)
    if os.path.isdir(source):
        entry = entry or DEFAULT_ENTRY
    elif os.path.isfile(source):
        entry = entry or os.path.basename(source)
    else:
        raise FileNotFoundError(f"no bot at {source}")
    if os.path.isabs(entry) or ".." in entry.split("/"):
        raise ValueError(f"entry {entry!r} must be a path inside the bot directory")

    _sweep(work_dir)
    directory = tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=work_dir)
    runtime = Runtime(directory=directory, entry=entry)
    try:
        if os.path.isdir(source):
            # Symbolic links are copied as links: they resolve inside the sandbox, never
            # to host files read with the worker's privileges.
            shutil.copytree(source, runtime.bot_directory, symlinks=True, ignore=_ignored)
        else:
            os.mkdir(runtime.bot_directory)
            shutil.copyfile(source, os.path.join(runtime.bot_directory, entry))
        os.mkdir(runtime.lib_directory)
        for package in packages:
            package_path = os.path.abspath(os.fspath(package))
            # A directory is enough: namespace packages (no __init__.py) import too.
            if not os.path.isdir(package_path):
                raise SandboxStartError(f"runtime package {package_path} is not a directory")
            shutil.copytree(
                package_path,
                os.path.join(runtime.lib_directory, os.path.basename(package_path)),
                symlinks=True,
                ignore=_ignored,
            )
        _make_read_only(runtime.directory)
        if readable_by_gid is None:
            os.chmod(runtime.directory, 0o555)
        else:
            os.chown(runtime.directory, -1, readable_by_gid)
            os.chmod(runtime.directory, 0o550)
    except BaseException:
        runtime.remove()
        raise
    return runtime


def _make_read_only(top: str) -> None:
    for directory, subdirectories, files in os.walk(top):
        for name in subdirectories:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                os.chmod(path, 0o555)
        for name in files:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                os.chmod(path, 0o444)


def _sweep(work_dir: str | None) -> None:
    """Remove runtime directories whose owner process died before cleaning up."""
    parent = work_dir or tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(parent):
            if not name.startswith(_PREFIX):
                continue
            owner = name[len(_PREFIX) :].partition("-")[0]
            if owner.isdecimal() and int(owner) != os.getpid():
                path = os.path.join(parent, name)
                if not os.path.exists(f"/proc/{owner}") and stat.S_ISDIR(os.lstat(path).st_mode):
                    _remove_tree(path)


def _remove_tree(top: str) -> None:
    # The copies are read-only; without root, entries of a 0555 directory cannot be
    # unlinked until it is writable again.
    with contextlib.suppress(OSError):
        os.chmod(top, 0o700)
        for directory, subdirectories, _ in os.walk(top):
            for name in subdirectories:
                path = os.path.join(directory, name)
                if not os.path.islink(path):
                    os.chmod(path, 0o700)
    shutil.rmtree(top, ignore_errors=True)
