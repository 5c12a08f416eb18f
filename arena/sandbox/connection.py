"""What every way of running a bot offers the match runner: send, request, close.

The three kinds (sandboxed process, plain process, in-process callable) share the rules
written here: replies are JSON objects matched to requests by "id", every request has a
wall-clock deadline, all requests of a game draw on one time bank, and the first fault
ends the bot: later calls raise the same fault again.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import TracebackType
from typing import NoReturn, Self

from arena.sandbox.config import Limits
from arena.sandbox.errors import BotFault, BotTimeout
from arena.sandbox.transport import DeadlinePassed, decode_reply, encode_message


class BotConnection(ABC):
    """One live bot, one seat: requests go in, replies come out, faults are typed."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.hello_reply: dict[str, object] = {}
        """The bot's answer to the first message, sent when it started."""
        self._time_bank_s = limits.time_bank_s
        self.last_elapsed_s = 0.0
        """Wall-clock time of the last request, as charged to the time bank."""
        self._fault: BotFault | None = None
        self._closed = False

    @property
    def fault(self) -> BotFault | None:
        """The fault that ended this bot, if any."""
        return self._fault

    @property
    def time_bank_remaining(self) -> float:
        return self._time_bank_s

    def reset_time_bank(self) -> None:
        """Give the bot a full time bank again, at the start of each game at the table."""
        self._time_bank_s = self.limits.time_bank_s

    @property
    def stderr(self) -> str:
        """What the bot wrote to stderr so far, cut at the cap, for its owner."""
        return ""

    def send(self, message: Mapping[str, object]) -> None:
        """Deliver a message that expects no reply (the bot must not answer it)."""
        self._check_usable()
        try:
            self._deliver(encode_message(message), self.limits.decision_s)
        except DeadlinePassed:
            self._fail(BotTimeout(f"did not read a message within {self.limits.decision_s:g} s"))
        except BotFault as fault:
            self._fail(fault)

    def request(
        self, message: Mapping[str, object], deadline_s: float | None = None
    ) -> dict[str, object]:
        """Send `message` and return the bot's reply, within the deadline and the time bank.

        `deadline_s` defaults to the decision limit. The elapsed time is charged to the
        time bank whatever the outcome.
        """
        self._check_usable()
        deadline = self.limits.decision_s if deadline_s is None else deadline_s
        budget = min(deadline, self._time_bank_s)
        if budget <= 0:
            self._fail(BotTimeout(f"time bank of {self.limits.time_bank_s:g} s used up"))
        line = encode_message(message)
        started = time.monotonic()
        try:
            reply_line = self._exchange(line, budget)
        except DeadlinePassed:
            self._charge(started)
            if deadline <= budget:
                self._fail(BotTimeout(f"no reply within the {deadline:g} s deadline"))
            self._fail(BotTimeout(f"time bank of {self.limits.time_bank_s:g} s used up"))
        except BotFault as fault:
            self._charge(started)
            self._fail(fault)
        self._charge(started)
        try:
            return decode_reply(reply_line, message.get("id"))
        except BotFault as fault:
            self._fail(fault)

    def close(self) -> None:
        """Stop the bot and release everything it held; safe to call more than once."""
        if not self._closed:
            self._closed = True
            self._release()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _handshake(self, hello: Mapping[str, object], budget_s: float) -> None:
        """Ask the first question within the start-up budget, off the time bank."""
        try:
            reply_line = self._exchange(encode_message(hello), budget_s)
            self.hello_reply = decode_reply(reply_line, hello.get("id"))
        except DeadlinePassed:
            self._fail(BotTimeout(f"no answer to the first message within {budget_s:g} s"))
        except BotFault as fault:
            self._fail(fault)

    def _charge(self, started: float) -> None:
        self.last_elapsed_s = time.monotonic() - started
        self._time_bank_s -= self.last_elapsed_s

    def _check_usable(self) -> None:
        if self._fault is not None:
            raise self._fault
        if self._closed:
            raise RuntimeError("the bot is closed")

    def _fail(self, fault: BotFault) -> NoReturn:
        """Record the fault, stop the bot, and raise the fault with the bot's stderr."""
        self._fault = fault
        self._stop()
        fault.stderr = self.stderr
        raise fault

    @abstractmethod
    def _deliver(self, line: bytes, timeout_s: float) -> None:
        """Pass one encoded line to the bot; raise DeadlinePassed or a BotFault."""

    @abstractmethod
    def _exchange(self, line: bytes, timeout_s: float) -> bytes:
        """Pass one encoded line and return the bot's reply line within `timeout_s`."""

    @abstractmethod
    def _stop(self) -> None:
        """Stop the bot after a fault, keeping what the owner may read (stderr)."""

    @abstractmethod
    def _release(self) -> None:
        """Stop the bot if it still runs and free every host resource it used."""
