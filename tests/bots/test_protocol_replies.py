"""The host checks every reply against the protocol (bots/PROTOCOL.md, "Faults")."""

from __future__ import annotations

import pytest

from bots.protocol import PROTOCOL_VERSION, ProtocolViolation, read_action, read_ready

LEGAL = {"play AS", "play 9S", "give AS QS JD"}


def reply(action: object, request_id: object = 7, kind: str = "action") -> dict[str, object]:
    return {"type": kind, "id": request_id, "action": action}


def test_an_action_is_read_in_any_case_and_card_order() -> None:
    assert read_action(reply("PLAY as"), request_id=7, legal=LEGAL) == "play AS"
    assert read_action(reply("give JD AS QS"), request_id=7, legal=LEGAL) == "give AS QS JD"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (reply("play AS", request_id=6), "answers request 6"),
        (reply("play AS", kind="ready"), "expected an 'action'"),
        (reply(42), "must be the action's text"),
        (reply("dance"), "unreadable action"),
        (reply("play KS"), "illegal action"),
        ({"type": "action", "id": 7}, "must be the action's text"),
    ],
)
def test_a_bad_reply_is_a_protocol_violation_naming_the_problem(
    bad: dict[str, object], message: str
) -> None:
    with pytest.raises(ProtocolViolation, match=message):
        read_action(bad, request_id=7, legal=LEGAL)


def test_ready_must_speak_this_protocol_version() -> None:
    assert read_ready({"type": "ready", "id": 0, "protocol": PROTOCOL_VERSION, "name": "x"}) == "x"
    with pytest.raises(ProtocolViolation, match="speaks protocol 2"):
        read_ready({"type": "ready", "id": 0, "protocol": 2})
    with pytest.raises(ProtocolViolation, match="expected a 'ready'"):
        read_ready({"type": "action", "id": 0})
