"""Duplicate scoring (RULES.md section 9, TOURNAMENTS.md "Duplicate for bots").

A match between bots X and Y plays every board at several tables with the same cards in
the same seats: partnership games at two tables (X at seats 0/2, then at 1/3), individual
games once for each arrangement of the two bots over the seats (``Game.seatings``). At each
table X's result is the mean score of X's seats minus the mean score of Y's seats; X's
board result is the sum over the tables. In a partnership game that is
``(X - Y at table A) + (X - Y at table B)``.

A board ended by a bot's fault is scored as a forfeit from the position where the fault
happened (``engine.forfeit``): every seat of the faulting bot scores the lowest its side
could still have reached from there (a declaring side is set, a side still in the
auction is set at the highest bid the ladder allows, a defending side takes nothing; in
Pinnacolo it keeps nothing it could lose and holds every card it could be left with), and
every seat of the other bot the highest its side could still have reached (its meld, or
the most its cards could meld, and every counter not yet taken). X's table result after
its own fault is therefore at most what any finish of the hand would have given it: a
fault never pays, and a fault late in a hand costs little more than the hand itself.

For ratings a match's score S for X is the share of board points won:
``S = P_X / (P_X + P_Y)`` where ``P_X`` sums X's positive board results and ``P_Y`` the
absolute value of X's negative ones; S = 0.5 when no board had a winner.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bots.table import BoardRecord
from engine.interface import AnyGame, AnyState
from engine.rng import SplitMix64


def board_seed(match_seed: int, board: int) -> int:
    """The deal seed of a match's ``board`` (1-based), derived from the match seed.

    Seeds keep 63 bits so that databases store them in a signed 64-bit column.
    """
    generator = SplitMix64(match_seed)
    value = 0
    for _ in range(board):
        value = generator.next_u64() >> 1
    return value


def seat_scores(
    record: BoardRecord, game: AnyGame, rules: Any, seating: Sequence[int] | None = None
) -> tuple[int, ...]:
    """What each seat's side scored at one table's play of a board (forfeits included).

    ``seating`` (which bot sits in each seat) makes a fault forfeit every seat of the
    faulting bot, as its table result counts them all; without it, the faulting seat's side.
    """
    if record.fault is not None:
        faulting = record.fault.seat
        leavers = (
            [seat for seat in range(game.players) if seating[seat] == seating[faulting]]
            if seating is not None
            else [faulting]
        )
        sides = game.with_rules(rules).forfeit_scores(
            position_at_fault(record, game, rules), leavers
        )
        return tuple(sides[game.side_of(seat)] for seat in range(game.players))
    assert record.result is not None
    sides = record.result.team_scores
    return tuple(int(sides[game.side_of(seat)]) for seat in range(game.players))


def position_at_fault(record: BoardRecord, game: AnyGame, rules: Any) -> AnyState:
    """The hand as it stood when the board ended: the deal with every recorded move."""
    state: AnyState = game.with_rules(rules).new_initial_state(
        seed=record.seed, dealer=record.dealer
    )
    for move in record.moves:
        state.apply(game.parse_action(move.action))
    return state


def side_scores(
    record: BoardRecord, game: AnyGame, rules: Any, seating: Sequence[int] | None = None
) -> list[int]:
    """One score per side (team, or seat in individual games), as a result lists them."""
    by_seat = seat_scores(record, game, rules, seating)
    return [by_seat[seats[0]] for seats in game.teams]


def table_result(
    record: BoardRecord, seating: Sequence[int], game: AnyGame, rules: Any
) -> Fraction:
    """X's mean seat score minus Y's at one table (``seating[seat]`` is 0 for X, 1 for Y):
    the game's ``margin``, a fault forfeiting every seat of the faulting bot."""
    return game.margin(side_scores(record, game, rules, seating), seating)


def board_result(tables: Mapping[str, BoardRecord], game: AnyGame, rules: Any) -> int:
    """X's duplicate result on one board: the sum of its table results, rounded."""
    seatings = game.seatings
    total = sum(
        (table_result(record, seatings[name], game, rules) for name, record in tables.items()),
        Fraction(0),
    )
    return round(total)


@dataclass(frozen=True)
class Summary:
    """A match from team X's side: mean board result with its 95% interval."""

    boards: int
    total: int
    mean: float
    ci95: float
    won: int
    lost: int
    tied: int
    share: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.mean - self.ci95, self.mean + self.ci95

    @property
    def significant(self) -> bool:
        """Whether the 95% interval excludes zero."""
        low, high = self.interval
        return low > 0 or high < 0

    def to_json(self) -> dict[str, float | int]:
        return {
            "boards": self.boards,
            "total": self.total,
            "mean": round(self.mean, 3),
            "ci95": round(self.ci95, 3),
            "won": self.won,
            "lost": self.lost,
            "tied": self.tied,
            "share": round(self.share, 4),
        }


def summarize(results: Sequence[int]) -> Summary:
    """Mean board result and a normal-approximation 95% interval (1.96 standard errors)."""
    count = len(results)
    if count == 0:
        raise ValueError("no boards to summarize")
    mean = statistics.fmean(results)
    spread = statistics.stdev(results) if count > 1 else 0.0
    won = sum(1 for r in results if r > 0)
    lost = sum(1 for r in results if r < 0)
    return Summary(
        boards=count,
        total=sum(results),
        mean=mean,
        ci95=1.96 * spread / math.sqrt(count),
        won=won,
        lost=lost,
        tied=count - won - lost,
        share=points_share(results),
    )


def points_share(results: Sequence[int]) -> float:
    """S for ratings: X's share of the board points won by either side."""
    gained = sum(r for r in results if r > 0)
    conceded = -sum(r for r in results if r < 0)
    if gained + conceded == 0:
        return 0.5
    return gained / (gained + conceded)
