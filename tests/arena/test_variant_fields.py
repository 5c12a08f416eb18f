"""A variant registered after start-up is a choice of the API's serializers and of the
list filters' forms at once, and stops being one when it is unregistered: their variant
fields read the engine registry when used (``arena.variant_fields``), as the database
columns do (``variant_choices``)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.api_matches import MatchFilter
from arena.filters import BotFilter
from arena.models import Bot, Match
from arena.serializers import BotCreateSerializer, LeaderboardQuerySerializer
from leagues.api import LeagueFilter
from leagues.models import League
from leagues.tournaments.serializers import EventCreateSerializer
from tests.engine.toy_highcard import registered_toy

SERIALIZERS: list[tuple[Any, dict[str, Any]]] = [
    (BotCreateSerializer, {"name": "toy-bot"}),
    (LeaderboardQuerySerializer, {}),
    (EventCreateSerializer, {"name": "Toy night"}),
]
FILTERS: list[tuple[Any, Any]] = [(BotFilter, Bot), (MatchFilter, Match), (LeagueFilter, League)]


@pytest.mark.parametrize(("serializer", "data"), SERIALIZERS)
def test_a_serializer_takes_a_variant_registered_after_it_was_imported(
    serializer: Any, data: dict[str, Any]
) -> None:
    assert not serializer(data={**data, "variant": "highcard"}).is_valid()
    with registered_toy():
        accepted = serializer(data={**data, "variant": "highcard"})
        assert accepted.is_valid(), accepted.errors
        assert accepted.validated_data["variant"] == "highcard"
    refused = serializer(data={**data, "variant": "highcard"})
    assert not refused.is_valid()
    assert "highcard" in str(refused.errors["variant"][0])


@pytest.mark.parametrize(("filterset", "model"), FILTERS)
def test_a_list_filter_form_takes_a_variant_registered_after_it_was_imported(
    filterset: Any, model: Any
) -> None:
    queryset = model.objects.none()
    with registered_toy():
        accepted = filterset(data={"variant": "highcard"}, queryset=queryset)
        assert accepted.is_valid(), accepted.errors
        assert ("highcard", "High card") in list(accepted.form.fields["variant"].choices)
    refused = filterset(data={"variant": "highcard"}, queryset=queryset)
    assert not refused.is_valid() and "variant" in refused.errors
    assert filterset(data={"variant": "single4"}, queryset=queryset).is_valid()
