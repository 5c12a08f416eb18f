"""A variant registered after start-up is a choice of the API's serializers and of the
list filters' forms at once, and stops being one when it is unregistered: their variant
fields read the engine registry when used (``arena.variant_fields``), as the database
columns do (``variant_choices``)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.api.filters import BotFilter
from arena.api.matches import MatchFilter
from arena.api.serializers import BotCreateSerializer, LeaderboardQuerySerializer
from arena.models import Bot, Match
from leagues.api.views import LeagueFilter
from leagues.models import League
from tests.engine.toy_highcard import registered_toy
from tournaments.api.serializers import EventCreateSerializer

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


@pytest.mark.django_db
def test_the_services_and_pages_take_a_variant_registered_after_start_up(
    alice_client: Any, alice: Any, client: Any
) -> None:
    """Past the fields, the services that create bots and leagues check the registry as it is
    then, and the pages list it: a new game needs no restart anywhere."""
    from arena.errors import InvalidInput
    from arena.services.bots import bot_create
    from leagues.services import league_create

    with pytest.raises(InvalidInput, match="unknown variant 'highcard'; choose one of single4"):
        bot_create(owner=alice, name="early", variant="highcard")
    with registered_toy():
        response = alice_client.post(
            "/api/bots/", {"name": "toy-bot", "variant": "highcard"}, format="json"
        )
        assert response.status_code == 201, response.content
        assert Bot.objects.get(name="toy-bot").variant == "highcard"
        league = league_create(
            organiser=alice, name="Toy league", variant="highcard", format="round_robin"
        )
        assert league.variant == "highcard"
        client.force_login(alice.user)
        page = client.get("/bots/new/")
        assert b'value="highcard"' in page.content
        assert client.get("/leaderboards/highcard/").status_code == 200
    with pytest.raises(InvalidInput, match="unknown variant 'highcard'"):
        league_create(organiser=alice, name="Late", variant="highcard", format="round_robin")
    assert client.get("/leaderboards/highcard/").status_code == 404
