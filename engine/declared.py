"""The melds a two-hand player laid during the stock phase (RULES.md 7.1), as scored.

Kept out of ``engine.twohand``, which holds the two-hand hand's steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.meld import MeldItem
from engine.results import MeldShown
from engine.rules import MeldValues

__all__ = ["DeclaredMelds"]


class DeclaredMelds(MeldShown):
    """The melds one two-hand player laid during the stock phase, as scored."""

    __slots__ = ()

    def __init__(
        self, items: Sequence[tuple[int, MeldItem]], trump: int, values: MeldValues
    ) -> None:
        super().__init__((), trump, values)
        self._items = tuple(items)
