"""Input the API document calls invalid is refused with a 400 naming the parameter, however
it is sent; what DRF's form conventions leave out is documented here as left out.

Each refusal was an input the server took: it served the default or nothing and said
nothing, or kept a value of the wrong type.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from arena.models import Player
from leagues import services as league_services
from leagues.models import League
from tests.arena.conftest import client_for
from tournaments import services as tournament_services
from tournaments.models import Event, HumanRating

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def alice_client(alice: Player) -> APIClient:
    return client_for(alice)


def _paginated_lists(client: APIClient) -> list[str]:
    """Every list the document says takes ``page_size``, with no id in its path."""
    document = client.get("/api/schema/?format=json").json()
    return sorted(
        path
        for path, operations in document["paths"].items()
        if "{" not in path
        and any(p["name"] == "page_size" for p in operations.get("get", {}).get("parameters", []))
    )


@pytest.mark.parametrize("page_size", ["null", "abc", "0", "-1", "1.5", "\u0665"])
def test_a_page_size_that_is_not_a_whole_number_from_1_is_refused_on_every_list(
    alice_client: APIClient, page_size: str
) -> None:
    # It was served at the default size, and the value copied into the next page's link.
    lists = _paginated_lists(alice_client)
    assert len(lists) >= 8, lists
    for path in lists:
        response = alice_client.get(path, {"page_size": page_size})
        assert response.status_code == 400, (path, response.content)
        assert "page_size is a whole number from 1 to 200" in response.json()["page_size"][0]


def test_a_page_size_above_the_largest_is_served_at_the_largest(
    anonymous_client: APIClient,
) -> None:
    # DRF's convention, and the parameter's description: the size is cut, not refused.
    response = anonymous_client.get("/api/players/", {"page_size": "5000"})
    assert response.status_code == 200
    assert anonymous_client.get("/api/players/", {"page_size": ""}).status_code == 200


@pytest.mark.parametrize("query", [{"version": "0.5"}, {"bot": "1.5"}, {"version": "1e3"}])
def test_a_match_filter_by_id_takes_only_whole_numbers(
    anonymous_client: APIClient, query: dict[str, str]
) -> None:
    # Read as a decimal, 0.5 was taken and matched nothing: an empty list, not an error.
    response = anonymous_client.get("/api/matches/", query)
    assert response.status_code == 400
    (name,) = query
    assert "whole number" in response.json()[name][0]


def test_human_ratings_of_an_unknown_variant_are_refused_and_an_empty_one_lists_all(
    alice: Player, bob: Player, anonymous_client: APIClient
) -> None:
    HumanRating.objects.create(player=alice, variant="single4")
    HumanRating.objects.create(player=bob, variant="auction4")
    refused = anonymous_client.get("/api/tournaments/ratings/", {"variant": "bogus"})
    assert refused.status_code == 400
    assert "bogus" in refused.json()["variant"][0]
    # An empty filter is no filter (what a blank form field sends), as on every other list.
    every = anonymous_client.get("/api/tournaments/ratings/", {"variant": ""})
    assert every.json()["count"] == 2
    one = anonymous_client.get("/api/tournaments/ratings/", {"variant": "single4"})
    assert [row["player"] for row in one.json()["results"]] == [alice.display_name]


@pytest.fixture
def league(alice: Player) -> League:
    return league_services.league_create(
        organiser=alice, name="Tuesday league", variant="auction4", format="round_robin"
    )


@pytest.fixture
def event(alice: Player) -> Event:
    return tournament_services.event_create(
        director=alice, name="Tuesday pairs", variant="single4", par_bot=""
    )


def _patch(client: APIClient, url: str, body: str, content_type: str) -> Any:
    return client.patch(url, data=body, content_type=content_type)


@pytest.mark.parametrize(
    ("body", "content_type"), [("name=", FORM), ('{"name": ""}', "application/json")]
)
def test_renaming_a_league_or_an_event_to_nothing_is_refused(
    alice_client: APIClient, league: League, event: Event, body: str, content_type: str
) -> None:
    # A form's empty name was dropped as a blank form field: the PATCH answered 200 and
    # renamed nothing.
    for url in (f"/api/leagues/{league.pk}/", f"/api/tournaments/{event.pk}/"):
        response = _patch(alice_client, url, body, content_type)
        assert response.status_code == 400, (url, response.content)
        assert "blank" in response.json()["name"][0]
    league.refresh_from_db()
    event.refresh_from_db()
    assert (league.name, event.name) == ("Tuesday league", "Tuesday pairs")


def test_a_league_is_renamed_by_a_form(alice_client: APIClient, league: League) -> None:
    # Every form-encoded PATCH was refused for changing the rules, which it did not send.
    response = _patch(alice_client, f"/api/leagues/{league.pk}/", "name=Wednesday+league", FORM)
    assert response.status_code == 200, response.content
    league.refresh_from_db()
    assert league.name == "Wednesday league"


@pytest.mark.parametrize("sections", [[1, 2], [1.5], ["A", 2]])
def test_section_names_must_be_strings(alice_client: APIClient, sections: list[Any]) -> None:
    # Numbers were taken and stored as their digits ("1.5" a section name).
    body = {"name": "Numbers", "variant": "single4", "par_bot": "", "sections": sections}
    response = alice_client.post(
        "/api/tournaments/", data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400
    assert "Not a valid string." in json.dumps(response.json()["sections"])
    assert not Event.objects.exists()


def test_section_names_sent_as_strings_are_taken(alice: Player) -> None:
    body = {"name": "Two rooms", "variant": "single4", "par_bot": "", "sections": ["A", "B"]}
    response = client_for(alice).post("/api/tournaments/", body, format="json")
    assert response.status_code == 201
    names = Event.objects.get().sections.values_list("name", flat=True)
    assert sorted(names) == ["A", "B"]
