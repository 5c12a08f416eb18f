"""A league's stored overrides keep only its game's parameters once games have rules of
their own (leagues migration 0004): nothing that changed a hand is dropped."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from arena.models import Player
from engine.errors import RulesError
from engine.registry import load_game
from leagues import services
from leagues.models import League

MIGRATION = importlib.import_module("leagues.migrations.0004_rule_overrides_of_the_variants_game")

pytestmark = pytest.mark.django_db


def _league(organiser: Player, variant: str, overrides: dict[str, object]) -> League:
    league = services.league_create(
        organiser=organiser,
        name=f"Old {variant}",
        variant=variant,
        format=League.Format.ROUND_ROBIN,
        boards_per_match=1,
    )
    # Written as the releases before stored it, past today's check of the overrides.
    League.objects.filter(pk=league.pk).update(rule_overrides=overrides)
    return league


def test_another_games_parameter_is_dropped_and_the_games_own_are_kept(
    organiser: Player,
) -> None:
    four = _league(organiser, "auction4", {"widow_public": False, "target": 1000})
    two = _league(organiser, "twohand", {"bid_max": 300, "turned_dix": 20})
    with pytest.raises(RulesError, match="widow_public"):
        load_game("auction4").rules_for(League.objects.get(pk=four.pk).rule_overrides)
    MIGRATION.keep_the_games_own(apps, None)
    four.refresh_from_db()
    two.refresh_from_db()
    assert four.rule_overrides == {"target": 1000}
    assert two.rule_overrides == {"turned_dix": 20}
    assert load_game("auction4").rules_for(four.rule_overrides).target == 1000
    assert load_game("twohand").rules_for(two.rule_overrides).turned_dix == 20
