"""RULES.md sections 6, 7 and 10: each pinochle game has its own rules, with only the
parameters the game uses, and the documents written when the rules held every game's
parameters still read.

``rules_every_parameter.json`` is each preset as that release wrote it (every one of the
parameters of every game).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.errors import RulesError
from engine.registry import load_game
from engine.replay import read_replay
from engine.rules import (
    AuctionRules,
    Pinochle2Rules,
    Pinochle3Rules,
    Pinochle4Rules,
    Rules,
    pinochle_rules,
)

EVERY_PARAMETER: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "rules_every_parameter.json").read_text(encoding="utf-8")
)
COMMON = {
    "name", "deck", "players", "must_head", "must_trump", "must_overtrump", "counter_value",
    "last_trick_bonus", "meld_scale", "meld_table", "run_includes_marriage",
    "meld_needs_trick", "target", "both_reach",
}  # fmt: skip
AUCTION = {"bid_ladder", "bid_max", "max_raise_rungs", "all_pass", "trump_needs_marriage"}
OWN = {
    # RULES.md 2 and 6: the auction, passing between partners, throwing in.
    "single4": (Pinochle4Rules, AUCTION | {"throw_in", "pass_count", "pass_with_help"}),
    "auction4": (Pinochle4Rules, AUCTION | {"throw_in", "pass_count", "pass_with_help"}),
    "double4": (Pinochle4Rules, AUCTION | {"throw_in", "pass_count", "pass_with_help"}),
    # RULES.md 7.2: the auction, and the widow the declarer takes and buries.
    "cutthroat3": (
        Pinochle3Rules,
        AUCTION | {"throw_in", "widow", "widow_public", "bury_meld_cards"},
    ),
    # RULES.md 7.1: no auction; the stock and its turned-up trump.
    "twohand": (Pinochle2Rules, {"cards_each", "turned_dix", "dix_exchange"}),
}  # fmt: skip
OTHERS = {
    "single4": "widow",
    "auction4": "cards_each",
    "double4": "turned_dix",
    "cutthroat3": "pass_count",
    "twohand": "bid_ladder",
}


@pytest.mark.parametrize("variant", sorted(OWN))
def test_6_7_each_preset_has_exactly_its_games_parameters(variant: str) -> None:
    kind, own = OWN[variant]
    game = load_game(variant)
    rules = game.rules
    assert type(rules) is kind and type(game.preset(variant)) is kind
    assert set(rules.to_json()) == COMMON | own | {"game"}
    assert rules.to_json()["game"] == type(game).name


@pytest.mark.parametrize("variant", sorted(OWN))
def test_6_7_an_override_of_another_games_parameter_is_refused_by_name(variant: str) -> None:
    other = OTHERS[variant]
    game = load_game(variant)
    value = EVERY_PARAMETER[variant][other]
    with pytest.raises(RulesError, match=f"'{other}': {variant} has no such rule") as raised:
        game.rules_for({other: value, "target": 2000})
    assert raised.value.parameter == other
    with pytest.raises(RulesError):
        game.rules.replace(**{other: value})
    # Nothing changed: the preset is what it was.
    assert game.rules_for(None).to_json() == game.rules.to_json()
    assert game.rules.target != 2000


def test_7_1_the_two_hand_game_has_no_auction() -> None:
    rules = pinochle_rules("twohand")
    assert not isinstance(rules, AuctionRules)
    assert rules.bids == ()
    with pytest.raises(RulesError, match="twohand has no such rule"):
        pinochle_rules("twohand", {"bid_max": 3000})


@pytest.mark.parametrize("variant", sorted(OWN))
def test_6_7_a_document_with_every_games_parameters_still_reads(variant: str) -> None:
    old = EVERY_PARAMETER[variant]
    assert len(old) == 29  # the game and its 28 parameters
    game = load_game(variant)
    assert Rules.from_json(old) == game.rules
    assert game.rules_from_json(old) == game.rules
    assert type(game.rules_from_json(old)) is OWN[variant][0]
    # Written again, only the game's own parameters remain, and they read back.
    assert game.rules_from_json(game.rules.to_json()) == game.rules


@pytest.mark.parametrize("variant", sorted(OWN))
def test_6_7_an_old_documents_other_game_parameter_never_changes_the_rules(variant: str) -> None:
    """A parameter the game never had is left out of an older document, whatever it held:
    the flat rules of that time kept every one that could change play at its default."""
    other = OTHERS[variant]
    old = dict(EVERY_PARAMETER[variant])
    old[other] = 1 if other != "bid_ladder" else [[100, 5]]
    assert Rules.from_json(old) == Rules.from_json(EVERY_PARAMETER[variant])
    assert other not in Rules.from_json(old).to_json()
    with pytest.raises(RulesError, match="unknown parameter"):
        Rules.from_json({**EVERY_PARAMETER[variant], "trgt": 1})


def test_6_a_game_reads_only_its_own_rules() -> None:
    with pytest.raises(RulesError) as raised:
        load_game("auction4").rules_from_json(pinochle_rules("cutthroat3").to_json())
    assert raised.value.parameter == "game"
    with pytest.raises(RulesError):
        Pinochle2Rules.from_json(EVERY_PARAMETER["single4"])
    with pytest.raises(RulesError) as raised:
        pinochle_rules("auction4", {"game": "pinochle3"})
    assert raised.value.parameter == "game"


@pytest.mark.parametrize("variant", sorted(OWN))
def test_10_a_replay_whose_rules_hold_every_games_parameters_still_verifies(variant: str) -> None:
    game = load_game(variant)
    state = game.new_initial_state(seed=7, dealer=game.board_dealer(1))
    state.play_randomly(random.Random(7))
    document = {**game.write_replay(state).to_json(), "rules": EVERY_PARAMETER[variant]}
    replay = read_replay(json.loads(json.dumps(document)))
    assert replay.rules == game.rules
    assert replay.verify() is None
