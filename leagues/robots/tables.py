"""Where an entrant's board is played: the play table, and its result back in the event."""

from __future__ import annotations

from django.urls import reverse

from leagues.robots import services
from leagues.robots.models import RobotEntry, RobotPlay


def table_url(*, play: RobotPlay) -> str | None:
    return None if play.table_id is None else reverse("play-table", args=[play.table_id])


def entry_sync(*, entry: RobotEntry) -> int:
    """Record the entrant's tables that have finished since; the number recorded."""
    return services.robot_plays_sync(plays=entry.plays.select_related("table", "board"))
