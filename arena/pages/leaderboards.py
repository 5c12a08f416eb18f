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
    }
