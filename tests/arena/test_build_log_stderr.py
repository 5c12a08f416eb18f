"""A version's stderr reaches its owner's build log, whatever fault ended its validation.

Validation plays the version against itself (README "How the arena plays and rates"); the
bot's own words (a traceback above all) are what its owner needs to fix it, and nobody
else may read them.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from arena import services
from arena.models import BotVersion, Player
from arena.sandbox import GIB, MIB
from arena.services.bots import BUILD_LOG_STDERR_CHARS
from arena.tasks import bot_version_validate_task
from tests.arena.workers import require_sandbox

CRASH_AT_START = b"""import sys
print("loading the opening book", file=sys.stderr)
raise RuntimeError("no opening book at start-up")
"""

CRASH_IN_PLAY = b"""import sys

def act(observation, legal):
    print("thinking about", legal[0], file=sys.stderr)
    raise ValueError("lost count of the trumps")
"""

TIMEOUT = b"""import sys
import time

def act(observation, legal):
    print("starting a very long search", file=sys.stderr, flush=True)
    time.sleep(600)
    return legal[0]
"""

BAD_MESSAGE = b"""import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "id": 0, "protocol": 1}), flush=True)
    elif message["type"] == "act":
        print("about to answer in prose", file=sys.stderr, flush=True)
        print("I play the ace", flush=True)
"""

ILLEGAL_ACTION = b"""import sys

def act(observation, legal):
    print("bidding five, as always", file=sys.stderr)
    return "bid 5"
"""

ILLEGAL_CARD = b"""def act(observation, legal):
    if observation["phase"] == "throw_in":
        return "play-on"
    if observation["phase"] == "tricks" and len(observation["tricks"]) == 2:
        return next(f"play {r}{s}" for s in "SHDC" for r in "AKQJT9" if f"play {r}{s}" not in legal)
    return legal[0]
"""

MEMORY = b"""import sys

def act(observation, legal):
    print("building a table of every deal", file=sys.stderr, flush=True)
    table = bytearray(192 * 1024 * 1024)
    for index in range(0, len(table), 4096):
        table[index] = 1
    return legal[0]
"""

LONG_STORY = b"""import sys
sys.stderr.write("once upon a time " * 2000)
raise RuntimeError("and then it crashed")
"""

CHATTY_BUT_GOOD = b"""import sys
print("warming up the greedy heuristics", file=sys.stderr)

def act(observation, legal):
    return legal[0]
"""


def validated(owner: Player, source: bytes, name: str = "bot") -> BotVersion:
    bot = services.bot_create(owner=owner, name=name, variant="auction4")
    version = services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    bot_version_validate_task.apply(args=[version.pk])
    version.refresh_from_db()
    return version


@pytest.mark.parametrize(
    ("source", "kind", "words"),
    [
        (
            CRASH_AT_START,
            "crash",
            [
                "loading the opening book",
                "Traceback (most recent call last)",
                "RuntimeError: no opening book at start-up",
            ],
        ),
        (CRASH_IN_PLAY, "crash", ["thinking about", "ValueError: lost count of the trumps"]),
        (TIMEOUT, "timeout", ["starting a very long search"]),
        (BAD_MESSAGE, "protocol", ["about to answer in prose"]),
        (ILLEGAL_ACTION, "protocol", ["bidding five, as always"]),
    ],
    ids=["crash-at-start", "crash-in-play", "timeout", "bad-message", "illegal-action"],
)
def test_a_rejected_version_keeps_its_stderr_in_the_build_log(
    alice: Player, plain_bots: None, settings: Any, source: bytes, kind: str, words: list[str]
) -> None:
    if source is TIMEOUT:
        # A bot that sleeps for ten minutes misses any deadline; a short one keeps the test
        # short. The others keep the arena's, which they meet however busy the machine.
        settings.MATCH_DECISION_MS = 300
    version = validated(alice, source)
    assert version.status == BotVersion.Status.REJECTED
    assert f"validation failed: {kind}" in version.status_reason
    for text in words:
        assert text in version.build_log, version.build_log
    assert re.search(r"stderr of table A seat \d", version.build_log)


def test_a_version_killed_for_its_memory_keeps_its_stderr(alice: Player, settings: Any) -> None:
    require_sandbox()
    config = settings.SANDBOX_CONFIG
    memory = os.path.join(config.cgroup_root, "memory", config.cgroup_parent)
    if not os.path.isdir(memory):
        pytest.skip("no memory cgroup controller prepared on this host")
    settings.SANDBOX_MODE = "bubblewrap"
    # A generous address space, so that the cgroup, not RLIMIT_AS, is what stops it.
    limits = dataclasses.replace(config.limits, memory_bytes=64 * MIB, address_space_bytes=4 * GIB)
    settings.SANDBOX_CONFIG = dataclasses.replace(config, limits=limits)
    version = validated(alice, MEMORY)
    assert version.status == BotVersion.Status.REJECTED
    assert "validation failed: memory" in version.status_reason
    assert "building a table of every deal" in version.build_log


def test_a_long_stderr_is_cut_in_the_middle_saying_how_much(
    alice: Player, plain_bots: None
) -> None:
    version = validated(alice, LONG_STORY)
    assert version.status == BotVersion.Status.REJECTED
    log = version.build_log
    cut = re.search(r"\[(\d+) characters cut here\]", log)
    assert cut is not None, log
    written = len("once upon a time ") * 2000
    assert int(cut.group(1)) > written - BUILD_LOG_STDERR_CHARS
    assert "once upon a time" in log[: cut.start()]
    assert log.rstrip().endswith(
        "validation failed: crash at seat 0: exited with status 1 before answering"
    )
    assert "RuntimeError: and then it crashed" in log[cut.end() :]
    # Two sections at most (its traceback names the copy it ran from, one per table), each
    # cut to the limit.
    assert len(log) < 2 * (BUILD_LOG_STDERR_CHARS + 500)


def test_an_active_version_keeps_its_stderr_too(alice: Player, plain_bots: None) -> None:
    version = validated(alice, CHATTY_BUT_GOOD)
    assert version.status == BotVersion.Status.ACTIVE, version.build_log
    assert "warming up the greedy heuristics" in version.build_log
    # Eight processes (two tables of four seats) wrote the same line: it is shown once.
    assert version.build_log.count("warming up the greedy heuristics") == 1


def test_only_the_owner_reads_the_traceback(
    alice: Player,
    plain_bots: None,
    alice_client: APIClient,
    bob_client: APIClient,
    anonymous_client: APIClient,
) -> None:
    version = validated(alice, CRASH_AT_START)
    detail = f"/api/bots/{version.bot_id}/versions/{version.number}/"
    listing = f"/api/bots/{version.bot_id}/versions/"
    mine = alice_client.get(detail)
    assert mine.status_code == 200
    assert "no opening book at start-up" in mine.json()["build_log"]
    for client in (bob_client, anonymous_client):
        for url in (detail, listing):
            response = client.get(url)
            assert response.status_code == 200
            body = response.content.decode()
            assert "build_log" not in body
            assert "opening book" not in body
            assert "Traceback" not in body


def test_an_illegal_action_in_the_build_log_names_the_decision_and_what_was_legal(
    alice: Player, plain_bots: None
) -> None:
    version = validated(alice, ILLEGAL_CARD)
    assert version.status == BotVersion.Status.REJECTED
    named = re.fullmatch(
        r"validation failed: protocol at seat (\d): illegal action 'play (\w\w)' at board 1, "
        r"decision \d+ of the hand \((North|East|South|West), seat \1, to act in phase "
        r"tricks, trick 3\); legal: ((?:play \w\w)(?:, play \w\w)*)",
        version.status_reason,
    )
    assert named is not None, version.status_reason
    seat, card, compass, legal = named.groups()
    assert compass == ("North", "East", "South", "West")[int(seat)]
    assert f"play {card}" not in legal.split(", ")
    assert version.build_log.rstrip().endswith(version.status_reason)
