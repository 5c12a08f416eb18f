"""Apps that deal a table's cards at other tables too say when its owner may see them.

A table shows its owner the seed and the replay once the hand is over. An app that deals
the same board to other players (``robot_events``) registers a seal: a function that
names why a finished table's deal must stay hidden for now, or answers None. The play app
asks every seal and knows nothing of the apps behind them.
"""

from __future__ import annotations

from collections.abc import Callable

from tables.models import PlayTable

__all__ = ["Seal", "seal_reason", "seal_with"]

Seal = Callable[[PlayTable], str | None]
"""Why the table's seed and replay are hidden from everyone for now; None if they are not."""

_SEALS: list[Seal] = []


def seal_with(seal: Seal) -> None:
    """Register ``seal`` (once, however often an app's ``ready`` runs)."""
    if seal not in _SEALS:
        _SEALS.append(seal)


def seal_reason(table: PlayTable) -> str | None:
    """The first registered seal's reason to hide the table's deal; None if none holds."""
    for seal in _SEALS:
        reason = seal(table)
        if reason is not None:
            return reason
    return None
