"""Replays (RULES.md section 10) and games to the target (section 5)."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    GameState,
    HandOutcome,
    IllegalActionError,
    Phase,
    Replay,
    ReplayError,
    hand_seed,
    new_hand,
    rules_for,
)

from .helpers import deal, play_out_first_legal


def finished_hand(variant: str = "auction4", seed: int = 8) -> Replay:
    state = new_hand(variant, seed=seed, dealer=2)
    state.play_randomly(random.Random(seed), throw_in_rate=0.5)
    return Replay.from_state(state)


def test_10_a_replay_is_versioned_json_with_rules_seed_dealer_actions_and_result() -> None:
    data = json.loads(finished_hand().dumps())
    assert data["format"] == "pinochle-arena/replay"
    assert data["version"] == 2
    assert data["generator"] == "splitmix64-fy-v1"
    assert (data["variant"], data["seed"], data["dealer"]) == ("auction4", 8, 2)
    assert data["actions"][0].split()[0] in ("bid", "pass", "pass-help")
    assert data["result"]["team_scores"] == [team["score"] for team in data["result"]["teams"]]


def test_10_re_simulating_a_replay_reproduces_every_score() -> None:
    replay = finished_hand()
    assert Replay.from_json(replay.dumps()).verify() is None


def test_10_verify_returns_the_first_difference_in_the_result() -> None:
    data = finished_hand().to_json()
    data["result"]["teams"][1]["score"] += 10
    difference = Replay.from_json(data).verify()
    assert difference is not None
    assert difference.path == "result.teams[1].score"


def test_10_verify_reports_an_illegal_action_by_its_index() -> None:
    data = finished_hand().to_json()
    data["actions"][-1] = "play 9Z"
    difference = Replay.from_json(data).verify()
    assert difference is not None and difference.path == f"actions[{len(data['actions']) - 1}]"


def test_10_a_replay_of_a_hand_dealt_by_hand_stores_the_deal() -> None:
    state = play_out_first_legal(deal("single4", {0: "AS AS TS TS KS KS QS QS JS JS 9S 9S"}))
    replay = Replay.from_state(state)
    assert replay.seed is None and replay.deal is not None
    assert Replay.from_json(replay.dumps()).verify() is None


def test_10_the_rules_travel_with_the_replay() -> None:
    rules = rules_for("single4", {"target": 99, "must_head": "always"})
    state = new_hand("single4", seed=4, rules=rules)
    state.play_randomly(random.Random(4))
    replay = Replay.from_json(Replay.from_state(state).dumps())
    assert replay.rules == rules
    assert replay.verify() is None


@pytest.mark.parametrize(
    "change",
    [
        {"format": "other"},
        {"version": 3},
        {"generator": "mt19937"},
        {"rules": {"name": "x"}},
        {"seed": None},
        {"actions": "bid 250"},
    ],
)
def test_a_malformed_replay_is_refused(change: dict[str, object]) -> None:
    data = finished_hand().to_json()
    data.update(change)
    with pytest.raises(ReplayError):
        Replay.from_json(data)


def pass_when_allowed(game: GameState, rng: random.Random) -> None:
    while not game.is_terminal():
        legal = game.legal_actions
        game.apply(legal[0] if game.phase is Phase.AUCTION else legal[rng.randrange(len(legal))])


def test_5_a_game_plays_hands_to_the_target_with_the_dealer_rotating() -> None:
    game = GameState("single4", seed=5, dealer=1)
    dealers = []
    rng = random.Random(5)
    while not game.is_terminal():
        assert game.dealer == game.current_hand.dealer
        dealers.append(game.dealer)
        hand_number = game.hand_number
        while game.hand_number == hand_number and not game.is_terminal():
            legal = game.legal_actions
            cautious = game.phase is Phase.AUCTION
            game.apply(legal[0 if cautious else rng.randrange(len(legal))])
    assert dealers == [(1 + n) % 4 for n in range(len(dealers))]
    result = game.result()
    assert result.winner is not None
    assert result.scores[result.winner] >= 150
    assert list(result.scores) == [
        sum(hand.team_scores[t] for hand in result.hands) for t in (0, 1)
    ]
    assert all(replay.verify() is None for replay in game.replays)
    assert [str(a) for a in game.history] == [a for replay in game.replays for a in replay.actions]
    assert game.replays[0].seed == hand_seed(5, 0)


def test_5_when_both_teams_reach_the_target_on_one_hand_the_declaring_team_wins() -> None:
    found = 0
    for seed in range(60):
        game = GameState("single4", seed=seed, rules=rules_for("single4", {"target": 1}))
        pass_when_allowed(game, random.Random(seed))
        (hand,) = game.results
        if all(score >= 1 for score in hand.team_scores):
            assert hand.outcome is HandOutcome.MADE
            assert game.winner == hand.declaring_team
            found += 1
        else:
            assert game.winner == next(t for t in (0, 1) if hand.team_scores[t] >= 1)
    assert found > 0


def test_5_scores_may_go_negative_and_a_hand_limit_ends_a_game() -> None:
    game = GameState("single4", seed=3, max_hands=3)
    rng = random.Random(3)
    while not game.is_terminal():
        legal = game.legal_actions
        game.apply(legal[rng.randrange(len(legal))] if len(legal) < 300 else next(iter(legal)))
    assert len(game.results) == 3
    assert min(game.scores) < 0
    assert game.winner == (
        None if game.scores[0] == game.scores[1] else game.scores.index(max(game.scores))
    )


def test_a_game_observation_adds_the_game_score() -> None:
    game = GameState("double4", seed=2)
    observation = game.observation(1)
    assert observation["game_scores"] == [0, 0]
    assert observation["target"] == 500
    assert observation["hand_number"] == 0
    assert observation["previous_hand"] is None
    json.dumps(observation)


def test_a_game_observation_shows_the_previous_hand_and_a_finished_game_refuses_actions() -> None:
    game = GameState("single4", seed=6, max_hands=1)
    rng = random.Random(6)
    pass_when_allowed(game, rng)
    assert game.observation(0)["previous_hand"] == game.results[0].to_json()
    with pytest.raises(IllegalActionError) as raised:
        game.apply("pass")
    assert raised.value.rule == "game_over"
