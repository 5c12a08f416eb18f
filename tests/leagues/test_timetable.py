"""A league's timetable: a django-celery-beat PeriodicTask that advances the season."""

from __future__ import annotations

import json
from datetime import timedelta

from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from rest_framework.test import APIClient

from arena.models import Player
from leagues import services
from leagues.models import League, Round, Season
from leagues.tasks import league_advance_task
from tests.leagues.conftest import create_league, end_match, ready_version


def test_the_organiser_sets_changes_and_removes_the_timetable(
    organiser_client: APIClient, alice_client: APIClient
) -> None:
    league = create_league(organiser_client)
    url = f"/api/leagues/{league['id']}/timetable/"
    assert APIClient().get(url).status_code == 204
    assert organiser_client.put(url, {"every_minutes": 0}).status_code == 400

    assert organiser_client.put(url, {"every_minutes": 5}).json()["every_minutes"] == 5
    changed = organiser_client.put(url, {"every_minutes": 10})
    assert changed.json() == {"every_minutes": 10, "enabled": True, "last_run_at": None}
    task = PeriodicTask.objects.get()
    assert (task.task, json.loads(task.kwargs), task.interval.every, task.interval.period) == (
        "leagues.league_advance",
        {"league_id": league["id"]},
        10,
        "minutes",
    )
    assert (
        APIClient().get(f"/api/leagues/{league['id']}/").json()["timetable"]["every_minutes"] == 10
    )

    assert alice_client.delete(url).status_code == 403
    assert organiser_client.delete(url).status_code == 204
    assert not PeriodicTask.objects.exists()
    assert League.objects.get().timetable is None


def test_the_timetable_starts_the_season_and_schedules_each_round_once_the_last_ended(
    organiser: Player, alice: Player, bob: Player, carol: Player
) -> None:
    league = services.league_create(
        organiser=organiser,
        name="Timed",
        variant="auction4",
        format="round_robin",
        boards_per_match=1,
    )
    season = services.season_create(league=league, starts_at=timezone.now() + timedelta(hours=1))
    for player in (alice, bob, carol):
        version = ready_version(player, player.user.username)
        services.entry_create(season=season, bot=version.bot, version=version)

    def advance() -> str:
        return str(league_advance_task.apply(args=[league.pk]).get())

    assert advance() == "waiting for the season to start"
    Season.objects.filter(pk=season.pk).update(starts_at=timezone.now())
    assert advance() == "scheduled round 1"
    assert advance() == "round 1 is being played"
    for number in (1, 2, 3):
        for match_id in (
            Round.objects.get(number=number)
            .fixtures.exclude(match=None)
            .values_list("match_id", flat=True)
        ):
            end_match(match_id, score_x=3)
        assert advance() == ("season finished" if number == 3 else f"scheduled round {number + 1}")
    assert advance() == "season finished"
    assert Round.objects.count() == 3


def test_a_timetable_that_cannot_schedule_reports_it_and_changes_nothing(
    organiser: Player, alice: Player
) -> None:
    league = services.league_create(
        organiser=organiser, name="Lonely", variant="auction4", format="round_robin"
    )
    season = services.season_create(league=league, starts_at=timezone.now())
    version = ready_version(alice, "alone")
    services.entry_create(season=season, bot=version.bot, version=version)
    outcome = services.league_advance(league_id=league.pk)
    assert outcome == "not scheduled: season 1 has 1 entrant; a league needs at least two"
    assert not Round.objects.exists()
