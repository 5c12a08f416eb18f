"""A director, a field of players, and boards played at their play tables.

A board's result is really played: ``play_board`` starts the entrant's table (the event's
robots at North, East and West) and plays South's turns with a reference bot standing in
for the human, through the table's own services, then brings the result back.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from arena import services as arena_services
from arena.models import Player
from robot_events import play_tables, services
from robot_events.models import RobotEntry, RobotEvent, RobotPlay
from tables import referee
from tables import services as play_services
from tables.models import PlayTable
from tests.people import *  # noqa: F403  (fixtures used by name)
from tests.people import PASSWORD, client_for

__all__ = [
    "PASSWORD",
    "client_for",
    "director",
    "event",
    "field",
    "new_director",
    "new_event",
    "new_field",
    "play_board",
    "play_table",
]


def new_director() -> Player:
    """A player given the robot-director permission (not staff)."""
    player = arena_services.player_register(username="dora", password=PASSWORD, display_name="Dora")
    player.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    return Player.objects.select_related("user").get(pk=player.pk)


def new_field() -> list[Player]:
    return [
        arena_services.player_register(username=name.lower(), password=PASSWORD, display_name=name)
        for name in ("Ann", "Ben", "Cy")
    ]


def new_event(director: Player) -> RobotEvent:
    """An instant two-board single4 event against greedy robots, matchpointed."""
    return services.robot_event_create(
        director=director,
        name="Tuesday robots",
        variant="single4",
        boards=2,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )


@pytest.fixture
def director(db: None) -> Player:
    return new_director()


@pytest.fixture
def field(db: None) -> list[Player]:
    return new_field()


@pytest.fixture
def event(director: Player) -> RobotEvent:
    return new_event(director)


def play_table(play: RobotPlay, south: str) -> None:
    """Play the human's seat of ``play``'s table to the end: each of South's turns is the
    reference bot ``south``'s choice, sent through the table's own ``table_act``."""
    assert play.table_id is not None
    user = play.entry.player.user
    while True:
        table = PlayTable.objects.get(pk=play.table_id)
        if table.is_over:
            return
        hand = play_services.hand_of(table)
        assert hand.current == table.human_seat, "the robots wait for South"
        text = referee.reference_move(hand, table.human_seat, name=south, variant=table.variant)
        play_services.table_act(table_id=table.pk, user=user, action=text, ply=table.ply)


def play_board(entry: RobotEntry, south: str) -> RobotPlay:
    """Start the entrant's next board, play it at its table, and bring the result back."""
    play = services.robot_play_start(entry=entry)
    play_table(play, south)
    assert play_tables.entry_sync(entry=entry) == 1
    play.refresh_from_db()
    return play
