"""The lobby's pages: the list of tables and the new-table form, a card table (seated or
watching), the invitation, the game's result.

The card table is drawn in the browser from the frame (``selectors.frame_for``), the first
one in the page itself, the next ones over the table's socket (``lobby.consumers``). Every
move the socket takes is also taken here by POST (``table_act``, ``table_talk``) with the
frame polled from ``table_frame``, so that a table works where the socket does not. The
seat changes (sit, leave, give a seat to a bot) are plain forms.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from arena.errors import ServiceError, form_refused, refuses_as
from engine.registry import variant_names
from lobby import selectors, services
from lobby.errors import BadTable, TableNotFound
from lobby.models import GameTable
from lobby.pages.forms import NewTableForm, bot_spec
from lobby.words import WORDS
from tables.pages.forms import bot_choices

LISTED = 30
"""How many tables of each kind the lobby lists."""


def _lobby_context(request: HttpRequest, form: NewTableForm | None = None) -> dict[str, Any]:
    if form is None:
        variant = request.GET.get("variant", "")
        form = NewTableForm(variant=variant if variant in variant_names() else None)
    return {
        "form": form,
        "waiting": selectors.tables_listed(status=GameTable.Status.WAITING)[:LISTED],
        "playing": selectors.tables_listed(status=GameTable.Status.PLAYING)[:LISTED],
        "finished": selectors.tables_listed(status=GameTable.Status.FINISHED)[:10],
    }


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/lobby.html", _lobby_context(request))


@refuses_as("text")
@require_GET
def new_table_options(request: HttpRequest) -> HttpResponse:
    """The form's fields that depend on the variant (seats, bots, house rules), for
    ``?variant=``: htmx swaps them in when the variant changes."""
    variant = request.GET.get("variant", "")
    if variant not in variant_names():
        raise BadTable(f"choose a variant ({', '.join(variant_names())}), not {variant!r}")
    return render(request, "lobby/_variant_fields.html", {"form": NewTableForm(variant=variant)})


@login_required
@require_http_methods(["GET", "POST"])
def new_table(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return redirect(reverse("lobby:lobby") + "#new-table")
    form = NewTableForm(request.POST)
    if form.is_valid():
        try:
            table = services.table_open(host=request.user, **form.table_settings())  # type: ignore[arg-type]
        except ServiceError as refusal:
            form.add_error(None, refusal.message)
            page = render(request, "lobby/lobby.html", _lobby_context(request, form))
            return form_refused(page, refusal)
        return redirect("lobby:table", table.pk)
    page = render(request, "lobby/lobby.html", _lobby_context(request, form), status=400)
    return page


def _table_context(request: HttpRequest, table_id: int, token: str = "") -> dict[str, Any]:
    frame = selectors.frame_for(table_id=table_id, viewer=request.user)
    table = selectors.table_for(table_id=table_id)
    token = token or (frame["viewer"]["token"] or "")
    return {
        "table": table,
        "frame": frame,
        "token": token,
        "invite_url": request.build_absolute_uri(reverse("lobby:join", args=[table.pk, token]))
        if frame["viewer"]["host"]
        else "",
        "talk_words": [{"key": key, "text": text} for key, text in WORDS.items()],
        "bot_choices": bot_choices(table.variant),
        "server_time": f"{time.time():.3f}",
        "csrf": get_token(request),
    }


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    return render(request, "lobby/table.html", _table_context(request, table_id))


@require_GET
def join_page(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    """The invitation: the table with its seats kept for invited people, to sit in one."""
    table = selectors.table_for(table_id=table_id)
    if token != table.invite_token:
        raise TableNotFound("this invitation is not the table's: ask the host for the link again")
    return render(request, "lobby/table.html", _table_context(request, table_id, token))


@refuses_as("json")
@require_GET
def table_frame(request: HttpRequest, table_id: int) -> JsonResponse:
    """The frame as the viewer may see it now: polled where the socket fails."""
    return JsonResponse({"frame": selectors.frame_for(table_id=table_id, viewer=request.user)})


def _whole(raw: str, name: str) -> int:
    if not raw.isdigit():
        raise BadTable(f"{name} is a whole number, not {raw!r}")
    return int(raw)


@refuses_as("json")
@require_POST
def table_act(request: HttpRequest, table_id: int) -> JsonResponse:
    ply = _whole(request.POST.get("ply", ""), "the ply an action answers")
    action = request.POST.get("action", "").strip()
    try:
        services.table_act(table_id=table_id, user=request.user, action=action, ply=ply)
    except ServiceError as refusal:
        frame = selectors.frame_for(table_id=table_id, viewer=request.user)
        return JsonResponse({"message": refusal.message, "frame": frame}, status=refusal.status)
    return JsonResponse({"frame": selectors.frame_for(table_id=table_id, viewer=request.user)})


@refuses_as("json")
@require_POST
def table_talk(request: HttpRequest, table_id: int) -> JsonResponse:
    services.table_talk(table_id=table_id, user=request.user, key=request.POST.get("key", ""))
    return JsonResponse({"frame": selectors.frame_for(table_id=table_id, viewer=request.user)})


@login_required
@require_POST
def table_sit(request: HttpRequest, table_id: int) -> HttpResponse:
    seat = _whole(request.POST.get("seat", ""), "the seat")
    token = request.POST.get("token", "") or None
    services.table_sit(table_id=table_id, user=request.user, seat=seat, token=token)
    return redirect("lobby:table", table_id)


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    table = services.table_leave(table_id=table_id, user=request.user)
    if table.status == GameTable.Status.FINISHED:
        return redirect("lobby:lobby")
    return redirect("lobby:table", table_id)


@login_required
@require_POST
def table_fill(request: HttpRequest, table_id: int) -> HttpResponse:
    seat = _whole(request.POST.get("seat", ""), "the seat")
    choice = request.POST.get("bot", "")
    kind, _, value = choice.partition(":")
    if not (kind == "reference" and value) and not (kind == "arena" and value.isdigit()):
        raise BadTable(f"choose a bot as reference:<name> or arena:<version id>, not {choice!r}")
    services.table_fill(table_id=table_id, user=request.user, seat=seat, bot=bot_spec(choice))
    return redirect("lobby:table", table_id)


@require_GET
def result_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The game's score pad, hand by hand, each hand linked to the replay viewer once the
    game is over (before that a hand's cards are not everybody's to see)."""
    frame = selectors.frame_for(table_id=table_id, viewer=request.user)
    table = selectors.table_for(table_id=table_id)
    hands = [
        {
            "number": number,
            "scores": scores,
            "replay_url": reverse("lobby:hand-replay", args=[table.pk, number])
            if table.is_over and table.started is not None
            else "",
        }
        for number, scores in enumerate(frame["scores"]["hands"], start=1)
    ]
    return render(request, "lobby/result.html", {"table": table, "frame": frame, "hands": hands})
