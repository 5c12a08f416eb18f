"""Tables started before daylong events' tables stopped at the end are brought in line."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from arena.models import Player
from robot_events import services
from robot_events.models import RobotEvent
from tables.models import PlayTable

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module(
    "robot_events.migrations.0002_open_daylong_tables_stop_at_the_end"
)


def _daylong(director: Player, name: str) -> RobotEvent:
    return services.robot_event_create(
        director=director,
        name=name,
        variant="single4",
        boards=1,
        robots="greedy",
        kind="daylong",
        scoring="mp",
    )


def test_an_open_daylong_events_old_tables_stop_at_its_end_and_open_at_its_close(
    director: Player, field: list[Player]
) -> None:
    open_event, closed_event = _daylong(director, "Open"), _daylong(director, "Closed")
    tables = []
    for event in (open_event, closed_event):
        entry = services.robot_entry_join(event=event, player=field[0])
        table_id = services.robot_play_start(entry=entry).table_id
        # As a table was started before: public at the published end, no end of play.
        PlayTable.objects.filter(pk=table_id).update(public_after=event.closes, plays_until=None)
        tables.append(table_id)
    services.robot_event_close(event=closed_event, by=director)
    closed_event.refresh_from_db()
    MIGRATION.stop_at_the_end(apps, None)
    open_table, closed_table = (PlayTable.objects.get(pk=pk) for pk in tables)
    assert open_table.plays_until == open_event.closes and open_table.public_after is None
    # A closed event's tables are over and public from its close: left as they are.
    assert closed_table.public_after == closed_event.closed and closed_table.plays_until is None
