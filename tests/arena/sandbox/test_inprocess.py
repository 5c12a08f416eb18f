"""Trusted bots as callables: the same interface and rules as bots in processes."""

from __future__ import annotations

import time

import pytest

from arena.sandbox import (
    BotCrashed,
    BotProtocolError,
    BotTimeout,
    InProcessBot,
    Limits,
)

HELLO = {"id": 0, "type": "hello"}


def echo(message: dict[str, object]) -> dict[str, object] | None:
    if message.get("type") == "notice":
        return None
    return {"id": message.get("id"), "echo": message}


def test_it_answers_requests_through_json() -> None:
    with InProcessBot.start(echo, hello=HELLO) as bot:
        assert bot.hello_reply == {"id": 0, "echo": HELLO}
        payload = {"id": 1, "cards": ["AS", "10H"], "nested": {"trump": "S"}}
        reply = bot.request(payload)
        assert reply == {"id": 1, "echo": payload}
        assert reply["echo"] is not payload
        bot.send({"type": "notice"})


def test_a_late_reply_is_a_timeout_charged_to_the_bank() -> None:
    def slow(message: dict[str, object]) -> dict[str, object]:
        time.sleep(0.05)
        return {"id": message.get("id")}

    bot = InProcessBot(slow, Limits(time_bank_s=10.0))
    with pytest.raises(BotTimeout, match=r"0\.01 s deadline"):
        bot.request({"id": 1}, deadline_s=0.01)
    assert bot.time_bank_remaining <= 10.0 - 0.05


def test_an_exception_is_a_crash_with_the_traceback() -> None:
    def broken(message: dict[str, object]) -> dict[str, object]:
        raise KeyError("trump")

    bot = InProcessBot(broken, Limits())
    with pytest.raises(BotCrashed, match="raised KeyError") as caught:
        bot.request({"id": 1})
    assert "Traceback" in caught.value.stderr


@pytest.mark.parametrize(
    ("reply", "complaint"),
    [
        (None, "gave no reply"),
        ([1, 2], "not an object"),
        ({"id": 1, "x": float("nan")}, "not plain JSON"),
        ({"id": 1, "x": object()}, "not plain JSON"),
        ({"id": 2}, "does not match"),
    ],
)
def test_bad_replies_are_protocol_faults(reply: object, complaint: str) -> None:
    bot = InProcessBot(lambda message: reply, Limits())  # type: ignore[arg-type, return-value]
    with pytest.raises(BotProtocolError, match=complaint):
        bot.request({"id": 1})


def test_answering_a_notice_is_a_protocol_fault() -> None:
    bot = InProcessBot(lambda message: {"id": None}, Limits())
    with pytest.raises(BotProtocolError, match="expects no reply"):
        bot.send({"type": "notice"})


def test_a_closed_bot_refuses_requests() -> None:
    bot = InProcessBot(echo, Limits())
    bot.close()
    with pytest.raises(RuntimeError, match="closed"):
        bot.request({"id": 1})
