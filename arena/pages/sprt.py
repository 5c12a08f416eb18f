"""Rating pages: the SPRT of two versions, its LLR path drawn on the server as SVG."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena import selectors
from arena.api.serializers import SprtQuerySerializer
from arena.elo import SprtPath
from arena.models import BotVersion

WIDTH, HEIGHT = 640, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48, 12, 12, 32


@dataclass(frozen=True)
class Chart:
    """The LLR path in SVG coordinates (y grows downwards)."""

    width: int
    height: int
    points: str
    upper_y: float
    lower_y: float
    zero_y: float
    left: int
    right: int
    top: int
    bottom: int
    boards: int
    """Boards played (the x axis spans at least one)."""
    llr_top: float
    llr_bottom: float
    stop_x: float | None
    stop_y: float | None


def chart_of(path: SprtPath) -> Chart:
    boards = max(path.points[-1][0], 1)
    lower, upper = path.final.lower_bound, path.final.upper_bound
    llrs = [llr for _, llr in path.points]
    # Always show both bounds, with a little room above and below them.
    top_value = max(upper, *llrs) * 1.1
    bottom_value = min(lower, *llrs) * 1.1
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def x(board: int) -> float:
        return round(left + (right - left) * board / boards, 1)

    def y(llr: float) -> float:
        return round(top + (bottom - top) * (top_value - llr) / (top_value - bottom_value), 1)

    stop = path.stopped_at
    stop_llr = next((llr for board, llr in path.points if board == stop), None)
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{x(board)},{y(llr)}" for board, llr in path.points),
        upper_y=y(upper),
        lower_y=y(lower),
        zero_y=y(0.0),
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        boards=path.points[-1][0],
        llr_top=round(top_value, 2),
        llr_bottom=round(bottom_value, 2),
        stop_x=None if stop is None else x(stop),
        stop_y=None if stop_llr is None else y(stop_llr),
    )


def sprt(request: HttpRequest) -> HttpResponse:
    """/ratings/sprt/?a=NEW&b=OLD[&elo0=&elo1=&alpha=&beta=]: the test and its LLR path."""
    context: dict[str, Any] = {"query": request.GET}
    if "a" not in request.GET and "b" not in request.GET:
        return render(request, "arena/sprt.html", context)
    query = SprtQuerySerializer(data=request.GET)
    errors: list[str] = []
    if query.is_valid():
        data = query.validated_data
        versions = BotVersion.objects.select_related("bot__owner__user").in_bulk(
            [data["a"], data["b"]]
        )
        errors = [
            f"{key}: there is no bot version {data[key]}"
            for key in ("a", "b")
            if data[key] not in versions
        ]
        if not errors and versions[data["a"]].bot.variant != versions[data["b"]].bot.variant:
            errors.append("b: the two versions play different variants")
    else:
        errors = [
            f"{field}: {message}"
            for field, messages in query.errors.items()
            for message in messages
        ]
    if errors:
        context["errors"] = errors
        return render(request, "arena/sprt.html", context, status=400)
    report = selectors.sprt_between(
        a=versions[data["a"]],
        b=versions[data["b"]],
        elo0=data["elo0"],
        elo1=data["elo1"],
        alpha=data["alpha"],
        beta=data["beta"],
    )
    context.update(report=report, data=data, chart=chart_of(report.path))
    return render(request, "arena/sprt.html", context)
