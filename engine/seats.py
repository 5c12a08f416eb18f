"""Seat numbers: a seat is an ``int`` from 0 to the number of players minus one.

A ``bool`` is an ``int`` to Python but never a seat: ``dealer=True`` is refused rather
than read as seat 1.

>>> check_seat(2, 4, "dealer")
2
>>> check_seat(True, 4, "dealer")
Traceback (most recent call last):
...
engine.errors.SeatError: the dealer is a seat from 0 to 3, not True
"""

from __future__ import annotations

from engine.errors import SeatError

__all__ = ["check_seat"]


def check_seat(seat: object, players: int, role: str = "seat") -> int:
    """``seat`` if it is a seat of a ``players``-seat game; else ``SeatError`` naming ``role``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise SeatError(f"the {role} is a seat from 0 to {players - 1}, not {seat!r}")
    return seat
