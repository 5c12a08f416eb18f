"""Tries to exhaust the machine: processes, threads, memory, CPU, disk."""

import mmap
import os
import signal
import threading
import time

from _loop import attempt, serve


def fork_bomb(cap):
    children = []
    error = None
    while len(children) < cap:
        try:
            pid = os.fork()
        except OSError as exc:
            error = f"{type(exc).__name__}: {exc}"
            break
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return {"ok": error is None, "value": len(children), "error": error}


def thread_bomb(cap):
    stop = threading.Event()
    threads = []
    error = None
    while len(threads) < cap:
        thread = threading.Thread(target=stop.wait, daemon=True)
        try:
            thread.start()
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"
            break
        threads.append(thread)
    stop.set()
    for thread in threads:
        thread.join()
    return {"ok": error is None, "value": len(threads), "error": error}


def reserve(size):
    """Address space only: an anonymous mapping that is never touched."""

    def mapping():
        area = mmap.mmap(-1, size)
        area.close()
        return size

    return attempt(mapping)


def touch(size):
    """Resident memory: every page written."""
    block = bytearray(size)
    for offset in range(0, size, 4096):
        block[offset] = 1
    return {"ok": True, "value": len(block)}


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return {"ok": True, "value": seconds}


def spin_until(cpu, seconds):
    """Spin until this process has used `cpu` CPU-seconds, or `seconds` have passed."""
    end = time.monotonic() + seconds
    while time.process_time() < cpu and time.monotonic() < end:
        pass


def spin_children(count, cpu, seconds):
    """Children each spinning for `cpu` CPU-seconds (at most `seconds` of wall time);
    report the CPU time they got."""
    children = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            spin_until(cpu, seconds)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    times = os.times()
    return {"ok": True, "value": times.children_user + times.children_system}


def fill(directory, cap, chunk=1 << 20):
    """Write files of `chunk` bytes into `directory` until `cap` bytes or an error."""
    written = 0
    error = None
    data = b"x" * chunk
    while written < cap:
        try:
            with open(os.path.join(directory, f"fill-{written}"), "wb") as handle:
                handle.write(data)
            written += chunk
        except OSError as exc:
            error = f"{type(exc).__name__}: {exc}"
            break
    return {"ok": error is None, "value": written, "error": error}


def big_file(path, size):
    def write():
        with open(path, "wb") as handle:
            handle.write(b"x" * size)
        return os.path.getsize(path)

    return attempt(write)


serve(
    {
        "fork_bomb": fork_bomb,
        "thread_bomb": thread_bomb,
        "reserve": reserve,
        "touch": touch,
        "spin": spin,
        "spin_children": spin_children,
        "fill": fill,
        "big_file": big_file,
    }
)
