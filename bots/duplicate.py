"""Duplicate scoring for partnership games (RULES.md section 9, TOURNAMENTS.md).

Team X plays board b at two tables: at table A with X at seats 0/2, at table B with X at
seats 1/3, same cards in the same seats, same dealer. X's board result is
``(X - Y at table A) + (X - Y at table B)``.

A board ended by a bot's fault is scored as a forfeit: the faulting team scores
``-forfeit_penalty(rules)`` for that hand and the other team 0. The penalty is the
minimum bid plus every point the tricks hold (single4: 16 + 25 = 41; auction4: 250 + 250
= 500; double4: 50 + 50 = 100), more than a team loses by being set at the minimum, so a
fault never pays.

For ratings a match's score S for X is the share of board points won:
``S = P_X / (P_X + P_Y)`` where ``P_X`` sums X's positive board results and ``P_Y`` the
absolute value of X's negative ones; S = 0.5 when no board had a winner.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bots.table import BoardRecord
from engine.rng import SplitMix64
from engine.rules import Rules

TEAM_SWAP = (1, 0)
"""Table B seats team X where table A seats team Y."""


def board_seed(match_seed: int, board: int) -> int:
    """The deal seed of a match's ``board`` (1-based), derived from the match seed.

    Seeds keep 63 bits so that databases store them in a signed 64-bit column.
    """
    generator = SplitMix64(match_seed)
    value = 0
    for _ in range(board):
        value = generator.next_u64() >> 1
    return value


def board_dealer(board: int, players: int = 4) -> int:
    """Dealers rotate over the boards of a match, as over the hands of a game."""
    return (board - 1) % players


def forfeit_penalty(rules: Rules) -> int:
    return rules.min_bid + rules.total_in_tricks


def team_scores(record: BoardRecord, rules: Rules) -> tuple[int, int]:
    """The two teams' scores for one table's play of a board (team 0 = seats 0/2)."""
    if record.fault is not None:
        scores = [0, 0]
        scores[record.fault.seat % 2] = -forfeit_penalty(rules)
        return scores[0], scores[1]
    assert record.result is not None
    first, second = record.result.team_scores
    return first, second


def board_result(table_a: BoardRecord, table_b: BoardRecord, rules: Rules) -> int:
    """Team X's duplicate result on one board (X at seats 0/2 at table A, 1/3 at B)."""
    a0, a1 = team_scores(table_a, rules)
    b0, b1 = team_scores(table_b, rules)
    return (a0 - a1) + (b1 - b0)


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
