"""The bot protocol, version 1: JSON objects, one per line, over stdin and stdout.

``bots/PROTOCOL.md`` is the full description with a worked transcript. This module builds
the host's messages and checks the bot's replies; the host side (arena) and the SDK (the
bot side) both use it, so the two cannot drift apart.

>>> act = act_message(request_id=3, board=1, observation={"phase": "auction"},
...                   legal=["bid 250", "pass"], time_left_ms=9000)
>>> read_action({"type": "action", "id": 3, "action": "PASS"}, request_id=3,
...             legal=["bid 250", "pass"])
'pass'
>>> read_action({"type": "action", "id": 3, "action": "bid 240"}, request_id=3,
...             legal=["bid 250", "pass"])
Traceback (most recent call last):
...
bots.protocol.ProtocolViolation: illegal action 'bid 240'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1024 * 1024
"""The longest line a bot may write (the host stops reading there: a protocol fault)."""

MESSAGE_TYPES = ("hello", "hand_start", "act", "event", "hand_end", "game_end", "bye")
"""Host-to-bot messages. Only ``hello`` and ``act`` expect a reply."""


class ProtocolViolation(ValueError):
    """A bot's reply broke the protocol; the message says how."""


@dataclass(frozen=True)
class TimeControl:
    """The clock a bot plays under, announced in ``hello``."""

    decision_ms: int
    bank_ms: int
    startup_ms: int

    def to_json(self) -> dict[str, int]:
        return {
            "decision_ms": self.decision_ms,
            "bank_ms": self.bank_ms,
            "startup_ms": self.startup_ms,
        }


def hello_message(
    *,
    game: str,
    variant: str,
    rules: Mapping[str, Any],
    seat: int,
    players: int,
    boards: int,
    time: TimeControl,
) -> dict[str, Any]:
    return {
        "type": "hello",
        "id": 0,
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "variant": variant,
        "rules": dict(rules),
        "seat": seat,
        "players": players,
        "boards": boards,
        "time": time.to_json(),
    }


def hand_start_message(*, board: int, dealer: int, seat: int, hand: list[str]) -> dict[str, Any]:
    return {"type": "hand_start", "board": board, "dealer": dealer, "seat": seat, "hand": hand}


def act_message(
    *,
    request_id: int,
    board: int,
    observation: Mapping[str, Any],
    legal: list[str],
    time_left_ms: int,
) -> dict[str, Any]:
    return {
        "type": "act",
        "id": request_id,
        "board": board,
        "observation": dict(observation),
        "legal": legal,
        "time_left_ms": time_left_ms,
    }


def event_message(*, board: int, seat: int, action: str) -> dict[str, Any]:
    return {"type": "event", "board": board, "seat": seat, "action": action}


def hand_end_message(*, board: int, result: Mapping[str, Any] | None, fault: Any) -> dict[str, Any]:
    return {"type": "hand_end", "board": board, "result": result, "fault": fault}


def game_end_message(*, scores: list[int]) -> dict[str, Any]:
    return {"type": "game_end", "scores": scores}


BYE: dict[str, Any] = {"type": "bye"}


def read_ready(reply: Mapping[str, Any]) -> str:
    """Check the answer to ``hello`` and return the bot's self-chosen name."""
    if reply.get("type") != "ready":
        raise ProtocolViolation(
            f"expected a 'ready' reply to hello, got type {reply.get('type')!r}"
        )
    if reply.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        raise ProtocolViolation(
            f"the bot speaks protocol {reply.get('protocol')!r}; "
            f"this host speaks {PROTOCOL_VERSION}"
        )
    name = reply.get("name", "")
    if not isinstance(name, str):
        raise ProtocolViolation("'name' in the ready reply must be a string")
    return name[:64]


def read_action(
    reply: Mapping[str, Any],
    *,
    request_id: int,
    legal: Collection[str],
    parse: Callable[[str], Action] = Action.parse,
) -> str:
    """Return the canonical text of the action a reply names, or raise ProtocolViolation.

    The action may be written in any case and with the cards of a ``give`` in any order;
    what counts is that it parses (with the game's ``parse``) and is among the legal actions.
    """
    if reply.get("type") != "action":
        raise ProtocolViolation(f"expected an 'action' reply, got type {reply.get('type')!r}")
    if reply.get("id") != request_id:
        raise ProtocolViolation(
            f"the reply answers request {reply.get('id')!r}, not the current {request_id}"
        )
    text = reply.get("action")
    if not isinstance(text, str):
        raise ProtocolViolation("'action' must be the action's text, e.g. \"play TS\"")
    try:
        canonical = str(parse(text))
    except ValueError as error:
        raise ProtocolViolation(f"unreadable action {text!r}: {error}") from None
    if canonical not in legal:
        raise ProtocolViolation(f"illegal action {text!r}")
    return canonical
