"""Hand results with their breakdown (RULES.md section 5)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import Suit
from engine.meld import MeldItem, meld_items
from engine.rules import MeldValues

__all__ = ["HandOutcome", "HandResult", "MeldShown", "TeamResult"]


class HandOutcome(enum.Enum):
    """How a hand ended, from the declaring team's point of view."""

    MADE = "made"
    SET = "set"
    THROWN_IN = "thrown_in"
    NO_MARRIAGE = "no_marriage"
    PASSED_OUT = "passed_out"
    """Everybody passed under the ``redeal`` all-pass rule: nothing is scored."""


# The outcomes as module constants, read at the end of every hand: in Python 3.11 a
# member read from the enum class goes through ``EnumType.__getattr__``'s hook.
MADE: Final = HandOutcome.MADE
SET: Final = HandOutcome.SET
THROWN_IN: Final = HandOutcome.THROWN_IN
NO_MARRIAGE: Final = HandOutcome.NO_MARRIAGE
PASSED_OUT: Final = HandOutcome.PASSED_OUT


class MeldShown:
    """The hands as shown at the meld, itemised only when asked (scoring needs totals)."""

    __slots__ = ("_by_seat", "_hands", "_items", "_seats", "_trump", "_values")

    _seats: tuple[int, ...]
    _by_seat: Sequence[Sequence[int]]

    def __init__(
        self, hands: Sequence[tuple[int, Sequence[int]]], trump: int, values: MeldValues
    ) -> None:
        self._hands: tuple[tuple[int, Sequence[int]], ...] | None = tuple(hands)
        self._trump = trump
        self._values = values
        self._items: tuple[tuple[int, MeldItem], ...] | None = None

    @classmethod
    def of_seats(
        cls,
        seats: tuple[int, ...],
        by_seat: Sequence[Sequence[int]],
        trump: int,
        values: MeldValues,
    ) -> MeldShown:
        """The hands of ``seats`` among every seat's (``by_seat``), paired only when
        itemised: a result is built at the end of every hand, and rarely itemised."""
        shown = cls.__new__(cls)
        shown._hands = None
        shown._seats = seats
        shown._by_seat = by_seat
        shown._trump = trump
        shown._values = values
        shown._items = None
        return shown

    @property
    def items(self) -> tuple[tuple[int, MeldItem], ...]:
        """``(seat, item)`` for every scoring meld item."""
        if self._items is None:
            hands = self._hands
            if hands is None:
                hands = tuple((seat, self._by_seat[seat]) for seat in self._seats)
            self._items = tuple(
                (seat, item)
                for seat, counts in hands
                for item in meld_items(counts, self._trump, self._values)
            )
        return self._items


NO_MELD = MeldShown((), 0, MeldValues((0,), (0,), (0,), (0,), (0,), (0,), 0, 0, 0, True))


@dataclass(frozen=True, slots=True)
class TeamResult:
    """One team's hand: meld shown (and whether it counted), counters, last trick, score."""

    team: int
    seats: tuple[int, ...]
    meld: int
    meld_counted: bool
    counters: int
    last_trick: int
    tricks: int
    score: int
    shown: MeldShown = field(default=NO_MELD, repr=False, compare=False)

    @property
    def meld_items(self) -> tuple[tuple[int, MeldItem], ...]:
        """``(seat, item)`` for each meld item the team showed."""
        return self.shown.items

    @property
    def taken(self) -> int:
        """Counters plus the last-trick bonus."""
        return self.counters + self.last_trick

    def to_json(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "seats": list(self.seats),
            "meld": self.meld,
            "meld_items": [{"seat": seat, **item.to_json()} for seat, item in self.meld_items],
            "meld_counted": self.meld_counted,
            "counters": self.counters,
            "last_trick": self.last_trick,
            "tricks": self.tricks,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """The score of a finished hand for each team, with its breakdown."""

    outcome: HandOutcome
    declarer: int | None
    bid: int | None
    trump: Suit | None
    teams: tuple[TeamResult, ...]

    @property
    def team_scores(self) -> tuple[int, ...]:
        return tuple(team.score for team in self.teams)

    @property
    def seat_scores(self) -> tuple[int, ...]:
        """Each seat's team score, by seat."""
        by_seat = {seat: team.score for team in self.teams for seat in team.seats}
        return tuple(by_seat[seat] for seat in sorted(by_seat))

    @property
    def declaring_team(self) -> int | None:
        if self.declarer is None:
            return None
        return next(team.team for team in self.teams if self.declarer in team.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": None if self.trump is None else str(self.trump),
            "team_scores": list(self.team_scores),
            "teams": [team.to_json() for team in self.teams],
        }
