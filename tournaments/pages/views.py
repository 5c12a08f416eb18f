"""Tournament pages: thin views over the same selectors and services as the API.

Each view makes one selector call for what it shows; the score-entry view hands the
table's input to ``services.result_preview``, ``result_enter`` and ``result_correct``,
which check every rule (nothing is validated twice). What a viewer may see is decided by
the selectors and services, exactly as for the API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from arena.errors import InvalidInput, NotFound, form_refused
from arena.identity import asking_player, asking_player_required
from arena.models import Player
from arena.pages import charts
from arena.pages.common import choice, page_number
from arena.variants import variant_choices, variant_names
from tournaments import selectors, services
from tournaments.hands import HandScore
from tournaments.models import Entry, Event, Result
from tournaments.pages.forms import BoardEntryForm, EntryNewForm, EventNewForm, initial_from


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("director"), pk=event_id)


def event_list(request: HttpRequest) -> HttpResponse:
    # Any signed-in player may create an event and direct it, as through the API.
    context = {
        "events": selectors.event_list()[:100],
        "may_direct": asking_player(request) is not None,
    }
    return render(request, "tournaments/event_list.html", context)


RATINGS_PER_PAGE = 50


def human_ratings(request: HttpRequest) -> HttpResponse:
    """Each variant's human players by rating, every row with its 95% interval."""
    variant = choice(request, "variant", variant_names()) or variant_names()[0]
    number = page_number(request)
    paginator = Paginator(selectors.human_rating_list(variant=variant), RATINGS_PER_PAGE)
    try:
        page = paginator.page(number)
    except EmptyPage:
        raise NotFound(f"the {variant} human ratings have no page {number}") from None
    ratings = list(page.object_list)
    scale = charts.Scale.around(
        value for rating in ratings for value in (rating.value, rating.low, rating.high)
    )
    rows = [
        {
            "rank": page.start_index() + index,
            "rating": rating,
            "bar": charts.interval_bar(rating.value, rating.low, rating.high, scale),
        }
        for index, rating in enumerate(ratings)
    ]
    context = {
        "variant": variant,
        "variant_label": dict(variant_choices())[variant],
        "variants": variant_choices(),
        "page": page,
        "rows": rows,
        "scale": scale,
        "bar_width": charts.BAR_WIDTH,
    }
    return render(request, "tournaments/ratings.html", context)


def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    return _event_page(request, _event(event_id))


def _event_page(
    request: HttpRequest,
    event: Event,
    *,
    entry_form: EntryNewForm | None = None,
    refused: str = "",
    status: int = 200,
) -> HttpResponse:
    """The event page; again with the director's form or button that a service refused."""
    context = selectors.event_overview(event=event, viewer=asking_player(request))
    if entry_form is None:
        entry_form = EntryNewForm(
            initial={"section": event.sections.values_list("name", flat=True).first()}
        )
    context.update(entry_form=entry_form, refused=refused)
    return render(request, "tournaments/event_detail.html", context, status=status)


def _variants() -> list[tuple[str, str]]:
    """The variants the API's create allows, with the game registry's names for them."""
    labels = dict(variant_choices())
    return [(name, labels.get(name, name)) for name in services.event_variants()]


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """A new event, with the API's create service; whoever creates it directs it."""
    director = asking_player_required(request)
    data = request.POST if request.method == "POST" else None
    form = EventNewForm(data, variants=_variants())
    if data is None:
        return render(request, "tournaments/event_new.html", {"form": form})
    if form.is_valid():
        try:
            event = services.event_create(director=director, **form.cleaned_data)
        except InvalidInput as refused:
            form.add_error(refused.field if refused.field in form.fields else None, str(refused))
            response = render(request, "tournaments/event_new.html", {"form": form})
            return form_refused(response, refused)
        messages.success(request, f"{event.name} is set up: add its entries, then start it.")
        return redirect("tournaments:event", event_id=event.pk)
    return render(request, "tournaments/event_new.html", {"form": form}, status=400)


@login_required
@require_POST
def entry_new(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director enters a pair (or a player) before the start, as the API's entries do."""
    event = _event(event_id)
    by = asking_player_required(request)
    form = EntryNewForm(request.POST)
    if not form.is_valid():
        return _event_page(request, event, entry_form=form, status=400)
    data = form.cleaned_data
    try:
        entry = services.entry_add(
            event=event,
            by=by,
            section_name=data["section"],
            players=data["players"],
            name=data["name"],
        )
    except InvalidInput as refused:
        form.show_refusal(refused.field, str(refused))
        return form_refused(_event_page(request, event, entry_form=form), refused)
    messages.success(request, f"Entry {entry} is in section {entry.section.name}.")
    return redirect("tournaments:event", event_id=event_id)


@login_required
@require_POST
def entry_withdraw(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """The director withdraws an entry before the start; the later ones move up a number,
    as the API's entry removal does."""
    event = _event(event_id)
    entry = get_object_or_404(Entry, pk=entry_id, section__event=event)
    name = f"{entry} ({entry.section.name}{entry.number})"
    try:
        services.entry_remove(event=event, by=asking_player_required(request), entry=entry)
    except InvalidInput as refused:
        return form_refused(_event_page(request, event, refused=str(refused)), refused)
    messages.success(request, f"Entry {name} is withdrawn.")
    return redirect("tournaments:event", event_id=event_id)


@login_required
@require_POST
def event_start(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director starts the event: movements built, boards laid out (``event_start``)."""
    event = _event(event_id)
    try:
        event = services.event_start(event=event, by=asking_player_required(request))
    except InvalidInput as refused:
        return form_refused(_event_page(request, event, refused=str(refused)), refused)
    messages.success(request, f"{event.name} has started: round 1 is on.")
    return redirect("tournaments:event", event_id=event_id)


@login_required
@require_POST
def event_finish(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director finishes the event: results and the secret published, players rated."""
    event = _event(event_id)
    try:
        event = services.event_finish(event=event, by=asking_player_required(request))
    except InvalidInput as refused:
        return form_refused(_event_page(request, event, refused=str(refused)), refused)
    messages.success(request, f"{event.name} is finished: results and hand records are public.")
    return redirect("tournaments:event", event_id=event_id)


def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    context = selectors.standings_page(event=_event(event_id))
    return render(request, "tournaments/standings.html", context)


def standings_partial(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings alone, which the standings page polls while the event runs."""
    context = selectors.standings_page(event=_event(event_id))
    return render(request, "tournaments/_standings.html", context)


def traveller(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    context = selectors.traveller_page(
        event=_event(event_id), viewer=asking_player(request), number=number
    )
    return render(request, "tournaments/traveller.html", context)


def scorecard(request: HttpRequest, event_id: int, section: str, number: int) -> HttpResponse:
    context = selectors.scorecard_page(
        event=_event(event_id), viewer=asking_player(request), section_name=section, number=number
    )
    return render(request, "tournaments/scorecard.html", context)


def verification(request: HttpRequest, event_id: int) -> HttpResponse:
    context = selectors.verification_page(event=_event(event_id))
    return render(request, "tournaments/verification.html", context)


@login_required
@require_POST
def round_next(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        event = services.event_round_advance(
            event=_event(event_id), by=asking_player_required(request)
        )
        messages.success(request, f"Round {event.current_round} has started.")
    except InvalidInput as refused:
        messages.error(request, str(refused))
    return redirect("tournaments:event", event_id=event_id)


@login_required
@require_POST
def round_close(request: HttpRequest, event_id: int) -> HttpResponse:
    round_ = request.POST.get("round", "")
    if not round_.isdigit():
        messages.error(request, "say which round to close")
        return redirect("tournaments:event", event_id=event_id)
    try:
        event = services.event_round_close(
            event=_event(event_id), by=asking_player_required(request), round=int(round_)
        )
        messages.success(request, f"Rounds up to {event.closed_round} are closed to players.")
    except InvalidInput as refused:
        messages.error(request, str(refused))
    return redirect("tournaments:event", event_id=event_id)


def _table_url(event_id: int, section: str, round: int, table: int) -> str:
    return reverse("tournaments:table", args=[event_id, section, round, table])


@login_required
def table_entry(
    request: HttpRequest, event_id: int, section: str, round: int, table: int
) -> HttpResponse:
    """A table's score entry, board by board: fill in, check the scores, save.

    ``?board=n`` picks the board (default: the first not yet entered); ``?correct=id``
    opens the director's correction of an entered result.
    """
    event = _event(event_id)
    viewer = asking_player_required(request)
    context = selectors.table_entry_page(
        event=event, viewer=viewer, section_name=section, round=round, table=table
    )
    correcting = _correcting(request, context)
    board = _chosen_board(request, context, correcting)
    posted_for = request.GET.get("board")
    if request.method == "POST" and correcting is None and posted_for != str(board):
        # The form names its board: another player at the table may have saved it since.
        messages.error(
            request,
            f"board {posted_for} is already entered at this table; the director can correct it",
        )
        return redirect(_table_url(event_id, section, round, table))
    status = 200
    form = None
    checked: HandScore | None = None
    if board is not None and (context["may_enter"] or correcting is not None):
        initial = initial_from(correcting) if correcting is not None else None
        data = request.POST if request.method == "POST" else None
        form = BoardEntryForm(
            data, initial=initial, variant=event.variant, correcting=correcting is not None
        )
        if data is not None and form.is_valid():
            where = _Table(event, viewer, section, round, table, board)
            try:
                done = _act(request, where, form, correcting)
            except (InvalidInput, services.EntryAttemptsExhausted) as refused:
                # The form again, with the refusal beside the field it names.
                form.show_refusal(getattr(refused, "field", None), str(refused))
                status = refused.status
            else:
                if isinstance(done, HttpResponse):
                    return done
                checked = done
        elif data is not None:
            status = 400
    context.update(
        board=board,
        form=form,
        checked=None
        if checked is None
        else {
            "outcome": checked.outcome.value,
            "scores": list(zip(_score_labels(context), checked.scores, strict=True)),
        },
        correcting=correcting,
    )
    return render(request, "tournaments/table_entry.html", context, status=status)


@dataclass(frozen=True)
class _Table:
    event: Event
    viewer: Player
    section: str
    round: int
    table: int
    board: int


def _act(
    request: HttpRequest, where: _Table, form: BoardEntryForm, correcting: Result | None
) -> HttpResponse | HandScore | None:
    """Do what the table asked: check the scores, save the board, or save a correction."""
    action = request.POST.get("action", "check")
    entry = services.score_entry_from(form.api_data())
    back = _table_url(where.event.pk, where.section, where.round, where.table)
    if action == "save" and correcting is not None:
        services.result_correct(
            event=where.event,
            result=correcting,
            by=where.viewer,
            entry=entry,
            reason=form.cleaned_data.get("reason", ""),
        )
        messages.success(request, f"Board {where.board}: correction saved.")
        return redirect(back)
    if action not in ("check", "save"):
        return None  # "Change": the form again, as filled in
    if action == "check":
        return services.result_preview(
            event=where.event,
            by=where.viewer,
            section_name=where.section,
            round=where.round,
            table=where.table,
            board_number=where.board,
            entry=entry,
        )
    services.result_enter(
        event=where.event,
        by=where.viewer,
        section_name=where.section,
        round=where.round,
        table=where.table,
        board_number=where.board,
        entry=entry,
    )
    messages.success(request, f"Board {where.board} saved.")
    return redirect(back)


def _correcting(request: HttpRequest, context: dict[str, Any]) -> Result | None:
    wanted = request.GET.get("correct")
    if not wanted or not context["director"]:
        return None
    for board in context["boards"]:
        result: Result | None = board["result"]
        if result is not None and str(result.pk) == wanted:
            return result
    return None


def _chosen_board(
    request: HttpRequest, context: dict[str, Any], correcting: Result | None
) -> int | None:
    if correcting is not None:
        return correcting.board.number
    open_boards = [b["number"] for b in context["boards"] if b["result"] is None]
    wanted = request.GET.get("board")
    if wanted is not None and wanted.isdigit() and int(wanted) in open_boards:
        return int(wanted)
    return open_boards[0] if open_boards else None


def _score_labels(context: dict[str, Any]) -> list[str]:
    return list(context["sides"])
