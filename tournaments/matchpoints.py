"""Matchpoints for human duplicate events: the 2/1 scale, Neuberg and percentages.

Pure functions, no Django. The definitions are the standard ones (TOURNAMENTS.md):

- Matchpoints on the 2/1 scale: 2 for each result beaten, 1 for each tie, so the top on a
  board played n times is 2(n - 1); the other direction gets top - MP. The "1 and 1/2"
  scale is exactly half.
- Neuberg, for a board played n times where N were planned (2/1 scale):
  MP' = (MP + 1) N / n - 1, which also scales the top to 2(N - 1).
- Percentage = matchpoints / top, summed over the boards a pair played.

>>> matchpoints([420, 420, 450, 170, -50])
[5, 5, 8, 2, 0]
>>> neuberg(8, played=5, planned=6)
9.8
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "BoardScores",
    "board_matchpoints",
    "half_scale",
    "matchpoints",
    "neuberg",
    "percentage",
    "top",
]


def matchpoints(results: Sequence[float]) -> list[int]:
    """Each result's matchpoints on the 2/1 scale against the other results."""
    return [
        sum(2 if mine > other else 1 if mine == other else 0 for other in results) - 1
        for mine in results
    ]


def top(played: int) -> int:
    """The most matchpoints a board played ``played`` times can give (2/1 scale)."""
    return 2 * (played - 1)


def half_scale(points: float) -> float:
    """2/1-scale matchpoints on the "1 and 1/2" scale."""
    return points / 2


def neuberg(points: float, *, played: int, planned: int) -> float:
    """Scale matchpoints from a board played ``played`` times to ``planned`` (2/1 scale)."""
    if not 1 <= played <= planned:
        raise ValueError(f"a board is played 1 to {planned} times, not {played}")
    return (points + 1) * planned / played - 1


def percentage(points: float, possible: float) -> float:
    """Matchpoints as a percentage of the top; 50 when nothing could be scored."""
    return 50.0 if possible == 0 else 100.0 * points / possible


@dataclass(frozen=True, slots=True)
class BoardScores:
    """One table's matchpoints on one board, after Neuberg when needed."""

    ns: float
    ew: float
    top: float


def board_matchpoints(
    ns_results: Mapping[Hashable, float], *, planned: int
) -> dict[Hashable, BoardScores]:
    """Matchpoint a board: ``ns_results`` maps each table to North-South's net result.

    East-West gets top - MP. When the board was played fewer times than ``planned``, both
    directions are scaled by Neuberg so that they compare with the full boards' top.
    """
    keys = list(ns_results)
    played = len(keys)
    if played > planned:
        raise ValueError(f"a board planned {planned} times cannot be played {played} times")
    raw = matchpoints([ns_results[key] for key in keys])
    board_top = top(played)
    scored = {}
    for key, points in zip(keys, raw, strict=True):
        ns, ew = float(points), float(board_top - points)
        if played < planned:
            ns = neuberg(ns, played=played, planned=planned)
            ew = neuberg(ew, played=played, planned=planned)
        scored[key] = BoardScores(ns, ew, float(top(planned)))
    return scored
