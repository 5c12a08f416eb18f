"""The leaderboard of each variant: ratings with their intervals, sortable and paginated.

Its content is the same for every reader: cached under the leaderboard's generation, which
every rating write replaces (arena/http/caching.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import EmptyPage
from django.http import HttpRequest, HttpResponse

from arena import selectors
from arena.errors import NotFound
from arena.http.caching import LEADERBOARD_TTL, leaderboard_page_key
from arena.models import Rating
from arena.pages import charts
from arena.pages.common import choice, page_number
from arena.pages.shared import framed, shared_content
from arena.variants import variant_choices, variant_names

SORT_LABELS = {
    "rating": "rating",
    "matches": "matches played",
    "boards": "boards played",
    "last_played": "last played",
}


SHOWN_DISAGREEMENTS = 3
"""The pairs a poor fit's notice names (the API lists them all)."""


@dataclass(frozen=True)
class FitNotice:
    """What the leaderboard says of its model check, in plain words."""

    poor: bool
    checkable: bool
    """Some pair's boards are not fixed by the ratings alone (three versions met in a cycle)."""
    pairs: list[str]
    more: int
    """Disagreeing pairs beyond the ones named."""
    summary: str


def fit_notice(found: selectors.RatingCheck | None) -> FitNotice | None:
    """The notice of a variant's model check (None before any rated board)."""
    if found is None:
        return None
    check = found.check

    def name(version_id: int) -> str:
        version = found.versions[version_id]
        return f"{version.bot.owner.user.username}/{version.bot.name} v{version.number}"

    pairs = []
    for item in check.disagreements[:SHOWN_DISAGREEMENTS]:
        # Told from the side that scored more than its rating predicts.
        ahead, behind, score, expected, residual = (
            (item.first, item.second, item.score, item.expected, item.residual)
            if item.residual > 0
            else (item.second, item.first, 1 - item.score, 1 - item.expected, -item.residual)
        )
        pairs.append(
            f"{name(ahead)} vs {name(behind)} scored {score:.0%} over {item.boards} boards"
            f" where their ratings predict {expected:.0%} ({residual:+.1f} standard errors)"
        )
    return FitNotice(
        poor=check.poor,
        checkable=check.degrees_of_freedom > 0,
        pairs=pairs,
        more=max(len(check.disagreements) - SHOWN_DISAGREEMENTS, 0),
        summary=f"deviance {check.deviance:.1f} on {check.degrees_of_freedom}"
        f" degree{'' if check.degrees_of_freedom == 1 else 's'} of freedom,"
        f" p = {check.p_value:.2g}",
    )


@dataclass(frozen=True)
class Row:
    """A leaderboard line, its numbers written once here rather than by template filters
    in every row (the cost of a page of fifty)."""

    rank: int
    rating: Rating
    bar: charts.IntervalBar
    value: str
    interval: tuple[str, str] | None


def leaderboard(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in variant_names():
        raise NotFound(f"there is no variant {variant!r}")
    sort = choice(request, "sort", selectors.LEADERBOARD_SORTS) or "rating"
    number = page_number(request)
    try:
        content = shared_content(
            leaderboard_page_key(variant=variant, sort=sort, page=number),
            "arena/_leaderboard.html",
            lambda: _content(variant, sort, number),
            LEADERBOARD_TTL,
        )
    except EmptyPage:
        raise NotFound(f"the {variant} leaderboard has no page {number}") from None
    return framed(request, f"Leaderboard: {variant}", content)


def _content(variant: str, sort: str, number: int) -> dict[str, Any]:
    """The leaderboard page's content, the same for every reader (raises EmptyPage)."""
    board = selectors.leaderboard_page(variant=variant, sort=sort, page_number=number)
    ratings = list(board.page.object_list)
    scale = charts.Scale.around(
        value
        for rating in ratings
        for value in (rating.value, rating.low, rating.high)
        if value is not None
    )
    rows = [
        Row(
            rank=board.page.start_index() + index,
            rating=rating,
            bar=charts.interval_bar(rating.value, rating.low, rating.high, scale),
            value=f"{rating.value:.0f}",
            interval=None
            if rating.low is None or rating.high is None
            else (f"{rating.low:.0f}", f"{rating.high:.0f}"),
        )
        for index, rating in enumerate(ratings)
    ]
    return {
        "variant": variant,
        "variant_label": dict(variant_choices())[variant],
        "variants": variant_choices(),
        "sort": sort,
        "sort_label": SORT_LABELS[sort],
        "page": board.page,
        "rows": rows,
        "scale": scale,
        "bar_width": charts.BAR_WIDTH,
        "fit": fit_notice(selectors.rating_check(variant=variant)),
    }
