"""An organiser sets and stops a league's timetable from its page, through the API's own
service; nobody else can, and a bad number changes nothing."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django_celery_beat.models import PeriodicTask

from arena.models import Player
from leagues.models import League
from tests.leagues.conftest import create_league
from tests.people import PASSWORD


def _page_client(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def _league(organiser_client: Any) -> League:
    return League.objects.get(pk=create_league(organiser_client)["id"])


def test_the_organiser_sets_the_timetable_and_the_page_says_so(
    organiser: Player, organiser_client: Any
) -> None:
    league = _league(organiser_client)
    page = _page_client(organiser)
    answer = page.post(f"/leagues/{league.pk}/timetable/", {"every_minutes": "90"})
    assert answer.status_code == 302
    league.refresh_from_db()
    assert league.timetable is not None and league.timetable.interval.every == 90
    # The same timetable the API reads.
    assert (
        organiser_client.get(f"/api/leagues/{league.pk}/timetable/").json()["every_minutes"] == 90
    )
    shown = page.get(f"/leagues/{league.pk}/").content.decode()
    assert "the next round every 90 minutes" in shown

    stopped = page.post(f"/leagues/{league.pk}/timetable/", {"clear": "1"})
    assert stopped.status_code == 302
    league.refresh_from_db()
    assert league.timetable is None
    assert (
        "rounds are scheduled by the organiser"
        in page.get(f"/leagues/{league.pk}/").content.decode()
    )


def test_a_bad_number_is_refused_beside_its_field_and_changes_nothing(
    organiser: Player, organiser_client: Any
) -> None:
    league = _league(organiser_client)
    tasks = PeriodicTask.objects.count()
    for value in ("0", "abc", ""):
        answer = _page_client(organiser).post(
            f"/leagues/{league.pk}/timetable/", {"every_minutes": value}
        )
        assert answer.status_code == 400, value
        assert 'id="every-minutes-error"' in answer.content.decode()
    assert PeriodicTask.objects.count() == tasks
    league.refresh_from_db()
    assert league.timetable is None


def test_another_player_is_refused_with_the_reason(organiser_client: Any, alice: Player) -> None:
    league = _league(organiser_client)
    answer = _page_client(alice).post(f"/leagues/{league.pk}/timetable/", {"every_minutes": "60"})
    assert answer.status_code == 403
    assert "only the league&#x27;s organiser can change the timetable" in answer.content.decode()
    league.refresh_from_db()
    assert league.timetable is None
