"""An IMP-like scale: a board's swing between two rooms as a bounded number.

Bridge's IMP table does not fit pinochle scores, so each game declares its own scale
(``Game.imp_scales``, by variant: twenty rising swing thresholds, from simulation, see
``tournaments.imp_calibration``). A swing is a team's net result in one room
minus the other room's on the same board; it earns one IMP for each threshold it reaches,
at most 20, so one wild board weighs at most as much as a twentieth-percentile one does
twenty times. ``imps`` is all that scoring needs:

>>> from engine.registry import variant_names
>>> variant = next(name for name in variant_names() if has_imps(name))
>>> imps(0, variant), imps(-10**9, variant), imps(10**9, variant)
(0, -20, 20)
"""

from __future__ import annotations

from engine.registry import load_game

__all__ = ["MAX_IMPS", "has_imps", "imp_thresholds", "imps"]

MAX_IMPS = 20


def imp_thresholds(variant: str) -> tuple[int, ...]:
    """The variant's IMP thresholds, as its game declares them (``LookupError`` if none)."""
    scale = load_game(variant).imp_scale
    if scale is None:
        raise LookupError(f"{variant} has no IMP scale")
    return scale


def has_imps(variant: str) -> bool:
    return load_game(variant).imp_scale is not None


def imps(swing: int, variant: str) -> int:
    """The IMPs of a swing: positive for the team that gained, bounded by 20."""
    magnitude = abs(swing)
    earned = sum(1 for threshold in imp_thresholds(variant) if magnitude >= threshold)
    return earned if swing >= 0 else -earned
