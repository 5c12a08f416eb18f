"""Run SDK bots in this process, behind the same interface as a sandboxed bot.

Messages still go through JSON both ways, so a bot that works here gets exactly the
messages it will get in the arena. Nothing is enforced: a local bot cannot be interrupted,
and the local runner is for trying bots, not for judging them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from bots.sdk import Bot
from bots.table import SeatFault


class LocalAgent:
    """An SDK bot object as a seat at a :class:`bots.table.Table`."""

    def __init__(self, bot: Bot, *, bank_s: float = 600.0) -> None:
        self.bot = bot
        self._full_bank_s = bank_s
        self._bank_s = bank_s

    @property
    def time_bank_remaining(self) -> float:
        return max(self._bank_s, 0.0)

    def start(self, hello: Mapping[str, Any]) -> dict[str, Any]:
        """Answer ``hello``; the bank it announces (``time.bank_ms``) is the board's."""
        clock = hello.get("time")
        if isinstance(clock, Mapping) and isinstance(clock.get("bank_ms"), int):
            self._full_bank_s = self._bank_s = clock["bank_ms"] / 1000
        return self.request(hello)

    def request(
        self, message: Mapping[str, object], deadline_s: float | None = None
    ) -> dict[str, object]:
        started = time.perf_counter()
        reply = self.bot.handle(json.loads(json.dumps(message)))
        # The bank runs down as in the arena, so bots that budget their time see it move;
        # nothing is enforced here.
        self._bank_s -= time.perf_counter() - started
        if reply is None:
            raise SeatFault(f"gave no reply to {message.get('type')!r}")
        try:
            decoded: dict[str, object] = json.loads(json.dumps(reply))
        except (TypeError, ValueError) as error:
            raise SeatFault(f"reply is not plain JSON: {error}") from None
        return decoded

    def send(self, message: Mapping[str, object]) -> None:
        if message.get("type") == "hand_start":
            # As in the arena, every board starts with a full bank.
            self._bank_s = self._full_bank_s
        if self.bot.handle(json.loads(json.dumps(message))) is not None:
            raise SeatFault(f"answered {message.get('type')!r}, which expects no reply")
