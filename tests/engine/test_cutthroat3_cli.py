"""``python -m engine play`` and ``replay verify`` on ``cutthroat3``, run as a user would."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from engine import Replay
from engine.cutthroat import new_cutthroat_hand


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_play_runs_random_cutthroat3_hands_with_a_score_per_seat() -> None:
    done = run("play", "--variant", "cutthroat3", "--hands", "40", "--seed", "3")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["hands"] == 40 and summary["hands_per_second"] > 0
    assert len(summary["mean_team_scores"]) == 3


def test_replay_verify_checks_a_cutthroat3_replay(tmp_path: Path) -> None:
    state = new_cutthroat_hand("cutthroat3", seed=12, dealer=1)
    state.play_randomly(random.Random(12))
    data = Replay.from_state(state).to_json()
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data))
    done = run("replay", "verify", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    data["result"]["team_scores"][1] += 10
    path.write_text(json.dumps(data))
    done = run("replay", "verify", str(path))
    assert done.returncode == 1
    assert json.loads(done.stdout)["path"] == "result.team_scores[1]"
