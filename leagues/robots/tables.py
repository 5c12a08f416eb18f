"""Where an entrant's board is played: the seam between the event and its play table."""

from __future__ import annotations

from django.http import HttpRequest

from leagues.robots.models import RobotEntry, RobotPlay


def table_url(*, play: RobotPlay, request: HttpRequest) -> str | None:
    return None if play.table_id is None else f"/play/tables/{play.table_id}/"


def entry_sync(*, entry: RobotEntry) -> int:
    """Record the entrant's tables that have finished since; the number recorded."""
    return 0
