"""A Pinnacolo hand's score (RULES.md section 8), per seat and per side."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

__all__ = ["Outcome", "PinnacoloResult", "SeatResult"]


class Outcome(enum.Enum):
    """How a hand ended."""

    CLOSED = "closed"
    """A player discarded their last card."""
    STOCK_OUT = "stock_out"
    """The stock was empty when a player had to draw, and they did not take the pile."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's score: ``melded`` (its melds, doubling applied) minus ``in_hand``, plus
    ``bonus`` for closing; a seat that laid nothing down scores ``penalty`` instead.
    """

    seat: int
    laid_down: bool
    melded: int
    in_hand: int
    bonus: int
    score: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "laid_down": self.laid_down,
            "melded": self.melded,
            "in_hand": self.in_hand,
            "bonus": self.bonus,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class PinnacoloResult:
    """The hand's outcome, its closer (if any), every seat's score and each side's total
    (a pair sums its two seats; in an individual game a side is a seat)."""

    outcome: Outcome
    closer: int | None
    one_go: bool
    seats: tuple[SeatResult, ...]
    side_scores: tuple[int, ...]

    @property
    def team_scores(self) -> tuple[int, ...]:
        """The same as ``side_scores``: the name match runners use for every game."""
        return self.side_scores

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "closer": self.closer,
            "one_go": self.one_go,
            "seats": [seat.to_json() for seat in self.seats],
            "side_scores": list(self.side_scores),
        }
