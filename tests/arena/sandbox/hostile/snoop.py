"""Tries to read and write what it should not: host files, /proc, other bots' secrets."""

import os

from _loop import attempt, serve


def read_file(path):
    def read():
        with open(path, "rb") as handle:
            return handle.read(65536).decode(errors="replace")

    return attempt(read)


def write_file(path, text="written by a bot"):
    def write():
        with open(path, "w") as handle:
            handle.write(text)
        return path

    return attempt(write)


def environ():
    return {"ok": True, "value": dict(os.environ)}


def open_fds():
    return {"ok": True, "value": sorted(int(fd) for fd in os.listdir("/proc/self/fd"))}


def status():
    with open("/proc/self/status") as handle:
        fields = dict(line.split(":", 1) for line in handle if ":" in line)
    return {"ok": True, "value": {name: fields[name].strip() for name in ("CapEff", "Uid")}}


def keep_secret(secret, name):
    """Hold a secret the way a bot holding its cards might leave traces of it."""
    global kept
    kept = secret
    written = {}
    for directory in ("/tmp", "/dev/shm"):
        written[directory] = attempt(write_file, os.path.join(directory, name), secret)
    return {"ok": True, "value": written}


def hunt(secret, pids=()):
    """Look for another bot's secret in every process and shared directory in sight."""
    found = []
    visible = sorted(int(name) for name in os.listdir("/proc") if name.isdigit())
    for pid in set(visible) | set(pids):
        if pid == os.getpid():
            continue
        for part in ("cmdline", "environ", "cwd/bot.py"):
            path = f"/proc/{pid}/{part}"
            try:
                with open(path, "rb") as handle:
                    if secret.encode() in handle.read():
                        found.append(path)
            except OSError:
                pass
    for directory in ("/tmp", "/dev/shm"):
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            path = os.path.join(directory, name)
            try:
                with open(path, "rb") as handle:
                    if secret.encode() in handle.read(1 << 20):
                        found.append(path)
            except OSError:
                pass
    return {"ok": bool(found), "value": {"found": found, "visible_pids": visible}}


def signal_process(pid, signum):
    return attempt(os.kill, pid, signum)


kept = None
serve(
    {
        "read_file": read_file,
        "write_file": write_file,
        "environ": environ,
        "open_fds": open_fds,
        "status": status,
        "keep_secret": keep_secret,
        "hunt": hunt,
        "signal": signal_process,
    }
)
