"""Bots as child processes: sandboxed (submitted bots) or plain (trusted reference bots).

A sandboxed bot is started as

    sh (joins the bot's cgroups) -> prlimit (rlimits) -> bwrap (namespaces, seccomp)
        -> /usr/bin/python3 -c BOOT  (reports readiness, then runs the bot's entry script)

with `Popen(user=..., group=..., extra_groups=[])` doing the privilege drop, since
`preexec_fn` is unsafe in the threaded host (Celery, Django). bwrap is started by the
unprivileged bot user, which keeps the new user namespace unprivileged on the host:
RLIMIT_NPROC applies and nested user namespaces are refused.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pwd
import select
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence

from arena.sandbox.cgroups import CgroupGroup, CgroupManager
from arena.sandbox.config import MIB, Limits, SandboxConfig
from arena.sandbox.connection import BotConnection
from arena.sandbox.errors import (
    BotCpuExceeded,
    BotCrashed,
    BotFault,
    BotMemoryExceeded,
    BotProtocolError,
    SandboxStartError,
)
from arena.sandbox.runtime import (
    BOT_SUBDIR,
    LIB_SUBDIR,
    SANDBOX_ROOT,
    Runtime,
    prepare_runtime,
)
from arena.sandbox.seccomp import filter_program
from arena.sandbox.transport import LinePipes, LineTooLong, PipeClosed

# The uid and gid the bot has inside its user namespace ("nobody").
SANDBOX_ID = "65534"

# Runs first inside the sandbox, before any of the bot's code: it tells the host the
# sandbox is up (so failures before this point are the machine's, after it the bot's),
# closes every descriptor but 0, 1 and 2, then runs the entry script as __main__, or the
# launcher module with the entry script as its first argument (`python -m` style).
# Arguments: ready fd, "script" or "module", then sys.argv as the bot will see it.
# Only os and sys (loaded during interpreter start-up) are used before the ready byte:
# any later import could find a module of the bot's own directory, which is on sys.path.
_BOOT = (
    "import os,sys\n"
    "os.write(int(sys.argv[1]),b'1')\n"
    "os.closerange(3,os.sysconf('SC_OPEN_MAX'))\n"
    "mode=sys.argv[2]\n"
    "del sys.argv[:3]\n"
    f"sys.path[0]='{SANDBOX_ROOT}/{BOT_SUBDIR}'\n"
    "import runpy\n"
    "if mode=='module':runpy.run_module(sys.argv[0],run_name='__main__',alter_sys=True)\n"
    "else:runpy.run_path(sys.argv[0],run_name='__main__')\n"
)

# Joins every cgroup named before "--" (writing its own pid), then execs the rest, so the
# bot is capped from its first instruction without a preexec_fn.
_JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'

_HOST_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}

_SANDBOX_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "PYTHONPATH": f"{SANDBOX_ROOT}/{LIB_SUBDIR}",
    "PYTHONDONTWRITEBYTECODE": "1",
}

_EXIT_WAIT_S = 1.0


class _PipeConnection(BotConnection):
    """A bot in a child process speaking JSON lines on stdin and stdout."""

    def __init__(self, limits: Limits, process: subprocess.Popen[bytes]) -> None:
        super().__init__(limits)
        if process.stdin is None or process.stdout is None or process.stderr is None:
            raise ValueError("the bot process needs stdin, stdout and stderr pipes")
        self._process = process
        self._pipes = LinePipes(
            process.stdin.fileno(),
            process.stdout.fileno(),
            process.stderr.fileno(),
            line_cap=limits.line_bytes,
            stderr_cap=limits.stderr_bytes,
        )

    @property
    def pid(self) -> int:
        """Host pid of the child (for a sandboxed bot: of bubblewrap, not the bot)."""
        return self._process.pid

    @property
    def stderr(self) -> str:
        self._pipes.drain_stderr()
        return self._pipes.stderr_text

    def _deliver(self, line: bytes, timeout_s: float) -> None:
        try:
            self._pipes.write(line, time.monotonic() + timeout_s)
        except PipeClosed:
            raise self._exit_fault() from None

    def _exchange(self, line: bytes, timeout_s: float) -> bytes:
        deadline_at = time.monotonic() + timeout_s
        if self._pipes.has_unread_output():
            raise BotProtocolError("wrote output that answers no request")
        try:
            self._pipes.write(line, deadline_at)
            return self._pipes.read_line(deadline_at)
        except PipeClosed:
            raise self._exit_fault() from None
        except LineTooLong:
            raise BotProtocolError(
                f"reply line longer than {self.limits.line_bytes} bytes"
            ) from None

    def _exit_fault(self) -> BotFault:
        """Name what went wrong once the bot closed a pipe on us."""
        try:
            status = self._process.wait(timeout=_EXIT_WAIT_S)
        except subprocess.TimeoutExpired:
            return BotCrashed("closed its output while still running")
        return self._status_fault(status)

    def _status_fault(self, status: int) -> BotFault:
        if status < 0:
            return _signal_fault(-status, self.limits)
        return BotCrashed(f"exited with status {status} before answering")

    def _stop(self) -> None:
        # The child leads its own session: the group takes its helpers along with it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()
        self._pipes.drain_stderr()

    def _release(self) -> None:
        self._stop()
        self._pipes.close()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                stream.close()


class BotProcess(_PipeConnection):
    """A submitted bot in the sandbox: one process per seat, alive for its table.

    The thread that starts a bot must outlive it: bubblewrap's --die-with-parent fires
    when the starting thread exits, which is also what kills the bot if the worker dies.
    """

    def __init__(
        self,
        config: SandboxConfig,
        process: subprocess.Popen[bytes],
        runtime: Runtime,
        cgroup: CgroupGroup | None,
        notes: Sequence[str],
    ) -> None:
        super().__init__(config.limits, process)
        self.config = config
        self._runtime = runtime
        self._cgroup = cgroup
        self.notes: tuple[str, ...] = tuple(notes)
        """Protections this host could not apply (a missing cgroup controller)."""

    @classmethod
    def start(
        cls,
        config: SandboxConfig,
        bot_path: str | os.PathLike[str],
        *,
        hello: Mapping[str, object],
        argv: Sequence[str] = (),
        entry: str | None = None,
        launcher: str | None = None,
    ) -> BotProcess:
        """Start a bot from `bot_path` (a directory with `entry`, default bot.py, or one module).

        Runs the entry script with `argv`, or, given `launcher` (a module of the runtime
        packages, such as "bots.sdk"), runs `python -m launcher ENTRY_PATH *argv`.
        `hello` is the first message; the bot must answer it within the start-up
        budget, and the answer is kept in `hello_reply`. Raises a BotFault if the bot
        fails that, a SandboxStartError if the machine cannot run it.
        """
        started_at = time.monotonic()
        account = _bot_account(config)
        program = filter_program()
        cgroups = CgroupManager(config.cgroup_root, config.cgroup_parent)
        cgroups.sweep()
        runtime = prepare_runtime(
            bot_path,
            packages=config.runtime_packages,
            entry=entry,
            work_dir=config.work_dir,
            readable_by_gid=account.pw_gid,
        )
        cgroup: CgroupGroup | None = None
        try:
            if cgroups.parents:
                cgroup = cgroups.create(owner_uid=account.pw_uid, limits=config.limits)
            process, ready_fd = _spawn(config, account, runtime, cgroup, program, launcher, argv)
        except BaseException:
            if cgroup is not None:
                cgroup.kill_all()
            runtime.remove()
            raise
        bot = cls(config, process, runtime, cgroup, cgroups.notes)
        try:
            bot._await_ready(ready_fd, started_at + config.limits.startup_s)
            remaining = started_at + config.limits.startup_s - time.monotonic()
            bot._handshake(hello, max(remaining, 0.001))
        except BaseException:
            bot.close()
            raise
        return bot

    def _await_ready(self, ready_fd: int, deadline_at: float) -> None:
        try:
            poller = select.poll()
            poller.register(ready_fd, select.POLLIN)
            remaining = deadline_at - time.monotonic()
            events = poller.poll(max(int(remaining * 1000), 0))
            signal_byte = os.read(ready_fd, 1) if events else None
        finally:
            os.close(ready_fd)
        if signal_byte:
            return
        self._stop()
        raise SandboxStartError(
            f"the sandbox did not start within {self.limits.startup_s:g} s"
            if signal_byte is None
            else f"the sandbox failed to start: {self.stderr.strip() or 'no message'}"
        )

    def _status_fault(self, status: int) -> BotFault:
        if self._cgroup is not None and self._cgroup.memory_exhausted():
            return BotMemoryExceeded(
                f"exceeded its memory limit of {self.limits.memory_bytes // MIB} MiB"
            )
        # bubblewrap reports a bot killed by a signal as exit status 128 + signal.
        if status > 128:
            return _signal_fault(status - 128, self.limits)
        return super()._status_fault(status)

    def _stop(self) -> None:
        super()._stop()
        # Anything that left bwrap's process tree is still in the bot's cgroup.
        if self._cgroup is not None:
            self._cgroup.kill_all()

    def _release(self) -> None:
        super()._release()
        self._runtime.remove()


class PlainProcess(_PipeConnection):
    """A trusted bot as an ordinary child process: the same protocol, no isolation.

    For reference bots and as the baseline of tests and benchmarks. It inherits the
    host's environment unless `env` is given, and runs from the bot's own directory.
    """

    @classmethod
    def start(
        cls,
        config: SandboxConfig,
        bot_path: str | os.PathLike[str],
        *,
        hello: Mapping[str, object],
        argv: Sequence[str] = (),
        entry: str | None = None,
        launcher: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> PlainProcess:
        """Start the bot at `bot_path` and have it answer `hello` (see BotProcess.start)."""
        started_at = time.monotonic()
        source = os.path.abspath(os.fspath(bot_path))
        if os.path.isdir(source):
            directory, script = source, entry or "bot.py"
        else:
            directory, script = os.path.dirname(source), entry or os.path.basename(source)
        child_env = dict(os.environ if env is None else env)
        package_parents = dict.fromkeys(
            os.path.dirname(os.path.abspath(package)) for package in config.runtime_packages
        )
        if package_parents:
            child_env["PYTHONPATH"] = os.pathsep.join(package_parents)
        try:
            process = subprocess.Popen(
                [
                    config.interpreter,
                    "-B",
                    *(() if launcher is None else ("-m", launcher)),
                    os.path.join(directory, script),
                    *argv,
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=directory,
                env=child_env,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as error:
            raise SandboxStartError(f"cannot start {config.interpreter}: {error}") from error
        bot = cls(config.limits, process)
        try:
            remaining = started_at + config.limits.startup_s - time.monotonic()
            bot._handshake(hello, max(remaining, 0.001))
        except BaseException:
            bot.close()
            raise
        return bot


def sandbox_problems(config: SandboxConfig) -> list[str]:
    """What keeps this machine from running sandboxed bots; empty when it can."""
    problems = []
    if os.geteuid() != 0:
        problems.append("the worker is not root, so it cannot start bots as the bot user")
    for tool in (config.bwrap, config.prlimit, config.interpreter):
        if not os.access(tool, os.X_OK):
            problems.append(f"{tool} is missing (run deploy/sandbox-setup.sh)")
    if not _stays_in_usr(config.interpreter):
        problems.append(f"{config.interpreter} resolves outside /usr, which bots cannot see")
    try:
        pwd.getpwnam(config.bot_user)
    except KeyError:
        problems.append(f"user {config.bot_user!r} is missing (run deploy/sandbox-setup.sh)")
    try:
        filter_program()
    except SandboxStartError as error:
        problems.append(str(error))
    return problems


def _stays_in_usr(path: str) -> bool:
    """Whether `path` and every link it goes through lie under /usr, the bot's only tree.

    A link through /etc (Debian's alternatives) resolves on the host but dangles inside.
    """
    for _ in range(40):
        if not path.startswith("/usr/"):
            return False
        if not os.path.islink(path):
            return True
        path = os.path.normpath(os.path.join(os.path.dirname(path), os.readlink(path)))
    return False


def _bot_account(config: SandboxConfig) -> pwd.struct_passwd:
    problems = sandbox_problems(config)
    if problems:
        raise SandboxStartError("; ".join(problems))
    account = pwd.getpwnam(config.bot_user)
    if account.pw_uid == 0 or account.pw_gid == 0:
        raise SandboxStartError(f"user {config.bot_user!r} is privileged")
    return account


def _spawn(
    config: SandboxConfig,
    account: pwd.struct_passwd,
    runtime: Runtime,
    cgroup: CgroupGroup | None,
    program: bytes,
    launcher: str | None,
    argv: Sequence[str],
) -> tuple[subprocess.Popen[bytes], int]:
    """Start the launcher chain; returns the process and the read end of its ready pipe."""
    # The filter is small (well under a pipe's buffer), so it fits before bwrap reads it.
    seccomp_read, seccomp_write = os.pipe()
    os.write(seccomp_write, program)
    os.close(seccomp_write)
    ready_read, ready_write = os.pipe()
    limits = config.limits
    command = [
        config.prlimit,
        f"--as={limits.address_space_bytes}",
        f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}",
        f"--nproc={limits.nproc}",
        f"--nofile={limits.nofile}",
        f"--fsize={limits.fsize_bytes}",
        "--core=0",
        "--",
        *_bwrap_arguments(config, runtime, seccomp_read, ready_write),
        *(("script",) if launcher is None else ("module", launcher)),
        f"{SANDBOX_ROOT}/{BOT_SUBDIR}/{runtime.entry}",
        *argv,
    ]
    if cgroup is not None:
        command = ["/bin/sh", "-c", _JOIN_CGROUPS, "sh", *cgroup.procs_files, "--", *command]
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd="/",
            env=_HOST_ENV,
            user=account.pw_uid,
            group=account.pw_gid,
            extra_groups=[],
            close_fds=True,
            pass_fds=(seccomp_read, ready_write),
            start_new_session=True,
        )
    except OSError as error:
        os.close(ready_read)
        raise SandboxStartError(f"cannot start the sandbox: {error}") from error
    finally:
        os.close(seccomp_read)
        os.close(ready_write)
    return process, ready_read


def _bwrap_arguments(
    config: SandboxConfig, runtime: Runtime, seccomp_fd: int, ready_fd: int
) -> list[str]:
    tmpfs_size = str(config.limits.tmpfs_bytes)
    arguments = [
        config.bwrap,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--hostname",
        "bot",
    ]
    for name, value in _SANDBOX_ENV.items():
        arguments += ["--setenv", name, value]
    arguments += ["--ro-bind", "/usr", "/usr", *_system_links()]
    arguments += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        tmpfs_size,
        "--tmpfs",
        "/tmp",
        "--size",
        tmpfs_size,
        "--tmpfs",
        "/dev/shm",
        "--ro-bind",
        runtime.directory,
        SANDBOX_ROOT,
        "--chdir",
        f"{SANDBOX_ROOT}/{BOT_SUBDIR}",
        "--uid",
        SANDBOX_ID,
        "--gid",
        SANDBOX_ID,
        "--cap-drop",
        "ALL",
        "--seccomp",
        str(seccomp_fd),
        "--",
        config.interpreter,
        "-B",
        # No site: the bot gets the standard library and the runtime packages only, and
        # the host's .pth files neither run nor cost start-up time.
        "-S",
        "-c",
        _BOOT,
        str(ready_fd),
    ]
    return arguments


@functools.cache
def _system_links() -> tuple[str, ...]:
    """Recreate the host's /bin, /lib... links into /usr (merged /usr), or bind them."""
    arguments: list[str] = []
    for name in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(name):
            arguments += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            arguments += ["--ro-bind", name, name]
    return tuple(arguments)


def _signal_fault(signum: int, limits: Limits) -> BotFault:
    if signum == signal.SIGXCPU:
        return BotCpuExceeded(f"used up its CPU-time limit of {limits.cpu_seconds} s")
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return BotCrashed(f"killed by {name}")
