"""The play pages: start a hand with bots, play it, watch bots answer, see the result.

The table page is server-rendered from ``selectors.table_view``. Actions are plain form
POSTs (the page works without script); htmx sends them in the background and swaps in the
state fragment, and polls that fragment while an arena bot is thinking. ``play.js`` then
reveals the bots' moves one at a time (``settings.PLAY_REVEAL_MS``), which a click or Escape
skips.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from arena.errors import NotFound, ServiceError, TooManyAttempts, form_refused, refuses_as
from arena.replay_view import ViewError, replay_frames, side_rows
from arena.seeding import match_seed, new_secret
from engine.registry import load_game, variant_names
from tables import selectors, services
from tables.errors import BadTable, PlayError
from tables.pages.forms import VariantForm, deal_options, default_variant
from tables.throttles import PLAY_TABLES


def bot_spec(choice: str) -> dict[str, Any]:
    """A bot spec from a form's choice (``reference:greedy``, ``arena:12``)."""
    kind, _, value = choice.partition(":")
    if kind == "reference" and value:
        return {"kind": "reference", "name": value}
    if kind == "arena" and value.isdigit():
        return {"kind": "arena", "version": int(value)}
    raise BadTable(f"choose a bot as reference:<name> or arena:<version id>, not {choice!r}")


def new_seed() -> int:
    """A deal seed drawn by the server; the page never learns it before the hand ends."""
    return match_seed(new_secret())


def start_from_form(request: HttpRequest) -> Any:
    """Read the start form and start the table (BadTable names a bad field)."""
    variant = request.POST.get("variant", "")
    known = variant_names()
    if variant not in known:
        raise BadTable(f"choose a variant ({', '.join(known)}), not {variant!r}")
    game = load_game(variant)
    raw_seat = request.POST.get("seat", "0")
    if not raw_seat.isdigit() or int(raw_seat) >= game.players:
        raise BadTable(f"your seat is one from 0 to {game.players - 1}, not {raw_seat!r}")
    seat = int(raw_seat)
    opponent = bot_spec(request.POST.get("bots") or deal_options(variant).chosen_bot)
    partner_choice = request.POST.get("partner", "")
    partner = bot_spec(partner_choice) if partner_choice else opponent
    bots = [
        partner if other == game.partner_of(seat) else opponent
        for other in range(game.players)
        if other != seat
    ]
    return services.table_start(
        owner=request.user,  # type: ignore[arg-type]
        variant=variant,
        seed=new_seed(),
        dealer=secrets.randbelow(game.players),
        human_seat=seat,
        bots=bots,
        casual=True,
    )


def _home_context(request: HttpRequest, error: str | None = None) -> dict[str, Any]:
    # A refused start shows the form as posted; a link may name the variant (?variant=).
    form = VariantForm(request.POST or {"variant": request.GET.get("variant", default_variant())})
    return {
        "form": form,
        "options": deal_options(form.chosen()),
        "tables": selectors.visible_tables(viewer=request.user)[:20],
        "error": error,
    }


def play_home(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/home.html", _home_context(request))


@refuses_as("text")
@require_GET
def deal_options_fragment(request: HttpRequest) -> HttpResponse:
    """The deal form's seats and bots for ``?variant=`` (htmx swaps them in on a change);
    the challenge form's bots with ``?form=challenge``."""
    form = VariantForm(request.GET)
    if not form.is_valid():
        known = ", ".join(variant_names())
        raise BadTable(f"choose a variant ({known}), not {request.GET.get('variant', '')!r}")
    options = deal_options(form.chosen())
    template = (
        "tables/_challenge_options.html"
        if request.GET.get("form") == "challenge"
        else "tables/_deal_options.html"
    )
    return render(request, template, {"options": options})


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    try:
        # Only a table started keeps its slot (a refused one hands it back).
        with PLAY_TABLES.spend(request):
            table = start_from_form(request)
    except ServiceError as refusal:
        # The start form again, as posted, with the refusal above it.
        message = (
            f"too many tables started: try again in {refusal.wait} seconds"
            if isinstance(refusal, TooManyAttempts)
            else refusal.message
        )
        return form_refused(
            render(request, "tables/home.html", _home_context(request, message)), refusal
        )
    return redirect("tables:table", table.pk)


def _seen(request: HttpRequest, ply: int) -> int:
    raw = request.GET.get("seen", "")
    return int(raw) if raw.isdigit() and int(raw) <= ply else ply


def _state_context(
    request: HttpRequest, table: Any, *, seen: int, error: str = ""
) -> dict[str, Any]:
    view = selectors.table_view(table=table, viewer=request.user)
    return {
        "view": view,
        # The game's own template draws what its view holds beyond the generic parts.
        "game_templates": [f"tables/games/{view['game']}.html", "tables/games/_generic.html"],
        "table": table,
        "seen": seen,
        "frames": selectors.frames_since(table, since=seen),
        "error": error,
        "reveal_ms": settings.PLAY_REVEAL_MS,
        "state_url": reverse("tables:table-state", args=[table.pk]),
        "act_url": reverse("tables:table-act", args=[table.pk]),
    }


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = selectors.table_for(table_id=table_id, viewer=request.user)
    # A fresh load shows the table as it is: there is nothing to reveal.
    context = _state_context(request, table, seen=table.ply)
    return render(request, "tables/table.html", context)


@refuses_as("text")
@require_GET
def table_state(request: HttpRequest, table_id: int) -> HttpResponse:
    """The state fragment, with the moves after ``?seen=`` to reveal; polled by htmx."""
    table = selectors.table_for(table_id=table_id, viewer=request.user)
    if not table.is_over:
        services.table_nudge(table_id=table.pk)
    context = _state_context(request, table, seen=_seen(request, table.ply))
    return render(request, "tables/_state.html", context)


@require_POST
def table_act(request: HttpRequest, table_id: int) -> HttpResponse:
    raw_ply = request.POST.get("ply", "")
    action = request.POST.get("action", "").strip()
    if request.POST.get("use_bid"):
        action = request.POST.get("bid-choice", "").strip()
    elif request.POST.get("verb") and request.POST.getlist("card"):
        # Several cards picked for a give or a bury: the action names them all.
        action = " ".join([request.POST["verb"], *request.POST.getlist("card")])
    try:
        table = selectors.table_for(table_id=table_id, viewer=request.user)
        if not raw_ply.isdigit():
            raise BadTable(f"an action names the ply it answers, a whole number, not {raw_ply!r}")
        update = services.table_act(
            table_id=table.pk, user=request.user, action=action, ply=int(raw_ply)
        )
    except PlayError as error:
        if isinstance(error, NotFound):
            raise  # no such table: the refusal page, as for any page
        # The table again, the refusal shown where the action was chosen.
        table = selectors.table_for(table_id=table_id, viewer=request.user)
        context = _state_context(request, table, seen=table.ply, error=error.message)
        template = (
            "tables/_state.html" if request.headers.get("HX-Request") else "tables/table.html"
        )
        return form_refused(render(request, template, context), error)
    if request.headers.get("HX-Request"):
        context = _state_context(request, update.table, seen=int(raw_ply) + 1)
        return render(request, "tables/_state.html", context)
    return redirect("tables:table", table_id)


@login_required
@require_POST
def table_abandon(request: HttpRequest, table_id: int) -> HttpResponse:
    services.table_abandon(table_id=table_id, user=request.user)
    return redirect("tables:table", table_id)


def _replay_frames(request: HttpRequest, table_id: int) -> tuple[Any, dict[str, Any], int | None]:
    table = selectors.table_for(table_id=table_id, viewer=request.user)
    document = selectors.replay_document(table)
    players = load_game(table.variant).players
    raw = request.GET.get("seat", "")
    if raw in ("", "open"):
        seat = None
    elif raw.isdigit() and int(raw) < players:
        seat = int(raw)
    else:
        raise BadTable(f"seat is 'open' or a seat number from 0 to {players - 1}, not {raw!r}")
    try:
        frames = replay_frames(
            document["hand"],
            seat=seat,
            names=selectors.seat_names(table),
            fault=document.get("fault"),
            team_scores=document.get("team_scores"),
        )
    except ViewError as error:
        raise BadTable(str(error)) from None
    return table, frames, seat


@refuses_as("json")
@gzip_page
@require_GET
def replay_frames_json(request: HttpRequest, table_id: int) -> HttpResponse:
    table, frames, _ = _replay_frames(request, table_id)
    return JsonResponse({"play_table": table.pk, "board": 1, "table": "A", **frames})


@require_GET
def replay_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The arena's replay viewer (arena/templates/arena/_replay_viewer.html) on a human hand."""
    table, frames, seat = _replay_frames(request, table_id)
    raw_step = request.GET.get("step", "0")
    if not raw_step.isdigit() or int(raw_step) >= len(frames["frames"]):
        raise BadTable(f"step is a whole number below {len(frames['frames'])}, not {raw_step!r}")
    url = reverse("tables:replay-frames", args=[table.pk])
    final = frames["frames"][-1]["observation"]
    context = {
        "table": table,
        "seat": seat,
        "step": int(raw_step),
        "frames": frames,
        "steps": frames["frames"],
        "frames_url": url + ("" if seat is None else f"?seat={seat}"),
        "seat_choices": list(enumerate(frames["names"])),
        "human_seat_name": load_game(table.variant).seat_name(table.human_seat),
        "result": final.get("result"),
        "sides": side_rows(frames),
    }
    return render(request, "tables/replay.html", context)
