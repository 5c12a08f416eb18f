"""Who may do and see what in a robot event (the director, staff, an entrant's seat), and
the event's state that opens it: small pure reads, no game rule (the engine has those)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from arena.models import Player
from engine.interface import AnyGame
from robot_events.models import RobotEvent, RobotSchedule

__all__ = ["directs", "may_change_schedule", "may_direct", "result_summary", "status"]

HUMAN_SEAT = 2
"""The entrant holds South; the partner robot North, the opponents East and West."""


def may_direct(player: Player) -> bool:
    user = player.user
    return bool(user.is_staff or user.has_perm("robots.direct_robotevent"))


def directs(event: RobotEvent, player: Player | None) -> bool:
    """The event's director, or staff: they see every board from the start."""
    if player is None:
        return False
    return player.pk == event.director_id or bool(player.user.is_staff)


def may_change_schedule(schedule: RobotSchedule, player: Player) -> bool:
    """A daily timetable is paused, resumed or removed by its director, or by staff."""
    return schedule.director_id == player.pk or bool(player.user.is_staff)


def status(event: RobotEvent, now: datetime | None = None) -> str:
    """ "upcoming", "open" or "closed"."""
    now = now or timezone.now()
    if event.closed is not None or (event.closes is not None and event.closes <= now):
        return "closed"
    return "upcoming" if event.opens > now else "open"


def result_summary(result: dict[str, Any], game: AnyGame) -> dict[str, Any]:
    """What a traveller shows of a hand of ``game``: the contract and the scores, no card."""
    declarer = result.get("declarer")
    return {
        "outcome": result.get("outcome"),
        "declarer": declarer,
        "declarer_seat": game.seat_name(declarer) if isinstance(declarer, int) else None,
        "bid": result.get("bid"),
        "trump": result.get("trump"),
        "scores": list(result.get("team_scores") or []),
        "meld": [team.get("meld") for team in result.get("teams") or []],
        "counters": [
            team.get("counters", 0) + team.get("last_trick", 0)
            for team in result.get("teams") or []
        ],
    }
