"""A director, a field of players, and boards played through the referee by reference bots.

Before a board's result is recorded it is really played: ``played_result`` puts the given
reference bot at South (standing in for the human) and the event's robots at the other
seats, and plays the board through ``bots.table.Table`` in-process.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission

from arena import services as arena_services
from arena.models import Player
from leagues.robots import services
from leagues.robots.models import RobotEntry, RobotEvent, RobotPlay
from leagues.tournaments.par import board_played
from tests.arena.conftest import PASSWORD, client_for

__all__ = ["PASSWORD", "client_for", "director", "event", "field", "play_board", "played_result"]


@pytest.fixture
def director(db: None) -> Player:
    """A player given the robot-director permission (not staff)."""
    player = arena_services.player_register(username="dora", password=PASSWORD, display_name="Dora")
    player.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    return Player.objects.select_related("user").get(pk=player.pk)


@pytest.fixture
def field(db: None) -> list[Player]:
    return [
        arena_services.player_register(username=name.lower(), password=PASSWORD, display_name=name)
        for name in ("Ann", "Ben", "Cy")
    ]


@pytest.fixture
def event(director: Player) -> RobotEvent:
    return services.robot_event_create(
        director=director,
        name="Tuesday robots",
        variant="single4",
        boards=2,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )


def played_result(play: RobotPlay, south: str) -> dict[str, Any]:
    """The board of ``play`` played with ``south`` at South and the event's robots around."""
    event = play.board.event
    bots = [event.robots, event.robots, south, event.robots]
    result = board_played(
        event.variant,
        bots=bots,
        number=play.board.number,
        seed=play.board.seed,
        dealer=play.board.dealer,
    )
    return dict(result.to_json())


def play_board(entry: RobotEntry, south: str) -> RobotPlay:
    """Start the entrant's next board, play it, and record its result."""
    play = services.robot_play_start(entry=entry)
    return services.robot_play_finish(play=play, result=played_result(play, south))
