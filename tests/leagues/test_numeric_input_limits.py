"""Every numeric input of the leagues API has a documented maximum: a value beyond it (or
beyond the database's column) gets a 400 naming the field and the limit, and changes nothing.
"""

from __future__ import annotations

import pytest
from django_celery_beat.models import PeriodicTask
from rest_framework.test import APIClient

from leagues.models import Division, League, Season
from tests.leagues.conftest import create_league, open_season

HUGE = 10**12


@pytest.mark.parametrize(
    ("field", "value", "limit"),
    [
        ("decision_ms", HUGE, "60000"),
        ("decision_ms", 60_001, "60000"),
        ("bank_ms", HUGE, "3600000"),
        ("bank_ms", 3_600_001, "3600000"),
        ("ladder_reach", HUGE, "100"),
        ("boards_per_match", HUGE, "1000"),
    ],
)
def test_league_numbers_have_documented_maximums(
    organiser_client: APIClient, field: str, value: int, limit: str
) -> None:
    response = organiser_client.post(
        "/api/leagues/",
        {"name": "L", "variant": "auction4", "format": "ladder", field: value},
    )
    assert response.status_code == 400, response.content
    assert limit in str(response.json()[field])
    assert not League.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"), [("decision_ms", HUGE), ("bank_ms", HUGE), ("ladder_reach", HUGE)]
)
def test_a_league_edit_beyond_the_maximum_changes_nothing(
    organiser_client: APIClient, field: str, value: int
) -> None:
    league = create_league(organiser_client, format="ladder")
    before = League.objects.values().get(pk=league["id"])
    response = organiser_client.patch(f"/api/leagues/{league['id']}/", {field: value})
    assert response.status_code == 400
    assert field in response.json()
    assert League.objects.values().get(pk=league["id"]) == before


def test_a_season_with_too_many_rounds_or_promotions_is_refused(
    organiser_client: APIClient,
) -> None:
    league = create_league(organiser_client, format="swiss")
    url = f"/api/leagues/{league['id']}/seasons/"
    response = organiser_client.post(url, {"planned_rounds": HUGE})
    assert response.status_code == 400
    assert "planned_rounds" in response.json()
    divisions = [{"name": "top", "relegated": HUGE}, {"name": "bottom", "promoted": HUGE}]
    response = organiser_client.post(url, {"divisions": divisions}, format="json")
    assert response.status_code == 400
    assert "divisions" in response.json()
    assert not Season.objects.exists()
    assert not Division.objects.exists()


def test_a_timetable_beyond_a_year_is_refused(organiser_client: APIClient) -> None:
    league = create_league(organiser_client)
    open_season(organiser_client, league["id"])
    response = organiser_client.put(
        f"/api/leagues/{league['id']}/timetable/", {"every_minutes": HUGE}
    )
    assert response.status_code == 400
    assert "525600" in str(response.json()["every_minutes"])
    assert not PeriodicTask.objects.filter(name__contains=str(league["id"])).exists()
