"""``python -m engine``: meld, legal, play and replay verify, run as a user would."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Replay, new_hand
from engine.cli import MAX_PLAY_HANDS
from engine.kernel import KERNEL


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_meld_prints_the_total_and_the_items() -> None:
    done = run(
        "meld",
        "--variant",
        "auction4",
        "--trump",
        "S",
        *["KS", "QS", "KH", "QH", "KD", "QD", "KC", "QC"],
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["total"] == 240
    assert {item["meld"] for item in output["items"]} == {
        "royal marriage",
        "marriage",
        "kings around",
        "queens around",
    }


def test_meld_on_the_double_deck() -> None:
    cards = ("AS AH AD AC " * 3).split()
    done = run("meld", "--variant", "double4", "--trump", "H", *cards)
    assert json.loads(done.stdout)["total"] == 150


def test_legal_prints_the_sorted_distinct_faces() -> None:
    done = run("legal", "--trump", "S", "--hand", "9H", "AH", "AH", "KS", "--trick", "QH", "TH")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"legal": ["AH"]}


def test_legal_takes_the_trick_parameters() -> None:
    base = ["legal", "--trump", "S", "--hand", "AS", "KS", "KD", "--trick", "AH", "TS"]
    assert json.loads(run(*base).stdout)["legal"] == ["AS", "KS"]
    assert json.loads(run(*base, "--overtrump").stdout)["legal"] == ["AS"]
    assert json.loads(run(*base, "--no-overtrump").stdout)["legal"] == ["AS", "KS"]
    lead = ["legal", "--trump", "S", "--hand", "AH", "9H", "--trick", "QH", "TH"]
    assert json.loads(run(*lead, "--must-head", "trump_led_only").stdout)["legal"] == ["AH", "9H"]
    assert json.loads(run(*lead, "--must-head", "always").stdout)["legal"] == ["AH"]
    void = ["legal", "--trump", "S", "--hand", "9S", "KD", "--trick", "AH", "TS"]
    assert json.loads(run(*void, "--must-trump", "only_if_winning").stdout)["legal"] == ["9S", "KD"]


def test_play_runs_random_hands_and_reports_the_speed() -> None:
    done = run("play", "--variant", "double4", "--hands", "50", "--seed", "3")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["hands"] == 50
    assert summary["hands_per_second"] > 0
    assert sum(summary["outcomes"].values()) == 50


def test_play_is_reproducible_from_its_seed() -> None:
    first = json.loads(run("play", "--variant", "single4", "--hands", "20", "--seed", "9").stdout)
    again = json.loads(run("play", "--variant", "single4", "--hands", "20", "--seed", "9").stdout)
    assert first["mean_team_scores"] == again["mean_team_scores"]


def write_replay(tmp_path: Path, tamper: bool) -> Path:
    state = new_hand("single4", seed=12)
    state.play_randomly(random.Random(12))
    data = Replay.from_state(state).to_json()
    if tamper:
        data["result"]["team_scores"][0] += 1
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data))
    return path


def test_replay_verify_exits_0_when_the_replay_reproduces(tmp_path: Path) -> None:
    done = run("replay", "verify", str(write_replay(tmp_path, tamper=False)))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True


def test_replay_verify_exits_1_with_the_first_difference(tmp_path: Path) -> None:
    done = run("replay", "verify", str(write_replay(tmp_path, tamper=True)))
    assert done.returncode == 1
    assert json.loads(done.stdout)["path"] == "result.team_scores[0]"


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["meld", "--variant", "single5", "--trump", "S", "AS"],
        ["meld", "--variant", "single4", "--trump", "X", "AS"],
        ["meld", "--variant", "single4", "--trump", "S", "ZZ"],
        ["meld", "--variant", "single4", "--trump", "S", "AS", "AS", "AS"],
        # RULES.md section 1: the double deck has no nines.
        ["meld", "--variant", "double4", "--trump", "S", "9S", "9S"],
        ["meld", "--variant", "double4", "--trump", "S", *["AS"] * 5],
        # No pinochle pack holds six aces of spades.
        ["legal", "--trump", "S", "--hand", *["AS"] * 6],
        ["legal", "--trump", "S", "--hand", "9H", "9H", "--trick", "9H"],
        ["legal", "--trump", "S"],
        ["legal", "--trump", "S", "--hand", "AS", "--must-head", "sometimes"],
        ["legal", "--trump", "S", "--hand", "AS", "--trick", "KH", "KH", "KH", "KH"],
        ["play", "--variant", "single4", "--hands", "0", "--seed", "1"],
        ["play", "--variant", "single4", "--hands", "2", "--seed", "-1"],
        ["play", "--variant", "single4", "--hands", str(10**12), "--seed", "1"],
        ["play", "--variant", "single4", "--hands", str(MAX_PLAY_HANDS + 1), "--seed", "1"],
        ["replay", "verify", "/nonexistent/replay.json"],
        ["frobnicate"],
    ],
)
def test_bad_arguments_exit_2_with_a_one_line_message(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_file_that_is_not_a_replay_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something else"}')
    done = run("replay", "verify", str(path))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 200_000 + b"]" * 200_000, "nests at most"),
        (b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, "nests at most"),
        (b'{"format": "pinochle-arena/hand-replay", "seed": "\xff\xfe"}', "not UTF-8"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "not JSON"),
    ],
    ids=["deep-lists", "deep-objects", "latin1-in-a-string", "bad-first-bytes", "huge-number"],
)
def test_replay_verify_refuses_a_deep_or_non_utf8_file_with_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "replay.json"
    path.write_bytes(content)
    done = run("replay", "verify", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr and "Traceback" not in done.stderr


def test_replay_verify_reports_an_unreadable_action_as_the_first_difference(
    tmp_path: Path,
) -> None:
    data = Replay.from_state(new_hand("auction4", seed=2)).to_json()
    data["actions"] = ["bid \u00b2"]
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data))
    done = run("replay", "verify", str(path))
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["path"] == "actions[0]"


def test_info_says_whether_the_kernel_is_used() -> None:
    done = run("info")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    # "loaded", or why not: "not built (make engine-kernel: ...)", "stale: ...".
    assert isinstance(info["kernel"], str) and info["kernel"]
    # Every pinochle game's presets, two-hand's too, and Pinnacolo's, where the kernel runs.
    played = ["auction4", "cutthroat3", "double4", "pinnacolo", "pinnacolo2", "pinnacolo3"]
    played += ["pinnacolo4", "single4", "twohand"]
    assert sorted(info["kernel_variants"]) == (played if KERNEL is not None else [])


@pytest.mark.parametrize(
    ("variant", "hands"), [("single4", 40), ("cutthroat3", 40), ("twohand", 40), ("pinnacolo", 8)]
)
def test_play_gives_the_same_hands_with_the_kernel_and_without(variant: str, hands: int) -> None:
    """The C kernel, where built, plays the very hands of the pure engine: the summaries
    differ in their timings and their ``kernel`` flag alone."""
    args = ["play", "--variant", variant, "--hands", str(hands), "--seed", "5"]
    with_kernel = json.loads(run(*args).stdout)
    pure = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "ENGINE_KERNEL": "off"},
    )
    without = json.loads(pure.stdout)
    assert without["kernel"] is False
    assert with_kernel["kernel"] is (KERNEL is not None)
    timings = ("seconds", "cpu_seconds", "hands_per_second", "kernel")
    for summary in (with_kernel, without):
        for key in timings:
            del summary[key]
    assert with_kernel == without
