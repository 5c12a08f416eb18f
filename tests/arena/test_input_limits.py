"""Malformed, hostile or out-of-range input gets a 4xx naming the problem, and stores nothing.

Each case here was a server error found by fuzzing the API.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena import services
from arena.models import Match, Player
from leagues.models import League
from tests.arena.conftest import PASSWORD, client_for
from tests.tournaments.conftest import running_event


@pytest.mark.parametrize("pk", ["abc", "null", "true", "1e3", "-1"])
def test_a_replay_of_a_match_id_that_is_not_a_number_is_not_found(
    anonymous_client: APIClient, pk: str
) -> None:
    response = anonymous_client.get(f"/api/matches/{pk}/replay/")
    assert response.status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/api/tournaments/ratings/?variant=%00",
        "/api/ratings/?variant=auction4%00",
        "/api/bots/?name=a%00b",
        "/api/leagues/?name=%00",
        "/api/matches/?%00=1",
    ],
)
def test_a_nul_character_in_a_query_parameter_is_refused(
    anonymous_client: APIClient, url: str
) -> None:
    response = anonymous_client.get(url)
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]


def test_a_nul_character_in_a_scorecard_section_is_refused(
    alice: Player, bob: Player, fast_password_hashing: None
) -> None:
    others = [services.player_register(username=f"p{n}", password=PASSWORD) for n in range(7)]
    event = running_event(alice, [bob, *others])
    response = client_for(alice).get(
        f"/api/tournaments/{event.pk}/scorecard/", {"section": "\x00", "entry": "1"}
    )
    assert response.status_code == 400
    assert "section" in response.json()["detail"]


@pytest.mark.parametrize(
    "query",
    [
        {"elo1": "inf"},
        {"elo0": "nan"},
        {"elo0": "-inf"},
        {"elo1": "1e300"},
        {"elo0": "-1e300"},
        {"alpha": "nan"},
    ],
)
def test_sprt_bounds_must_be_finite_and_sensible(
    anonymous_client: APIClient, query: dict[str, str]
) -> None:
    response = anonymous_client.get("/api/ratings/sprt/", {"a": 1, "b": 2, **query})
    assert response.status_code == 400
    (name,) = query
    assert name in response.json()


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    "url", ["/api/players/", "/api/bots/", "/api/leagues/", "/api/matches/", "/api/tournaments/"]
)
def test_json_nested_a_thousand_deep_is_refused(alice_client: APIClient, url: str) -> None:
    body = '{"name": ' + _nested(1000) + "}"
    response = alice_client.generic("POST", url, body, content_type="application/json")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


def test_json_nested_deeper_than_the_limit_is_refused_even_when_python_could_parse_it(
    alice_client: APIClient,
) -> None:
    body = '{"name": "x", "variant": "auction4", "format": "round_robin", "rule_overrides": '
    body += '{"a": ' * 40 + "1" + "}" * 40 + "}"
    response = alice_client.generic("POST", "/api/leagues/", body, content_type="application/json")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]
    assert not League.objects.exists()


def test_a_nul_character_anywhere_in_a_json_body_is_refused(alice_client: APIClient) -> None:
    body = '{"name": "x", "variant": "auction4", "format": "round_robin", '
    body += '"rule_overrides": {"k\\u0000": "v"}}'
    response = alice_client.generic("POST", "/api/leagues/", body, content_type="application/json")
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]
    assert not League.objects.exists()


HUGE = 10**30


@pytest.mark.parametrize("field", ["version", "opponent", "boards"])
def test_a_challenge_with_numbers_beyond_the_database_range_is_refused(
    alice_client: APIClient, field: str
) -> None:
    body = {"version": 1, "opponent": 2, "boards": 2, field: HUGE}
    response = alice_client.post("/api/matches/", body)
    assert response.status_code == 400
    assert field in response.json()
    assert not Match.objects.exists()


@pytest.mark.parametrize("field", ["a", "b"])
def test_sprt_versions_beyond_the_database_range_are_refused(
    anonymous_client: APIClient, field: str
) -> None:
    response = anonymous_client.get("/api/ratings/sprt/", {"a": 1, "b": 2, field: HUGE})
    assert response.status_code == 400
    assert field in response.json()
