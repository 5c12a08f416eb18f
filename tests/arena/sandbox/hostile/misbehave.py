"""Breaks the protocol or the rules of time, or leaves processes behind.

`--slow-start SECONDS` on the command line delays the answer to the first message.
"""

import json
import os
import sys
import time

from _loop import serve

MARKER_CODE = "import sys, time; time.sleep(float(sys.argv[1]))"


def sleep(seconds):
    time.sleep(seconds)
    return {"ok": True}


def huge_line(size):
    sys.stdout.write("x" * size)
    sys.stdout.flush()
    time.sleep(30)


def flood_stdout():
    """Valid replies, far more of them than were asked for."""
    for number in range(10000):
        sys.stdout.write(json.dumps({"id": number, "flood": True}) + "\n")
    sys.stdout.flush()
    time.sleep(30)


def flood_stderr(size, last=""):
    chunk = "e" * 65536 + "\n"
    for _ in range(size // len(chunk) + 1):
        sys.stderr.write(chunk)
    sys.stderr.write(last)
    sys.stderr.flush()
    return {"ok": True}


def raw(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def answer_as(reply_id):
    sys.stdout.write(json.dumps({"id": reply_id}) + "\n")
    sys.stdout.flush()


def close_stdout():
    os.close(1)
    time.sleep(30)


def exit_with(status):
    os._exit(status)


def _marker(marker, seconds):
    """A process whose command line carries `marker`, so the host can find it."""
    os.execv(sys.executable, [sys.executable, "-c", MARKER_CODE, str(seconds), marker])


def daemon(marker, seconds=60):
    """Double fork and a new session: the classic way to outlive one's parent."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.closerange(0, 3)
            _marker(marker, seconds)
        os._exit(0)
    os.wait()
    return {"ok": True}


def child(marker, seconds=60):
    """A plain child process that ignores its parent's fate."""
    if os.fork() == 0:
        os.closerange(0, 3)
        _marker(marker, seconds)
    return {"ok": True}


if "--slow-start" in sys.argv:
    time.sleep(float(sys.argv[sys.argv.index("--slow-start") + 1]))

serve(
    {
        "sleep": sleep,
        "huge_line": huge_line,
        "flood_stdout": flood_stdout,
        "flood_stderr": flood_stderr,
        "raw": raw,
        "answer_as": answer_as,
        "close_stdout": close_stdout,
        "exit_with": exit_with,
        "daemon": daemon,
        "child": child,
    }
)
