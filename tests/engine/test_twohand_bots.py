"""The twohand reference bots speak the protocol through the SDK and play legal actions;
the greedy bot outscores the random one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bots.reference.twohand_greedy import TwoHandGreedyBot
from bots.reference.twohand_random import TwoHandRandomBot
from bots.sdk import Bot
from engine import rules_for
from engine.twohand import new_twohand_hand

ROOT = Path(__file__).resolve().parents[2]
RULES = rules_for("twohand").to_json()


def seated(bot: Bot, seat: int) -> Bot:
    hello = {"type": "hello", "id": 0, "protocol": 1, "game": "pinochle2", "variant": "twohand"}
    reply = bot.handle({**hello, "rules": RULES, "seat": seat, "players": 2})
    assert reply is not None and reply["type"] == "ready"
    return bot


def play_hand(bots: list[Bot], seed: int) -> tuple[int, ...]:
    state = new_twohand_hand("twohand", seed=seed, dealer=seed % 2)
    request = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        request += 1
        legal = [str(action) for action in state.legal_actions]
        message: dict[str, Any] = {
            "type": "act",
            "id": request,
            "observation": json.loads(json.dumps(state.observation(seat))),
            "legal": legal,
            "time_left_ms": 60000,
        }
        reply = bots[seat].handle(message)
        assert reply is not None and reply["id"] == request
        assert reply["action"] in legal
        state.apply(reply["action"])
    return state.result().seat_scores


def test_the_greedy_bot_outscores_the_random_bot_over_rotated_seats() -> None:
    greedy_total = random_total = 0
    for seed in range(60):
        greedy_seat = seed % 2
        bots: list[Bot] = [
            seated(TwoHandGreedyBot() if seat == greedy_seat else TwoHandRandomBot(), seat)
            for seat in range(2)
        ]
        scores = play_hand(bots, seed)
        greedy_total += scores[greedy_seat]
        random_total += sum(scores) - scores[greedy_seat]
    assert greedy_total / 60 > random_total / (60 * (2 - 1))


@pytest.mark.parametrize("module", ["twohand_greedy", "twohand_random"])
def test_a_reference_bot_runs_as_an_sdk_program(module: str) -> None:
    state = new_twohand_hand("twohand", seed=4, dealer=0)
    seat = state.current_player
    assert seat is not None
    legal = [str(action) for action in state.legal_actions]
    lines = [
        {
            "type": "hello",
            "id": 0,
            "protocol": 1,
            "game": "pinochle2",
            "variant": "twohand",
            "rules": RULES,
            "seat": seat,
            "players": 2,
        },
        {
            "type": "act",
            "id": 1,
            "observation": state.observation(seat),
            "legal": legal,
            "time_left_ms": 1000,
        },
        {"type": "bye"},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "bots.sdk", str(ROOT / "bots" / "reference" / f"{module}.py")],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    ready, action = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["type"] == "ready"
    assert action["id"] == 1 and action["action"] in legal
