"""The dated rating chart (``arena.pages.charts.dated_line``): every point and tick inside its
plot area, the dates in order along the bottom, round rating levels up the left."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from arena.pages import charts

START = datetime(2026, 1, 1, tzinfo=UTC)


@given(
    st.lists(
        st.tuples(st.integers(0, 3 * 365 * 24 * 3600), st.floats(0, 3000)),
        min_size=1,
        max_size=100,
    )
)
def test_a_dated_line_stays_inside_its_axes(steps: list[tuple[int, float]]) -> None:
    seconds = sorted(step for step, _ in steps)
    history = [
        (START + timedelta(seconds=at), value)
        for at, (_, value) in zip(seconds, steps, strict=True)
    ]
    chart = charts.dated_line(history)
    assert chart is not None and chart.line.steps == len(history) - 1
    points = [tuple(map(float, point.split(","))) for point in chart.points.split()]
    assert len(points) == len(history)
    for x, y in points:
        assert chart.left <= x <= chart.right and chart.top - 0.1 <= y <= chart.bottom + 0.1
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert chart.x_ticks[0].label == history[0][0].date().isoformat()
    assert chart.x_ticks[-1].label == history[-1][0].date().isoformat()
    assert 1 <= len(chart.x_ticks) <= 3
    assert 1 <= len(chart.y_ticks) <= 6
    for tick in chart.y_ticks:
        assert chart.top - 0.1 <= tick.at <= chart.bottom + 0.1
        assert tick.label.lstrip("-").isdigit()
    assert [tick.at for tick in chart.y_ticks] == sorted(
        (tick.at for tick in chart.y_ticks), reverse=True
    )


def test_no_history_draws_no_chart() -> None:
    assert charts.dated_line([]) is None
