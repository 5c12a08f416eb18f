"""A trusted bot as a Python callable in the host process, behind the same interface.

Messages and replies still go through JSON both ways, so the bot gets copies, replies are
checked like a child process's, and timings compare fairly with the process kinds. A
callable cannot be interrupted: a late reply is a timeout once it returns.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Mapping

from arena.sandbox.config import Limits
from arena.sandbox.connection import BotConnection
from arena.sandbox.errors import BotCrashed, BotProtocolError
from arena.sandbox.transport import DeadlinePassed

Handler = Callable[[dict[str, object]], "dict[str, object] | None"]


class InProcessBot(BotConnection):
    """Calls `handle(message)`; it returns the reply, or None for messages sent with send()."""

    def __init__(self, handle: Handler, limits: Limits) -> None:
        super().__init__(limits)
        self._handle = handle
        self._stderr = ""

    @classmethod
    def start(
        cls, handle: Handler, *, hello: Mapping[str, object], limits: Limits | None = None
    ) -> InProcessBot:
        """Wrap `handle` and have it answer `hello` within the start-up budget."""
        bot = cls(handle, limits or Limits())
        bot._handshake(hello, bot.limits.startup_s)
        return bot

    @property
    def stderr(self) -> str:
        return self._stderr

    def _deliver(self, line: bytes, timeout_s: float) -> None:
        if self._call(line, timeout_s) is not None:
            raise BotProtocolError("answered a message that expects no reply")

    def _exchange(self, line: bytes, timeout_s: float) -> bytes:
        reply = self._call(line, timeout_s)
        if reply is None:
            raise BotProtocolError("gave no reply")
        try:
            return json.dumps(reply, separators=(",", ":"), allow_nan=False).encode()
        except (TypeError, ValueError) as error:
            raise BotProtocolError(f"reply is not plain JSON: {error}") from None

    def _call(self, line: bytes, timeout_s: float) -> object:
        started = time.monotonic()
        try:
            reply: object = self._handle(json.loads(line))
        except Exception as error:
            self._stderr = traceback.format_exc()[-self.limits.stderr_bytes :]
            raise BotCrashed(f"raised {type(error).__name__}: {error}") from error
        if time.monotonic() - started > timeout_s:
            raise DeadlinePassed
        return reply

    def _stop(self) -> None:
        """Nothing runs between calls, so there is nothing to stop."""

    def _release(self) -> None:
        """A callable holds no host resources of the sandbox's."""
