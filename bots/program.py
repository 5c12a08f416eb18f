"""Any program that speaks the protocol, as a seat at a table: a child process on pipes.

The local runner uses it for bots that are not SDK classes (a Python script written from
PROTOCOL.md, ``node mybot.js``, a compiled binary). It applies the arena's clock: the
answer to ``hello`` within ``startup_ms``, each ``act`` within ``decision_ms`` and all of a
board's decisions within ``bank_ms`` (refilled at every ``hand_start``, as the arena's
runner does), and the arena's protocol rules: one JSON object per line of at most
``MAX_LINE_BYTES``, nothing written unasked. The sandbox is the arena's business: here the
program runs as the user who started it, with their files and network.

Standard library only, as everything in ``bots``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from bots.protocol import MAX_LINE_BYTES, ProtocolViolation, TimeControl, read_ready

_CHUNK = 65536
_EXIT_WAIT_S = 1.0


class ProgramFault(Exception):
    """The program broke a rule of the table; ``kind`` names the fault as the arena does."""

    kind = "crash"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ProgramTimeout(ProgramFault):
    """No answer within the start-up budget, the decision deadline or the board's bank."""

    kind = "timeout"


class ProgramCrashed(ProgramFault):
    """The program exited, or closed its output, before answering."""

    kind = "crash"


class ProgramProtocolError(ProgramFault):
    """The program wrote something that is not the one JSON line the host asked for."""

    kind = "protocol"


class _Deadline(Exception):
    pass


class ProgramAgent:
    """A child process at one seat; ``start`` launches it and has it answer ``hello``."""

    def __init__(self, process: subprocess.Popen[bytes], clock: TimeControl) -> None:
        assert process.stdin is not None and process.stdout is not None
        self._process = process
        self._stdin = process.stdin.fileno()
        self._stdout = process.stdout.fileno()
        os.set_blocking(self._stdin, False)
        os.set_blocking(self._stdout, False)
        self._clock = clock
        self._bank_s = clock.bank_ms / 1000
        self._buffer = bytearray()
        self._closed = False

    @classmethod
    def start(
        cls,
        argv: Sequence[str],
        *,
        hello: Mapping[str, Any],
        clock: TimeControl,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> ProgramAgent:
        """Start ``argv`` and check its answer to ``hello``; raise a ProgramFault if it fails.

        Its stderr is left on the terminal's, for its author to read as it plays.
        """
        try:
            process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=cwd,
                env=None if env is None else dict(env),
                close_fds=True,
                start_new_session=True,
            )
        except OSError as error:
            raise ProgramCrashed(f"cannot start {argv[0]!r}: {error.strerror}") from None
        agent = cls(process, clock)
        try:
            reply = agent._exchange(hello, clock.startup_ms / 1000, "the first message")
            read_ready(reply)
        except ProtocolViolation as violation:
            agent.close()
            raise ProgramProtocolError(str(violation)) from None
        except BaseException:
            agent.close()
            raise
        return agent

    @property
    def time_bank_remaining(self) -> float:
        return max(self._bank_s, 0.0)

    def request(
        self, message: Mapping[str, object], deadline_s: float | None = None
    ) -> dict[str, object]:
        deadline = self._clock.decision_ms / 1000 if deadline_s is None else deadline_s
        budget = min(deadline, self._bank_s)
        if budget <= 0:
            self._fail(ProgramTimeout(f"time bank of {self._clock.bank_ms} ms used up"))
        started = time.monotonic()
        try:
            return self._exchange(message, budget, f"request {message.get('id')!r}")
        except ProgramTimeout:
            if deadline > budget:
                self._fail(ProgramTimeout(f"time bank of {self._clock.bank_ms} ms used up"))
            raise
        finally:
            self._bank_s -= time.monotonic() - started

    def send(self, message: Mapping[str, object]) -> None:
        if message.get("type") == "hand_start":
            self._bank_s = self._clock.bank_ms / 1000
        self._check_silent()
        self._write(message, time.monotonic() + self._clock.decision_ms / 1000)

    def close(self) -> None:
        """Stop the program and its children; safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def _exchange(
        self, message: Mapping[str, object], timeout_s: float, what: str
    ) -> dict[str, object]:
        deadline_at = time.monotonic() + timeout_s
        self._check_silent()
        try:
            self._write(message, deadline_at)
            line = self._read_line(deadline_at)
        except _Deadline:
            self._fail(ProgramTimeout(f"no answer to {what} within {timeout_s * 1000:.0f} ms"))
        try:
            reply = json.loads(line)
        except ValueError as error:
            self._fail(ProgramProtocolError(f"reply is not valid JSON: {error}"))
        if not isinstance(reply, dict):
            self._fail(
                ProgramProtocolError(f"reply is a JSON {type(reply).__name__}, not an object")
            )
        return reply

    def _check_silent(self) -> None:
        """Anything on stdout now answers no request: the arena treats it as a fault.

        An end of output is left for the next exchange to report as the exit it is.
        """
        if not self._buffer and select.select([self._stdout], [], [], 0)[0]:
            self._fill()
        if self._buffer:
            self._fail(ProgramProtocolError("wrote output that answers no request"))

    def _write(self, message: Mapping[str, object], deadline_at: float) -> None:
        view = memoryview(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while view:
            try:
                view = view[os.write(self._stdin, view) :]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self._fail(self._exit_fault())
            try:
                self._wait(deadline_at, write=True)
            except _Deadline:
                self._fail(ProgramTimeout("did not read its input in time"))

    def _read_line(self, deadline_at: float) -> bytes:
        while True:
            newline = self._buffer.find(b"\n")
            if newline > MAX_LINE_BYTES or (newline < 0 and len(self._buffer) > MAX_LINE_BYTES):
                self._fail(ProgramProtocolError(f"reply line longer than {MAX_LINE_BYTES} bytes"))
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                return line
            self._wait(deadline_at, write=False)
            if not self._fill():
                self._fail(self._exit_fault())

    def _fill(self) -> bool:
        """Buffer what the program wrote; False at the end of its output."""
        try:
            chunk = os.read(self._stdout, _CHUNK)
        except BlockingIOError:
            return True
        self._buffer += chunk
        return bool(chunk)

    def _wait(self, deadline_at: float, *, write: bool) -> None:
        remaining = deadline_at - time.monotonic()
        if remaining <= 0:
            raise _Deadline
        poller = select.poll()
        if write:
            poller.register(self._stdin, select.POLLOUT)
        else:
            poller.register(self._stdout, select.POLLIN)
        if not poller.poll(math.ceil(remaining * 1000)):
            raise _Deadline

    def _exit_fault(self) -> ProgramFault:
        try:
            status = self._process.wait(timeout=_EXIT_WAIT_S)
        except subprocess.TimeoutExpired:
            return ProgramCrashed("closed its output while still running")
        if status < 0:
            with contextlib.suppress(ValueError):
                return ProgramCrashed(f"killed by {signal.Signals(-status).name}")
            return ProgramCrashed(f"killed by signal {-status}")
        return ProgramCrashed(f"exited with status {status} before answering")

    def _fail(self, fault: ProgramFault) -> NoReturn:
        self.close()
        raise fault
