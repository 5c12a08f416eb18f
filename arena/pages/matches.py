"""A match's page (each board's duplicate comparison, with links to the tables' replays)
and the list of matches with its filters."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import EmptyPage
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from arena import selectors
from arena.models import Match
from arena.pages.common import BadQuery, bad_request, choice, page_number, whole_number
from arena.queue_positions import match_queue_position, queue_text
from arena.variants import variant_names
from bots.controls import CONTROL_NAMES


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        page = selectors.match_page(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404(f"there is no match {match_id}") from None
    match = page.match
    interval = None
    if match.mean_x is not None and match.ci95 is not None:
        interval = (match.mean_x - match.ci95, match.mean_x + match.ci95)
    cv_interval = None
    if match.cv_mean_x is not None and match.cv_ci95 is not None:
        cv_interval = (match.cv_mean_x - match.cv_ci95, match.cv_mean_x + match.cv_ci95)
    return render(
        request,
        "arena/match.html",
        {
            "page": page,
            "match": match,
            "interval": interval,
            "cv_interval": cv_interval,
            # Rows longer than the reference pairing's carry the random bot's luck too.
            "cv_luck": any(len(row) > len(CONTROL_NAMES) for row in match.board_controls or ()),
            "seatings": page.seatings,
            "queue_place": queue_text(match_queue_position(match)),
        },
    )


def match_list(request: HttpRequest) -> HttpResponse:
    try:
        variant = choice(request, "variant", variant_names())
        status = choice(request, "status", Match.Status.values)
        bot = whole_number(request, "bot")
        number = page_number(request)
    except BadQuery as error:
        return bad_request(request, str(error))
    try:
        page = selectors.match_list_page(
            variant=variant, bot_id=bot, status=status, page_number=number
        )
    except EmptyPage:
        raise Http404(f"there is no page {number} of these matches") from None
    filters = {
        key: value
        for key, value in (("variant", variant), ("bot", bot), ("status", status))
        if value is not None
    }
    return render(
        request,
        "arena/matches.html",
        {
            "page": page,
            "variants": variant_names(),
            "statuses": Match.Status.values,
            "variant": variant,
            "status": status,
            "bot": bot,
            "query": urlencode(filters) + "&" if filters else "",
        },
    )
