"""RULES.md section 10: ``engine.variant_names()`` and ``engine.rules_for()`` speak for every
registered game, whatever its rules type, not only the four-hand presets."""

from __future__ import annotations

import pytest

import engine
from engine import registry
from engine.errors import UnknownVariantError
from engine.pinnacolo import PinnacoloRules
from engine.rules import Rules
from tests.engine.toy_highcard import registered_toy


def test_10_the_top_level_variant_names_are_every_registered_variant() -> None:
    assert engine.variant_names() == registry.variant_names()
    assert {"single4", "cutthroat3", "twohand", "pinnacolo", "pinnacolo2"} <= set(
        engine.variant_names()
    )


@pytest.mark.parametrize("variant", registry.variant_names())
def test_10_rules_for_gives_each_registered_variant_its_own_games_rules(variant: str) -> None:
    rules = engine.rules_for(variant)
    assert rules == registry.game_class(variant).preset(variant)
    assert rules == registry.load_game(variant).rules
    expected = PinnacoloRules if variant.startswith("pinnacolo") else Rules
    assert isinstance(rules, expected)


def test_10_rules_for_applies_overrides_in_every_game() -> None:
    assert engine.rules_for("pinnacolo3", {"target": 600}).target == 600
    assert engine.rules_for("cutthroat3", {"target": 600}).target == 600


def test_10_a_registered_toy_variant_is_listed_and_has_rules_while_registered() -> None:
    with registered_toy():
        assert engine.variant_names() == registry.variant_names()
        assert "highcard" in engine.variant_names()
        assert engine.rules_for("highcard").to_json() == {"name": "highcard"}
    assert "highcard" not in engine.variant_names()
    with pytest.raises(UnknownVariantError):
        engine.rules_for("highcard")
