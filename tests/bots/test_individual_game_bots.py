"""The three- and two-hand reference bots speak the protocol through the SDK, play only
legal actions, and the greedy bot outscores the random one over rotated seats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bots.reference import reference_bots
from bots.sdk import Bot, bot_from_module, load_module
from engine.interface import AnyGame
from engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ["cutthroat3", "twohand"]


def hello(game: AnyGame, seat: int) -> dict[str, Any]:
    rules = game.rules_for(None)
    return {
        "type": "hello",
        "id": 0,
        "protocol": 1,
        "game": rules.game,
        "variant": game.variant,
        "rules": rules.to_json(),
        "seat": seat,
        "players": game.players,
    }


def reference(game: AnyGame, name: str) -> Bot:
    bot = bot_from_module(load_module(reference_bots(game)[name]))
    assert bot is not None
    return bot


def play_hand(game: AnyGame, bots: list[Bot], seed: int) -> tuple[int, ...]:
    state = game.with_rules(game.rules_for(None)).new_initial_state(
        seed=seed, dealer=seed % game.players
    )
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
    return tuple(state.result().seat_scores)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_greedy_bot_outscores_the_random_bot_over_rotated_seats(variant: str) -> None:
    game = load_game(variant)
    greedy_total = random_total = 0
    hands = 60
    for seed in range(hands):
        greedy_seat = seed % game.players
        bots = []
        for seat in range(game.players):
            bot = reference(game, "greedy" if seat == greedy_seat else "random")
            assert bot.handle(hello(game, seat)) is not None
            bots.append(bot)
        scores = play_hand(game, bots, seed)
        greedy_total += scores[greedy_seat]
        random_total += sum(scores) - scores[greedy_seat]
    assert greedy_total / hands > random_total / (hands * (game.players - 1))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["greedy", "random"])
def test_a_reference_bot_runs_as_an_sdk_program(variant: str, name: str) -> None:
    game = load_game(variant)
    state = game.with_rules(game.rules_for(None)).new_initial_state(seed=4, dealer=0)
    seat = state.current_player
    assert seat is not None
    legal = [str(action) for action in state.legal_actions]
    lines = [
        hello(game, seat),
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
        [sys.executable, "-m", "bots.sdk", str(reference_bots(game)[name])],
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
