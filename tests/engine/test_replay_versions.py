"""One replay format for every game (RULES.md section 10): version 2 is written, and the
two version-1 formats (pinochle hands, Pinnacolo hands) are migrated when read."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import ReplayError
from engine.interface import AnyState
from engine.pinnacolo import PinnacoloReplay
from engine.pinnacolo import new_hand as new_pinnacolo_hand
from engine.registry import load_game
from engine.replay import REPLAY_FORMAT, REPLAY_VERSION, Replay, migrate_replay, read_replay
from tests.engine.toy_highcard import registered_toy

LEGACY = {
    "pinochle": "pinochle-arena/hand-replay",
    "pinnacolo": "pinochle-arena/pinnacolo-replay",
}


def played(variant: str, seed: int) -> dict[str, object]:
    game = load_game(variant)
    state = game.new_initial_state(seed=seed, dealer=game.board_dealer(seed + 1))
    state.play_randomly(random.Random(seed))
    document: dict[str, object] = game.write_replay(state).to_json()
    return document


def as_version_1(document: dict[str, object]) -> dict[str, object]:
    """The same hand as version 1 wrote it: the fields were the same, the name its own."""
    family = "pinnacolo" if str(document["variant"]).startswith("pinnacolo") else "pinochle"
    return {**document, "format": LEGACY[family], "version": 1}


VARIANTS = ["single4", "double4", "cutthroat3", "twohand", "pinnacolo", "pinnacolo2"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_game_writes_the_one_format(variant: str) -> None:
    document = played(variant, seed=4)
    assert (document["format"], document["version"]) == (REPLAY_FORMAT, REPLAY_VERSION)
    assert read_replay(json.dumps(document)).verify() is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_version_1_replay_of_every_game_still_verifies(variant: str) -> None:
    old = as_version_1(played(variant, seed=9))
    replay = read_replay(old)
    assert replay.verify() is None
    assert replay.to_json()["format"] == REPLAY_FORMAT


def test_a_version_1_replay_with_a_changed_score_is_still_caught() -> None:
    old = as_version_1(played("auction4", seed=2))
    result = dict(old["result"])  # type: ignore[call-overload]
    result["team_scores"] = [9999, 0]
    difference = read_replay({**old, "result": result}).verify()
    assert difference is not None and difference.path == "result.team_scores[0]"


def test_each_reader_refuses_the_other_family_and_unknown_versions() -> None:
    pinochle, pinnacolo = played("single4", seed=1), played("pinnacolo3", seed=1)
    with pytest.raises(ReplayError, match="not of Pinnacolo"):
        PinnacoloReplay.from_json(pinochle)
    with pytest.raises(ReplayError, match="not of a pinochle game"):
        Replay.from_json(pinnacolo)
    with pytest.raises(ReplayError, match="unsupported replay version 3"):
        migrate_replay({**pinochle, "version": 3})
    with pytest.raises(ReplayError, match="unsupported replay version 2"):
        migrate_replay({**as_version_1(pinochle), "version": 2})
    with pytest.raises(ReplayError, match="format is 'chess'"):
        read_replay({**pinochle, "format": "chess"})


def test_the_command_line_verifies_a_version_1_pinnacolo_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = new_pinnacolo_hand("pinnacolo2", seed=6)
    state.play_randomly(random.Random(6))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(as_version_1(PinnacoloReplay.from_state(state).to_json())))
    assert main(["replay", "verify", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def play_out(state: AnyState, seed: int) -> None:
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions
        state.apply(legal[rng.randrange(len(legal))])


def test_a_game_with_no_replay_code_writes_and_reads_the_one_format() -> None:
    # The toy declares no replay: the base game replays its hands from their seeds.
    with registered_toy():
        game = load_game("highcard")
        state = game.new_initial_state(seed=12, dealer=1)
        play_out(state, seed=12)
        document = game.write_replay(state).to_json()
        assert (document["format"], document["game"], document["seed"]) == (
            REPLAY_FORMAT,
            "toy",
            12,
        )
        replay = read_replay(json.dumps(document))
        assert replay.verify() is None and replay.simulate().result() == state.result()
        assert replay.to_json() == document
        changed = read_replay({**document, "result": {"team_scores": [9, 9]}}).verify()
        assert changed is not None and changed.path.startswith("result.team_scores")
        with pytest.raises(ReplayError, match="dealt from its seed"):
            game.read_replay({**document, "deal": {"hands": ["9H"]}})
        with pytest.raises(ReplayError, match="not of 'toy'"):
            game.read_replay(played("single4", seed=1))
        # Each hand of a game to its target is replayed the same way.
        match = game.new_target_game(seed=5, max_hands=2)
        play_out(match, seed=5)
        assert all(hand.verify() is None for hand in match.replays)
