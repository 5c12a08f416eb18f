"""Geometry of the pages' server-rendered SVG charts: pure arithmetic, no Django.

The pages draw with SVG attributes (x, width, points) rather than inline styles, which the
site's Content-Security-Policy forbids. Every coordinate is in the chart's own viewBox.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BAR_WIDTH = 200
"""The interval bar's viewBox width; the bar is scaled to fill it on any screen."""


@dataclass(frozen=True)
class Scale:
    """The rating range that a page's bars share, so that bars compare across rows."""

    low: float
    high: float

    @classmethod
    def around(cls, values: Iterable[float], *, margin: float = 0.05) -> Scale:
        """The smallest range holding every value, widened by ``margin`` of it on each side.

        >>> Scale.around([1450, 1550])
        Scale(low=1445.0, high=1555.0)
        >>> Scale.around([1500])
        Scale(low=1450.0, high=1550.0)
        """
        points = list(values)
        if not points:
            return cls(1450.0, 1550.0)
        low, high = min(points), max(points)
        if high - low < 1e-9:
            return cls(low - 50.0, high + 50.0)
        pad = (high - low) * margin
        return cls(low - pad, high + pad)

    def x(self, value: float, width: float) -> float:
        return round((value - self.low) / (self.high - self.low) * width, 2)


@dataclass(frozen=True)
class IntervalBar:
    """A rating's 95% interval as a bar from ``x`` of ``width``, the rating at ``mark``."""

    x: float
    width: float
    mark: float


def interval_bar(value: float, low: float | None, high: float | None, scale: Scale) -> IntervalBar:
    """The bar of one rating; with no interval (not fitted yet) the bar is the mark alone.

    >>> interval_bar(1500, 1450, 1550, Scale(1400, 1600))
    IntervalBar(x=50.0, width=100.0, mark=100.0)
    """
    mark = scale.x(value, BAR_WIDTH)
    if low is None or high is None:
        return IntervalBar(x=mark, width=0.0, mark=mark)
    start, end = scale.x(min(low, high), BAR_WIDTH), scale.x(max(low, high), BAR_WIDTH)
    return IntervalBar(x=start, width=round(end - start, 2), mark=mark)


CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_PAD = 6


@dataclass(frozen=True)
class LineChart:
    """A rating history as an SVG polyline, with the range it spans for its labels."""

    points: str
    first: float
    last: float
    low: float
    high: float
    steps: int


def rating_line(ratings: Sequence[float]) -> LineChart | None:
    """The polyline of successive ratings (the first is the rating before any match).

    >>> rating_line([1500.0, 1520.0, 1510.0]).points
    '6.0,114.0 160.0,6.0 314.0,60.0'
    >>> rating_line([]) is None
    True
    """
    if not ratings:
        return None
    scale = Scale(min(ratings), max(ratings)) if max(ratings) > min(ratings) else None
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(1, len(ratings) - 1)
    coordinates = []
    for index, rating in enumerate(ratings):
        x = CHART_PAD + index * step
        height = inner_h / 2 if scale is None else scale.x(rating, inner_h)
        y = CHART_HEIGHT - CHART_PAD - height
        coordinates.append(f"{round(x, 1)},{round(y, 1)}")
    return LineChart(
        points=" ".join(coordinates),
        first=ratings[0],
        last=ratings[-1],
        low=min(ratings),
        high=max(ratings),
        steps=len(ratings) - 1,
    )
