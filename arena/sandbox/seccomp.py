"""The system-call filter bubblewrap installs just before it runs the bot.

A denylist on top of the namespaces: it closes what namespaces alone leave open
(debugging other processes, new namespaces, kernel attack surface such as bpf and
io_uring) and keeps sockets to AF_UNIX, which only reach peers inside the bot's own
network namespace.
"""

from __future__ import annotations

import errno
import functools
import socket
import tempfile

from arena.sandbox.errors import SandboxStartError

_DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    "unshare",
    "setns",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "syslog",
    "acct",
    "quotactl",
    "name_to_handle_at",
    "open_by_handle_at",
    "lookup_dcookie",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "personality",
)

# Every clone flag that makes a new namespace; each needs its own rule because a masked
# comparison tests one bit pattern.
_NAMESPACE_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
    0x00000080,  # CLONE_NEWTIME
)


@functools.cache
def filter_program() -> bytes:
    """The compiled BPF program for the native architecture, as bwrap --seccomp reads it."""
    try:
        import pyseccomp  # type: ignore[import-untyped]
    except (ImportError, OSError) as error:
        raise SandboxStartError(f"seccomp is unavailable: {error}") from error

    arch = pyseccomp.system_arch()
    program = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    deny = pyseccomp.ERRNO(errno.EPERM)
    for name in _DENIED:
        # Names unknown to this architecture (or this libseccomp) have nothing to block.
        if pyseccomp.resolve_syscall(arch, name) >= 0:
            program.add_rule(deny, name)
    for flag in _NAMESPACE_FLAGS:
        program.add_rule(deny, "clone", pyseccomp.Arg(0, pyseccomp.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory, out of the filter's sight; ENOSYS makes the C
    # library fall back to clone, whose flags the rules above can see.
    program.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    program.add_rule(
        pyseccomp.ERRNO(errno.EAFNOSUPPORT),
        "socket",
        pyseccomp.Arg(0, pyseccomp.NE, socket.AF_UNIX),
    )
    with tempfile.TemporaryFile() as exported:
        program.export_bpf(exported)
        exported.seek(0)
        return exported.read()
