"""Where an entrant's board is played: the play table, and its result back in the event."""

from __future__ import annotations

from django.urls import reverse

from arena.models import Player
from robot_events import selectors, services
from robot_events.models import RobotEntry, RobotEvent, RobotPlay


def table_url(*, play: RobotPlay) -> str | None:
    return None if play.table_id is None else reverse("tables:table", args=[play.table_id])


def entry_sync(*, entry: RobotEntry) -> int:
    """Record the entrant's tables that have finished since; the number recorded."""
    return services.robot_plays_sync(plays=entry.plays.select_related("table", "board"))


def viewer_sync(*, event: RobotEvent, viewer: Player | None, number: int) -> int:
    """Record the viewer's finished tables, if they play in the event, before board
    ``number``'s traveller is drawn: a board played to its end opens with the viewer's own
    result on it. Nothing is written for a traveller the viewer may not see (a refusal
    changes nothing)."""
    entry = selectors.entry_of(event=event, player=viewer)
    if entry is None or not selectors.board_visible(event=event, player=viewer, number=number):
        return 0
    return entry_sync(entry=entry)
