"""Geometry of the pages' server-rendered SVG charts: pure arithmetic, no Django.

The pages draw with SVG attributes (x, width, points) rather than inline styles, which the
site's Content-Security-Policy forbids. Every coordinate is in the chart's own viewBox.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

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


@dataclass(frozen=True)
class Tick:
    """One labelled mark on an axis, at ``at`` in the chart's viewBox."""

    at: float
    label: str


@dataclass(frozen=True)
class DatedChart:
    """A rating over time with its axes: the plot area runs from ``left`` to ``right`` and
    from ``top`` to ``bottom`` of a ``width`` x ``height`` viewBox, the dates along the
    bottom and the ratings up the left."""

    line: LineChart
    """The same summary the undated chart has (first, last, low, high, steps)."""
    points: str
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    width: int = 480
    height: int = 200
    left: int = 48
    right: int = 468
    top: int = 12
    bottom: int = 168

    @property
    def plot_width(self) -> int:
        return self.right - self.left

    @property
    def middle(self) -> float:
        return (self.left + self.right) / 2

    @property
    def plot_height(self) -> int:
        return self.bottom - self.top


def nice_step(span: float, *, most: int = 5) -> float:
    """The round step (1, 2 or 5 times a power of ten) giving at most ``most`` ticks.

    >>> nice_step(100)
    20.0
    >>> nice_step(7)
    2.0
    >>> nice_step(0)
    1.0
    """
    if span <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(span / most))
    for factor in (1, 2, 5, 10):
        if span / (factor * power) <= most:
            return float(factor * power)
    return 10 * power  # pragma: no cover - the loop's last factor always fits


def dated_line(history: Sequence[tuple[datetime, float]]) -> DatedChart | None:
    """The chart of ratings at their dates (the first the rating before any of them).

    >>> from datetime import datetime, timezone as tz
    >>> chart = dated_line([(datetime(2026, 1, 1, tzinfo=tz.utc), 1500.0),
    ...                     (datetime(2026, 1, 11, tzinfo=tz.utc), 1540.0)])
    >>> chart.points
    '48.0,168.0 468.0,12.0'
    >>> [tick.label for tick in chart.x_ticks]
    ['2026-01-01', '2026-01-11']
    >>> [tick.label for tick in chart.y_ticks]
    ['1500', '1510', '1520', '1530', '1540']
    >>> dated_line([]) is None
    True
    """
    if not history:
        return None
    values = [value for _when, value in history]
    summary = rating_line(values)
    assert summary is not None
    frame = DatedChart(line=summary, points="", x_ticks=[], y_ticks=[])
    plot_w, plot_h = frame.right - frame.left, frame.bottom - frame.top
    ratings = Scale(min(values), max(values)) if max(values) > min(values) else None
    if ratings is None:
        # One level: the line runs across the middle, the axis half a step either side.
        ratings = Scale(values[0] - 50.0, values[0] + 50.0)
    start, end = history[0][0], history[-1][0]
    seconds = (end - start).total_seconds()

    def x(when: datetime) -> float:
        share = 0.5 if seconds <= 0 else (when - start).total_seconds() / seconds
        return round(frame.left + share * plot_w, 1)

    def y(value: float) -> float:
        return round(frame.bottom - ratings.x(value, plot_h), 1)

    step = nice_step(ratings.high - ratings.low)
    y_ticks = []
    level = math.ceil(ratings.low / step - 1e-9) * step
    while level <= ratings.high + 1e-9:
        y_ticks.append(Tick(y(level), f"{level:.0f}"))
        level += step
    dates = [start] if seconds <= 0 else [start, end]
    if seconds > 0 and len(history) > 2:
        # A middle date where there is room for it between the two ends' labels.
        middle = start + (end - start) / 2
        dates.insert(1, middle)
    x_ticks = [Tick(x(when), when.date().isoformat()) for when in dates]
    points = " ".join(f"{x(when)},{y(value)}" for when, value in history)
    return DatedChart(line=summary, points=points, x_ticks=x_ticks, y_ticks=y_ticks)
