"""Scoring a robot duplicate event: matchpoints with Neuberg, or cross-IMPs. No Django.

Every entrant plays each board once from South, so a board's results are North-South nets
(North-South's score minus East-West's) all from the same direction, and each is compared
with every other human result on the board (TOURNAMENTS.md, "Human pair events"):

- Matchpoints, 2/1 scale: 2 for each result beaten, 1 for each tie; the top of a board
  played n times is 2(n - 1). Boards are not all played equally often while an event runs
  (an entrant may stop half-way), so each board is scaled by Neuberg to the most-played
  board's count N: MP' = (MP + 1) N / n - 1, top 2(N - 1). An entrant's percentage is their
  matchpoints over the tops of the boards they played.
- IMPs: cross-IMPs. Each result is compared with every other result on the board, each
  difference converted with the project's scale (``tournaments.imps``), and the sum
  divided by the number of comparisons, so that a board weighs the same however many played
  it. (A datum would hinge on one average that a single wild result moves; cross-IMPs treat
  every comparison alike, as the matchpoints do.)

>>> board_matchpoints({"ann": 120, "ben": 80, "cy": 80}, planned=3)
{'ann': 4.0, 'ben': 1.0, 'cy': 1.0}
>>> from engine.registry import variant_names
>>> from tournaments.imps import has_imps
>>> variant = next(name for name in variant_names() if has_imps(name))
>>> board_cross_imps({"ann": 10**9, "ben": 0}, variant=variant)
{'ann': 20.0, 'ben': -20.0}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from tournaments.imps import imps
from tournaments.matchpoints import matchpoints, neuberg, percentage, top

K = TypeVar("K", bound=Hashable)
"""Whatever names an entrant: an entry id in the app, a name in the examples."""

__all__ = [
    "Standing",
    "board_cross_imps",
    "board_matchpoints",
    "standings",
]


def board_matchpoints(nets: Mapping[K, int], *, planned: int) -> dict[K, float]:
    """Each entrant's matchpoints on one board, scaled by Neuberg to ``planned`` results."""
    keys = list(nets)
    raw = matchpoints([nets[key] for key in keys])
    if len(keys) == planned:
        return {key: float(points) for key, points in zip(keys, raw, strict=True)}
    return {
        key: round(neuberg(points, played=len(keys), planned=planned), 2)
        for key, points in zip(keys, raw, strict=True)
    }


def board_cross_imps(nets: Mapping[K, int], *, variant: str) -> dict[K, float]:
    """Each entrant's IMPs against every other result on the board, averaged."""
    scored = {}
    for key, mine in nets.items():
        others = [
            imps(mine - other, variant) for other_key, other in nets.items() if other_key != key
        ]
        scored[key] = round(sum(others) / len(others), 2) if others else 0.0
    return scored


@dataclass(frozen=True, slots=True)
class Standing(Generic[K]):
    """One entrant's line: rank, boards played, and the score (percentage or IMPs)."""

    entrant: K
    rank: int
    boards: int
    matchpoints: float
    top: float
    percentage: float | None
    imps: float | None


def standings(
    results: Mapping[int, Mapping[K, int]], *, scoring: str, variant: str
) -> list[Standing[K]]:
    """Rank the entrants from ``results`` (board number -> entrant -> net).

    ``scoring`` is "mp" (ranked by percentage) or "imp" (ranked by total cross-IMPs).
    Entrants with equal scores share a rank.
    """
    planned = max((len(nets) for nets in results.values()), default=0)
    points: dict[K, float] = {}
    tops: dict[K, float] = {}
    boards: dict[K, int] = {}
    for nets in results.values():
        if scoring == "imp":
            scored = board_cross_imps(nets, variant=variant)
        else:
            scored = board_matchpoints(nets, planned=planned)
        for key, value in scored.items():
            points[key] = points.get(key, 0.0) + value
            tops[key] = tops.get(key, 0.0) + top(planned)
            boards[key] = boards.get(key, 0) + 1

    def score(key: K) -> float:
        if scoring == "imp":
            return round(points[key], 2)
        return round(percentage(points[key], tops[key]), 2)

    ordered = sorted(points, key=lambda key: -score(key))
    lines: list[Standing[K]] = []
    for index, key in enumerate(ordered):
        rank = lines[-1].rank if lines and score(lines[-1].entrant) == score(key) else index + 1
        lines.append(
            Standing(
                entrant=key,
                rank=rank,
                boards=boards[key],
                matchpoints=round(points[key], 2) if scoring != "imp" else 0.0,
                top=tops[key] if scoring != "imp" else 0.0,
                percentage=score(key) if scoring != "imp" else None,
                imps=score(key) if scoring == "imp" else None,
            )
        )
    return lines
