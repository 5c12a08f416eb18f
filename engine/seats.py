"""Seat numbers: a seat is an ``int`` from 0 to the number of players minus one.

A ``bool`` is an ``int`` to Python but never a seat: ``dealer=True`` is refused rather
than read as seat 1. Seats are numbered clockwise (RULES.md section 1): the seat on a
player's left is the next one, and partners sit opposite. Every game and every part of the
service reads these two rules from here (``engine.interface.Game`` for the apps).

>>> left_of(3, 4), partner_of(1)
(0, 3)

>>> check_seat(2, 4, "dealer")
2
>>> check_seat(True, 4, "dealer")
Traceback (most recent call last):
...
engine.errors.SeatError: the dealer is a seat from 0 to 3, not True
"""

from __future__ import annotations

from engine.errors import SeatError

__all__ = ["check_seat", "left_of", "leftward", "partner_of"]


def check_seat(seat: object, players: int, role: str = "seat") -> int:
    """``seat`` if it is a seat of a ``players``-seat game; else ``SeatError`` naming ``role``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise SeatError(f"the {role} is a seat from 0 to {players - 1}, not {seat!r}")
    return seat


def left_of(seat: int, players: int, steps: int = 1) -> int:
    """The seat on ``seat``'s left (``steps`` seats on), who acts next: the turn, the
    deal and the dealer's place all pass to the left, clockwise (RULES.md section 1)."""
    return (seat + steps) % players


def leftward(players: int) -> tuple[int, ...]:
    """``left_of`` of every seat, indexed by seat: the table a hot loop reads instead of
    calling it (a tuple lookup costs what the arithmetic does, a call more)."""
    return tuple(left_of(seat, players) for seat in range(players))


def partner_of(seat: int) -> int:
    """The partner of ``seat`` in a game of two partnerships: the seat opposite (RULES.md
    section 1: seats 0 and 2 against 1 and 3)."""
    return (seat + 2) % 4
