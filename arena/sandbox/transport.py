"""JSON objects over a child's pipes, one per line, with deadlines and caps.

The reading side never trusts the child: reads are non-blocking and buffered (one
syscall per chunk, not per byte), every wait is bounded by a wall-clock deadline through
poll, a line longer than the cap is refused before it is fully buffered, and stderr is
drained whenever it is readable, so a child blocked on a full stderr pipe cannot stall
the host, and kept only up to its own cap: its first half and its last half, since a bot
that floods stderr and then crashes ends with the traceback its owner needs.
"""

from __future__ import annotations

import json
import math
import os
import select
import time
from collections.abc import Mapping

from arena.sandbox.errors import BotProtocolError

_CHUNK = 65536


class DeadlinePassed(Exception):
    """The child did not finish the current exchange in time."""


class PipeClosed(Exception):
    """The child closed its side of a pipe (usually because it exited)."""


class LineTooLong(Exception):
    """The child wrote more than the line cap without a newline."""


def encode_message(message: Mapping[str, object]) -> bytes:
    """One JSON line; `json.dumps` escapes newlines inside strings, so it stays one line."""
    try:
        text = json.dumps(message, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError(f"message is not plain JSON: {error}") from error
    return text.encode() + b"\n"


def decode_reply(line: bytes, request_id: object = None) -> dict[str, object]:
    """Parse one reply line and check it answers the request that carries `request_id`."""
    try:
        reply = json.loads(line, parse_constant=_reject_constant)
    except RecursionError:
        raise BotProtocolError("reply nests too deeply") from None
    except ValueError as error:
        raise BotProtocolError(f"reply is not valid JSON: {_clip(str(error))}") from None
    # json accepts escaped lone surrogates (a \udcff escape), text that cannot be stored
    # or re-encoded later; such escapes are rare enough to check only when present.
    if (b"\\ud" in line or b"\\uD" in line) and not _encodable(reply):
        raise BotProtocolError("reply holds text that is not valid Unicode")
    if not isinstance(reply, dict):
        raise BotProtocolError(f"reply is a JSON {type(reply).__name__}, not an object")
    reply_id = reply.get("id")
    # Compared with the type too: in Python 1 == 1.0 == True, on the wire they differ.
    if type(reply_id) is not type(request_id) or reply_id != request_id:
        raise BotProtocolError(
            f"reply id {_clip(repr(reply_id))} does not match request id {request_id!r}"
        )
    return reply


def _encodable(value: object) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    return True


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class LinePipes:
    """The host's end of a child's stdin, stdout and stderr."""

    def __init__(self, stdin: int, stdout: int, stderr: int, *, line_cap: int, stderr_cap: int):
        self._stdin = stdin
        self._stdout = stdout
        self._stderr: int | None = stderr
        for fd in (stdin, stdout, stderr):
            os.set_blocking(fd, False)
        self._line_cap = line_cap
        self._stderr_head_cap = stderr_cap // 2
        self._stderr_tail_cap = stderr_cap - self._stderr_head_cap
        self._buffer = bytearray()
        self._scanned = 0
        self._stderr_head = bytearray()
        self._stderr_tail = bytearray()
        self._stderr_cut = 0
        self._reader = select.poll()
        self._reader.register(stdout, select.POLLIN)
        self._reader.register(stderr, select.POLLIN)
        self._stdout_waiting = select.poll()
        self._stdout_waiting.register(stdout, select.POLLIN)
        self._writer = select.poll()
        self._writer.register(stdin, select.POLLOUT)
        self._writer.register(stderr, select.POLLIN)

    @property
    def stderr_text(self) -> str:
        head = self._stderr_head.decode(errors="replace")
        tail = self._stderr_tail.decode(errors="replace")
        if self._stderr_cut:
            return f"{head}\n[{self._stderr_cut} bytes of stderr cut here]\n{tail}"
        return head + tail

    def write(self, data: bytes, deadline_at: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._stdin, view) :]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                raise PipeClosed from None
            # The child is not reading: wait for room, but drain its stderr meanwhile.
            for fd, _ in self._wait(self._writer, deadline_at):
                if fd == self._stderr:
                    self.drain_stderr()

    def read_line(self, deadline_at: float) -> bytes:
        while True:
            newline = self._buffer.find(b"\n", self._scanned)
            if newline >= 0:
                if newline > self._line_cap:
                    raise LineTooLong
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                self._scanned = 0
                return line
            if len(self._buffer) > self._line_cap:
                raise LineTooLong
            self._scanned = len(self._buffer)
            for fd, _ in self._wait(self._reader, deadline_at):
                if fd == self._stdout:
                    chunk = os.read(self._stdout, _CHUNK)
                    if not chunk:
                        raise PipeClosed
                    self._buffer += chunk
                else:
                    self.drain_stderr()

    def has_unread_output(self) -> bool:
        """Whether the child wrote to stdout beyond the replies taken so far."""
        if self._buffer:
            return True
        # A zero-timeout poll, not a speculative read: raising BlockingIOError on every
        # request would cost more than the rest of the round trip's Python work.
        if not self._stdout_waiting.poll(0):
            return False
        chunk = os.read(self._stdout, _CHUNK)
        # An empty read is end of file: nothing unread, the next exchange will see it.
        self._buffer += chunk
        return bool(chunk)

    def close(self) -> None:
        """Keep the last of stderr and let go of the descriptors (their owner closes them)."""
        self.drain_stderr()
        self._stop_reading_stderr()

    def drain_stderr(self) -> None:
        while self._stderr is not None:
            try:
                chunk = os.read(self._stderr, _CHUNK)
            except BlockingIOError:
                return
            if not chunk:
                self._stop_reading_stderr()
                return
            self._keep_stderr(chunk)

    def _keep_stderr(self, chunk: bytes) -> None:
        room = self._stderr_head_cap - len(self._stderr_head)
        if room > 0:
            self._stderr_head += chunk[:room]
            chunk = chunk[room:]
        self._stderr_tail += chunk
        excess = len(self._stderr_tail) - self._stderr_tail_cap
        if excess > 0:
            del self._stderr_tail[:excess]
            self._stderr_cut += excess

    def _stop_reading_stderr(self) -> None:
        # Once closed, the descriptor number may be reused by an unrelated file.
        if self._stderr is not None:
            self._reader.unregister(self._stderr)
            self._writer.unregister(self._stderr)
            self._stderr = None

    def _wait(self, poller: select.poll, deadline_at: float) -> list[tuple[int, int]]:
        remaining = deadline_at - time.monotonic()
        if remaining <= 0:
            raise DeadlinePassed
        return poller.poll(math.ceil(remaining * 1000))
