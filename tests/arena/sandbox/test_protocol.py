"""Deadlines, the time bank, start-up and protocol abuse, for sandboxed and plain bots.

The rules live in the transport both kinds share, so every case runs against both.
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from arena.sandbox import (
    BotConnection,
    BotCrashed,
    BotFault,
    BotProtocolError,
    BotTimeout,
    SandboxConfig,
)
from tests.arena.sandbox.conftest import start

KINDS = ["plain", "sandbox"]


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def misbehaving(kind: str, config: SandboxConfig) -> BotConnection:
    return start(kind, config, "misbehave.py")


def ask(
    bot: BotConnection, do: str, deadline_s: float | None = None, **args: object
) -> dict[str, object]:
    return bot.request({"id": 1, "do": do, "args": args}, deadline_s=deadline_s)


def test_a_bot_that_sleeps_times_out_at_the_deadline(kind: str, config: SandboxConfig) -> None:
    with misbehaving(kind, config) as bot:
        started = time.monotonic()
        with pytest.raises(BotTimeout, match=r"no reply within the 0\.3 s deadline"):
            ask(bot, "sleep", deadline_s=0.3, seconds=30)
        # It waited for the deadline, not for the bot: however loaded the machine, stopping
        # a bot takes less than the half minute the bot meant to sleep.
        assert 0.3 <= time.monotonic() - started < 30


def test_a_slow_bot_runs_out_of_time_bank(kind: str, config: SandboxConfig) -> None:
    banked = dataclasses.replace(config, limits=dataclasses.replace(config.limits, time_bank_s=2.0))
    with misbehaving(kind, banked) as bot:
        # One slow answer within the bank (0.8 s to spare for a busy machine), charged in
        # full; then a bot that would sleep for a minute meets the bank, not the deadline.
        ask(bot, "sleep", deadline_s=60, seconds=1.2)
        assert bot.time_bank_remaining <= 0.8
        with pytest.raises(BotTimeout, match="time bank of 2 s used up"):
            ask(bot, "sleep", deadline_s=60, seconds=60)


def test_the_time_bank_can_be_refilled_for_the_next_game(kind: str, config: SandboxConfig) -> None:
    with misbehaving(kind, config) as bot:
        ask(bot, "sleep", seconds=0.05)
        assert bot.last_elapsed_s >= 0.05
        assert bot.time_bank_remaining == config.limits.time_bank_s - bot.last_elapsed_s
        bot.reset_time_bank()
        assert bot.time_bank_remaining == config.limits.time_bank_s


def test_a_bot_slow_to_start_misses_the_start_up_budget(kind: str, config: SandboxConfig) -> None:
    # Long enough for the sandbox itself to come up on a very busy machine (it takes tens
    # of milliseconds): the bot, which sleeps for a minute, is late.
    hurried = dataclasses.replace(config, limits=dataclasses.replace(config.limits, startup_s=5.0))
    started = time.monotonic()
    with pytest.raises(BotTimeout, match="first message"):
        start(kind, hurried, "misbehave.py", argv=["--slow-start", "60"])
    assert time.monotonic() - started < 60


def test_a_huge_line_without_newline_is_refused(kind: str, config: SandboxConfig) -> None:
    with (
        misbehaving(kind, config) as bot,
        pytest.raises(BotProtocolError, match="longer than 1048576 bytes"),
    ):
        ask(bot, "huge_line", size=3 * config.limits.line_bytes)


def test_an_output_flood_is_a_protocol_fault(kind: str, config: SandboxConfig) -> None:
    with misbehaving(kind, config) as bot, pytest.raises(BotProtocolError, match="does not match"):
        ask(bot, "flood_stdout")


def test_a_stderr_flood_is_cut_in_the_middle_keeping_its_last_words(
    kind: str, config: SandboxConfig
) -> None:
    size = 4 * 1024 * 1024
    last = "Traceback (most recent call last): the last words\n"
    with misbehaving(kind, config) as bot:
        assert ask(bot, "flood_stderr", size=size, last=last)["ok"]
        text = bot.stderr
    assert len(text) < config.limits.stderr_bytes + 100
    assert text.startswith("e" * 1000)
    assert text.endswith(last)
    written = (size // 65537 + 1) * 65537 + len(last)
    cut = written - config.limits.stderr_bytes
    assert f"[{cut} bytes of stderr cut here]" in text


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("this is not json", "not valid JSON"),
        ("[1, 2, 3]", "a JSON list, not an object"),
        ('{"id": 1, "value": NaN}', "not valid JSON"),
        ("[" * 100_000, "nests too deeply|not valid JSON"),
        ('{"id": 1, "x": "\\udcff"}', "not valid Unicode"),
    ],
    ids=["garbage", "not-an-object", "nan", "deep-nesting", "lone-surrogate"],
)
def test_malformed_replies_are_protocol_faults(
    kind: str, config: SandboxConfig, text: str, complaint: str
) -> None:
    with misbehaving(kind, config) as bot, pytest.raises(BotProtocolError, match=complaint):
        ask(bot, "raw", text=text)


@pytest.mark.parametrize("reply_id", [2, None, "1"])
def test_a_reply_to_another_request_is_a_protocol_fault(
    kind: str, config: SandboxConfig, reply_id: object
) -> None:
    with (
        misbehaving(kind, config) as bot,
        pytest.raises(BotProtocolError, match="does not match request id 1"),
    ):
        ask(bot, "answer_as", reply_id=reply_id)


def test_answering_a_message_that_expects_none_is_a_protocol_fault(
    kind: str, config: SandboxConfig
) -> None:
    with misbehaving(kind, config) as bot:
        bot.send({"id": 5, "do": "sleep", "args": {"seconds": 0}})
        # The bot answers in order, so its unasked reply comes before any other: seen
        # waiting before the next request, or read in place of that request's answer.
        with pytest.raises(BotProtocolError, match=r"answers no request|does not match request"):
            ask(bot, "sleep", seconds=0)


def test_closing_stdout_early_is_a_crash_or_a_timeout(kind: str, config: SandboxConfig) -> None:
    # In the sandbox bubblewrap's own processes still hold the pipe, so the host sees
    # silence, not end of file: the deadline names the fault.
    expected = (BotCrashed, "closed its output") if kind == "plain" else (BotTimeout, "deadline")
    with misbehaving(kind, config) as bot, pytest.raises(expected[0], match=expected[1]):
        ask(bot, "close_stdout", deadline_s=0.5)


def test_exiting_is_a_crash_with_the_status(kind: str, config: SandboxConfig) -> None:
    with misbehaving(kind, config) as bot, pytest.raises(BotCrashed, match="exited with status 3"):
        ask(bot, "exit_with", status=3)


def test_after_a_fault_the_bot_stays_faulted(kind: str, config: SandboxConfig) -> None:
    with misbehaving(kind, config) as bot:
        with pytest.raises(BotProtocolError) as first:
            ask(bot, "raw", text="garbage")
        with pytest.raises(BotFault) as second:
            ask(bot, "sleep", seconds=0)
        assert second.value is first.value
        assert bot.fault is first.value


def test_a_well_behaved_bot_answers_many_requests(kind: str, config: SandboxConfig) -> None:
    with misbehaving(kind, config) as bot:
        assert bot.hello_reply == {"ready": True, "id": 0}
        for number in range(1, 200):
            reply = bot.request({"id": number, "do": "sleep", "args": {"seconds": 0}})
            assert reply == {"ok": True, "id": number}
