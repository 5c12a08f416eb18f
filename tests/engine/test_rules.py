"""RULES.md section 6: the presets, league overrides and the JSON form of rules."""

from __future__ import annotations

import json

import pytest

from engine import AllPass, MustHead, MustTrump, Rules, RulesError, rules_for
from engine.rules import pinochle_variants


def test_6_the_three_presets_are_found_by_name() -> None:
    assert pinochle_variants("pinochle4") == ["single4", "auction4", "double4"]
    assert pinochle_variants() == ["single4", "auction4", "double4", "cutthroat3", "twohand"]


def test_6_single4_parameters() -> None:
    rules = rules_for("single4")
    assert (rules.deck, rules.hand_size, rules.meld_scale) == ("single", 12, 1)
    assert (rules.min_bid, rules.bids[:3]) == (16, (16, 17, 18))
    assert rules.all_pass is AllPass.DEALER_STUCK
    assert (rules.pass_count, rules.throw_in, rules.pass_with_help) == (3, False, False)
    assert rules.must_head is MustHead.TRUMP_LED_ONLY
    assert rules.must_trump is MustTrump.ALWAYS and not rules.must_overtrump
    assert (rules.counter_value, rules.last_trick_bonus, rules.total_in_tricks) == (1, 1, 25)
    assert rules.target == 150
    assert rules.run_includes_marriage and not rules.meld_needs_trick


def test_6_auction4_parameters() -> None:
    rules = rules_for("auction4")
    assert (rules.deck, rules.hand_size, rules.meld_scale) == ("single", 12, 10)
    assert (rules.min_bid, rules.max_raise_rungs) == (250, 2)
    assert (rules.pass_count, rules.throw_in, rules.pass_with_help) == (4, True, True)
    assert rules.must_head is MustHead.ALWAYS and not rules.must_overtrump
    assert (rules.counter_value, rules.last_trick_bonus, rules.total_in_tricks) == (10, 10, 250)
    assert rules.target == 1500


def test_6_double4_parameters() -> None:
    rules = rules_for("double4")
    assert (rules.deck, rules.hand_size, rules.meld_scale) == ("double", 20, 1)
    assert rules.min_bid == 50 and rules.trump_needs_marriage
    assert (rules.pass_count, rules.throw_in) == (0, True)
    assert rules.must_head is MustHead.ALWAYS and rules.must_overtrump
    assert (rules.counter_value, rules.last_trick_bonus, rules.total_in_tricks) == (1, 2, 50)
    assert rules.meld_table.run == (15, 150, 225, 300)
    assert rules.target == 500


def test_a_league_overrides_any_parameter() -> None:
    rules = rules_for("auction4", {"target": 1000, "must_head": "never", "meld_needs_trick": True})
    assert rules.target == 1000
    assert rules.must_head is MustHead.NEVER
    assert rules.meld_needs_trick
    assert rules_for("auction4").target == 1500


def test_a_league_overrides_part_of_the_meld_table() -> None:
    rules = rules_for("double4", {"meld_table": {"run": [15, 150, 250, 400]}})
    assert rules.meld_table.run == (15, 150, 250, 400)
    assert rules.meld_table.pinochle == (4, 30, 60, 90)


def test_an_unknown_parameter_is_named_in_the_error() -> None:
    with pytest.raises(RulesError) as raised:
        rules_for("auction4", {"targett": 1000})
    assert raised.value.parameter == "targett"
    assert "targett" in str(raised.value)


@pytest.mark.parametrize(
    ("overrides", "parameter"),
    [
        ({"target": "1000"}, "target"),
        ({"target": 0}, "target"),
        ({"throw_in": 1}, "throw_in"),
        ({"must_head": "sometimes"}, "must_head"),
        ({"pass_count": 13}, "pass_count"),
        ({"bid_ladder": [[50, 0]]}, "bid_ladder"),
        ({"deck": "triple"}, "deck"),
        ({"meld_table": {"run": [15]}}, "meld_table"),
        ({"meld_table": {"flush": [15, 150]}}, "meld_table"),
        ({"max_raise_rungs": 0}, "max_raise_rungs"),
    ],
)
def test_a_bad_value_is_named_in_the_error(overrides: dict[str, object], parameter: str) -> None:
    with pytest.raises(RulesError) as raised:
        rules_for("single4", overrides)
    assert raised.value.parameter == parameter


def test_an_unknown_variant_is_an_error() -> None:
    with pytest.raises(RulesError):
        rules_for("pinochle5")


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_rules_round_trip_through_json(variant: str) -> None:
    rules = rules_for(variant, {"target": 777})
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_rules_from_json_needs_every_parameter() -> None:
    data = rules_for("single4").to_json()
    del data["target"]
    with pytest.raises(RulesError) as raised:
        Rules.from_json(data)
    assert raised.value.parameter == "target"


def test_rules_are_frozen() -> None:
    rules = rules_for("single4")
    with pytest.raises(AttributeError):
        rules.target = 1  # type: ignore[misc]
