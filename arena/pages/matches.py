"""A match's page (each board's duplicate comparison, with links to the tables' replays)
and the list of matches with its filters.

The content of both is the same for every reader and is cached (arena/pages/shared.py): a
finished match's page under its status, the list under its newest match and completion."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import EmptyPage
from django.http import HttpRequest, HttpResponse
from django.utils.safestring import SafeString

from arena import selectors
from arena.errors import NotFound
from arena.http.caching import MATCH_LIST_TTL, MATCH_PAGE_TTL, match_list_key, match_page_key
from arena.models import Match
from arena.pages.common import choice, page_number, whole_number
from arena.pages.shared import cached_content, framed, shared_content
from arena.queues.positions import match_queue_position, queue_text
from arena.services.control_value import KIND_LABELS
from arena.services.controls import CONTROL_KINDS, LUCK, reference_ran
from arena.variants import variant_names
from bots.controls import CONTROL_NAMES

FINISHED = (Match.Status.DONE, Match.Status.FAILED)


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    content, status = _match_shown(match_id)
    # A match not over yet refreshes its content (match_live) until it is.
    return framed(request, f"Match {match_id}", content, live=status not in FINISHED)


def match_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match page's content alone, which its page polls while the match is queued or
    running: the same for every reader, as the page's own."""
    content, _status = _match_shown(match_id)
    return HttpResponse(content)


def _match_shown(match_id: int) -> tuple[SafeString, str]:
    """The match page's content and the match's status (NotFound when there is none)."""
    # Done is a match's last status: its page, once cached, is served without a query.
    done = cached_content(match_page_key(match_id=match_id, status=Match.Status.DONE))
    if done is not None:
        return done, Match.Status.DONE
    status = selectors.match_status(match_id=match_id)
    if status is None:
        raise NotFound(f"there is no match {match_id}")
    # A finished match's page is the same for every reader and never changes: cached under
    # its status. A match in play changes with every board, so it is read afresh.
    key = match_page_key(match_id=match_id, status=status) if status in FINISHED else None
    try:
        content = shared_content(
            key, "arena/_match.html", lambda: _match_content(match_id), MATCH_PAGE_TTL
        )
    except Match.DoesNotExist:
        raise NotFound(f"there is no match {match_id}") from None
    return content, status


def _match_content(match_id: int) -> dict[str, Any]:
    """A match page's content (raises Match.DoesNotExist)."""
    page = selectors.match_page(match_id=match_id)
    match = page.match
    interval = None
    if match.mean_x is not None and match.ci95 is not None:
        interval = (match.mean_x - match.ci95, match.mean_x + match.ci95)
    cv_interval = None
    if match.cv_mean_x is not None and match.cv_ci95 is not None:
        cv_interval = (match.cv_mean_x - match.cv_ci95, match.cv_mean_x + match.cv_ci95)
    return {
        "page": page,
        "match": match,
        "interval": interval,
        "cv_interval": cv_interval,
        "cv_reference": _reference_ran(match),
        "cv_luck": _luck_ran(match),
        "controls": [
            {"label": KIND_LABELS[kind], **match.controls_run[kind]}
            for kind in CONTROL_KINDS
            if kind in (match.controls_run or {})
        ],
        "seatings": page.seatings,
        "queue_place": queue_text(match_queue_position(match)),
    }


def _reference_ran(match: Match) -> bool:
    rows = match.board_controls or []
    return bool(rows) and reference_ran(match.controls_run or {}, len(rows[0]))


def _luck_ran(match: Match) -> bool:
    runs = match.controls_run or {}
    if LUCK in runs:
        return bool(runs[LUCK].get("ran"))
    # Before the choice, rows longer than the reference pairing's carried the luck too.
    return any(len(row) > len(CONTROL_NAMES) for row in match.board_controls or ())


def match_list(request: HttpRequest) -> HttpResponse:
    variant = choice(request, "variant", variant_names())
    status = choice(request, "status", Match.Status.values)
    bot = whole_number(request, "bot")
    number = page_number(request)
    key = match_list_key(
        newest=selectors.newest_match(), filters=(variant, status, bot), page=number
    )
    try:
        content = shared_content(
            key,
            "arena/_matches.html",
            lambda: _list_content(variant, status, bot, number),
            MATCH_LIST_TTL,
        )
    except EmptyPage:
        raise NotFound(f"there is no page {number} of these matches") from None
    return framed(request, "Matches", content)


def _list_content(
    variant: str | None, status: str | None, bot: int | None, number: int
) -> dict[str, Any]:
    """A page of the match list's content (raises EmptyPage)."""
    page = selectors.match_list_page(variant=variant, bot_id=bot, status=status, page_number=number)
    filters = {
        key: value
        for key, value in (("variant", variant), ("bot", bot), ("status", status))
        if value is not None
    }
    return {
        "page": page,
        "variants": variant_names(),
        "statuses": Match.Status.values,
        "variant": variant,
        "status": status,
        "bot": bot,
        "query": urlencode(filters) + "&" if filters else "",
    }
