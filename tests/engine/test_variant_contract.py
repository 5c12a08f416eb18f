"""The contract every registered variant keeps (RULES.md section 10), whatever its game:
the public path (``legal_actions``, ``apply``, ``observation``, ``result``), replays, and
``python -m engine play`` and ``replay verify`` run as a user would.

A game registered in ``engine.registry`` is covered here without a test file of its own.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.registry import load_game, variant_names
from engine.replay import HandReplay
from engine.state import State

VARIANTS = sorted(variant_names())
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def deal(variant: str, seed: int, dealer: int = 0) -> Any:
    return load_game(variant).new_initial_state(seed=seed, dealer=dealer)


def play_out(state: Any, seed: int) -> list[str]:
    """Play ``state`` to its end through the public path, checking it at every step."""
    choices = random.Random(seed)
    played = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = list(state.legal_actions)
        assert legal and len(state.legal_actions) == len(legal)
        action = choices.choice(legal)
        assert action in state.legal_actions
        json.dumps(state.observation(seat))
        state.apply(action)
        played.append(str(action))
    assert state.current_player is None
    return played


def replay_of(variant: str, state: Any) -> HandReplay[Any]:
    return load_game(variant).write_replay(state)


def scores(result: Mapping[str, Any]) -> list[int]:
    """The per-side scores of a hand's result (per team, per seat or per pair)."""
    return list(result["team_scores"] if "team_scores" in result else result["side_scores"])


def first_number(document: Any, path: str) -> tuple[str, Any, Any] | None:
    """``(path, container, key)`` of the first integer leaf of ``document``."""
    items = (
        document.items()
        if isinstance(document, dict)
        else enumerate(document)
        if isinstance(document, list)
        else ()
    )
    for key, value in items:
        where = f"{path}.{key}" if isinstance(document, dict) else f"{path}[{key}]"
        if isinstance(value, int) and not isinstance(value, bool):
            return where, document, key
        found = first_number(value, where)
        if found:
            return found
    return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hand_is_the_same_deal_from_the_same_seed(variant: str) -> None:
    first, again = deal(variant, seed=11, dealer=1), deal(variant, seed=11, dealer=1)
    assert first.current_player == again.current_player
    for seat in range(first.num_players):
        assert first.observation(seat) == again.observation(seat)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_random_hand_through_the_public_path_ends_with_a_json_result(variant: str) -> None:
    state: State[Any, Any] = deal(variant, seed=5)
    play_out(state, seed=5)
    result = state.result().to_json()
    json.dumps(result)
    assert len(scores(result)) >= 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_copy_is_independent_of_the_original(variant: str) -> None:
    state = deal(variant, seed=8)
    before = state.observation(0)
    copy = state.copy()
    play_out(copy, seed=8)
    assert state.observation(0) == before and not state.is_terminal()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_replay_reproduces_the_hand_and_survives_json(variant: str) -> None:
    state = deal(variant, seed=21, dealer=1)
    play_out(state, seed=21)
    replay = replay_of(variant, state)
    again = type(replay).from_json(json.loads(json.dumps(replay.to_json())))
    assert again.verify() is None
    assert again.actions == replay.actions


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_runs_random_hands_with_a_score_per_side(variant: str) -> None:
    done = run("play", "--variant", variant, "--hands", "6", "--seed", "3")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["variant"] == variant and summary["hands"] == 6
    assert summary["hands_per_second"] > 0 and sum(summary["outcomes"].values()) == 6
    state = deal(variant, seed=3)
    play_out(state, seed=3)
    assert len(summary["mean_team_scores"]) == len(scores(state.result().to_json()))


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_verify_accepts_a_replay_and_names_the_first_changed_score(
    variant: str, tmp_path: Path
) -> None:
    state = deal(variant, seed=12, dealer=1)
    play_out(state, seed=12)
    data = replay_of(variant, state).to_json()
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data))
    done = run("replay", "verify", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    found = first_number(data["result"], "result")
    assert found is not None
    where, container, key = found
    container[key] += 10
    path.write_text(json.dumps(data))
    done = run("replay", "verify", str(path))
    assert done.returncode == 1, done.stderr
    output = json.loads(done.stdout)
    assert output["ok"] is False and output["path"] == where
