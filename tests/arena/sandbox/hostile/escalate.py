"""Tries to gain privileges: setuid(0), new namespaces, mount, ptrace."""

import ctypes
import os

from _loop import attempt, serve

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
PTRACE_ATTACH = 16
PTRACE_DETACH = 17


def _check(result):
    if result == -1:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))
    return result


def setuid_root():
    return attempt(os.setuid, 0)


def unshare_user():
    return attempt(lambda: _check(libc.unshare(CLONE_NEWUSER)))


def mount_tmpfs(target):
    """Mounts in a private mount namespace when it can make one, never in the host's."""
    unshared = attempt(lambda: _check(libc.unshare(CLONE_NEWNS)))
    if unshared["ok"]:
        _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None))
    mounted = attempt(lambda: _check(libc.mount(b"none", target.encode(), b"tmpfs", 0, None)))
    return {"ok": mounted["ok"], "unshare": unshared, "mount": mounted}


def ptrace(pid):
    def attach():
        _check(libc.ptrace(PTRACE_ATTACH, pid, None, None))
        os.waitpid(pid, 0)
        libc.ptrace(PTRACE_DETACH, pid, None, None)
        return "attached"

    return attempt(attach)


serve(
    {
        "setuid_root": setuid_root,
        "unshare_user": unshare_user,
        "mount_tmpfs": mount_tmpfs,
        "ptrace": ptrace,
    }
)
