"""The director's and the table's pages beyond score entry: confirming or rejecting a
table's result, editing the event before the start, and what is printed for the night
(hand records and table guide cards). Thin views over the same services and selectors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from arena.errors import InvalidInput, NotAllowed, form_refused
from arena.identity import asking_player, asking_player_required
from tournaments import selectors, services
from tournaments.models import Event, Result
from tournaments.pages.forms import EventEditForm, RejectForm


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("director"), pk=event_id)


def _result(event: Event, result_id: int) -> Result:
    return get_object_or_404(
        Result.objects.select_related("board", "section__event", "entered_by"),
        pk=result_id,
        section__event=event,
    )


def _back(request: HttpRequest, event: Event, result: Result) -> str:
    """Back where the button was: the event page (the director's list) or the table."""
    if request.POST.get("back") == "event":
        return reverse("tournaments:event", args=[event.pk])
    return reverse(
        "tournaments:table", args=[event.pk, result.section.name, result.round, result.table]
    )


@login_required
@require_POST
def result_confirm(request: HttpRequest, event_id: int, result_id: int) -> HttpResponse:
    """A player of the other side (or the director, for the table) confirms a result."""
    event = _event(event_id)
    result = _result(event, result_id)
    back = _back(request, event, result)
    try:
        services.result_confirm(event=event, result=result, by=asking_player_required(request))
    except InvalidInput as refused:
        messages.error(request, str(refused))
        return redirect(back)
    messages.success(request, f"Board {result.board.number} at table {result.table} confirmed.")
    return redirect(back)


@login_required
@require_POST
def result_reject(request: HttpRequest, event_id: int, result_id: int) -> HttpResponse:
    """A player of the other side rejects a result with a reason: the board is open again."""
    event = _event(event_id)
    result = _result(event, result_id)
    back = _back(request, event, result)
    form = RejectForm(request.POST)
    if not form.is_valid():
        messages.error(request, "say why the result is wrong to reject it")
        return redirect(back)
    try:
        services.result_reject(
            event=event,
            result=result,
            by=asking_player_required(request),
            reason=form.cleaned_data["reason"],
        )
    except InvalidInput as refused:
        messages.error(request, str(refused))
        return redirect(back)
    messages.success(request, f"Board {result.board.number} rejected: the table enters it again.")
    return redirect(back)


@login_required
def event_edit(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director changes the event's name, boards a round and par before the start (the
    matchpoint scale at any time), with the API's ``event_update``."""
    event = _event(event_id)
    by = asking_player_required(request)
    if not selectors.is_director(event=event, player=by):
        raise NotAllowed("only the event's director can do this")
    initial = {
        "name": event.name,
        "boards_per_round": event.boards_per_round,
        "scale": event.scale,
        "par_bot": event.par_bot,
    }
    data = request.POST if request.method == "POST" else None
    form = EventEditForm(data, initial=initial)
    context = {"event": event, "form": form}
    if data is None:
        return render(request, "tournaments/event_edit.html", context)
    if not form.is_valid():
        return render(request, "tournaments/event_edit.html", context, status=400)
    try:
        services.event_update(event=event, by=by, **form.changes(event))
    except InvalidInput as refused:
        field = refused.field if refused.field in form.fields else None
        form.add_error(field, str(refused))
        return form_refused(render(request, "tournaments/event_edit.html", context), refused)
    messages.success(request, f"{event.name} is saved.")
    return redirect("tournaments:event", event_id=event.pk)


def hand_records(request: HttpRequest, event_id: int) -> HttpResponse:
    context = selectors.hand_records_page(event=_event(event_id), viewer=asking_player(request))
    return render(request, "tournaments/hand_records_page.html", context)


def guide_cards(request: HttpRequest, event_id: int) -> HttpResponse:
    context = selectors.guide_cards_page(event=_event(event_id))
    return render(request, "tournaments/guide_cards.html", context)
