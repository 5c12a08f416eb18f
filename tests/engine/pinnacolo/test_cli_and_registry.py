"""``python -m engine play --variant pinnacolo`` and ``replay verify`` for Pinnacolo, and
the registry entries (RULES.md section 10)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.cli import main
from engine.pinnacolo import PinnacoloReplay, new_hand
from engine.registry import game_for


@pytest.mark.parametrize("variant", ["pinnacolo", "pinnacolo2", "pinnacolo3", "pinnacolo4"])
def test_play_runs_random_hands(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--variant", variant, "--hands", "2", "--seed", "5"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == variant and summary["hands"] == 2
    assert sum(summary["outcomes"].values()) == 2


def test_replay_verify_accepts_a_pinnacolo_replay_and_reports_a_changed_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = new_hand("pinnacolo3", seed=12, dealer=1)
    state.play_randomly(random.Random(12))
    data = PinnacoloReplay.from_state(state).to_json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    assert main(["replay", "verify", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    data["result"]["side_scores"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", "verify", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False


@pytest.mark.parametrize(("variant", "players"), [("pinnacolo", 4), ("pinnacolo2", 2)])
def test_the_registry_deals_pinnacolo(variant: str, players: int) -> None:
    spec = game_for(variant)
    assert spec.num_players == players
    state = spec.new_hand(variant, seed=3, dealer=0)
    assert state.current_player == 1
    assert len(state.observation(0)["hand"]) == 13
