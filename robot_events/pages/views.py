"""Robot event pages: thin views over the same selectors and services as the API.

What a viewer may see is decided by the selectors (``board_visible``), exactly as for the
API; a refusal is a 403 page that names the rule, and changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from arena.errors import Conflict, InvalidInput, ServiceError, form_refused
from arena.identity import asking_player, asking_player_required
from robot_events import permissions, play_tables, selectors, services
from robot_events.models import RobotEvent, RobotSchedule
from robot_events.pages.forms import EventForm, ScheduleForm


def _event(event_id: int) -> RobotEvent:
    return get_object_or_404(RobotEvent.objects.select_related("director"), pk=event_id)


def event_list(request: HttpRequest) -> HttpResponse:
    viewer = asking_player(request)
    events = [
        {"event": event, "status": permissions.status(event)}
        for event in selectors.event_list()[:100]
    ]
    return render(
        request,
        "robot_events/event_list.html",
        {"events": events, "may_direct": viewer is not None and permissions.may_direct(viewer)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    director = services.robot_event_director(player=asking_player_required(request))
    form = EventForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                event = services.robot_event_create(director=director, **form.service_data())
            except InvalidInput as refused:
                form.add_error(
                    refused.field if refused.field in form.fields else None, str(refused)
                )
            else:
                messages.success(request, f"{event.name} is open.")
                return redirect("robot_events:event", event_id=event.pk)
        status = 400
    return render(request, "robot_events/event_new.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def schedules(request: HttpRequest) -> HttpResponse:
    """The daily timetables, and the director's form for a new one (the API's schedule)."""
    director = services.robot_event_director(
        player=asking_player_required(request), refusal=services.SCHEDULE_REFUSAL
    )
    form = ScheduleForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                schedule = services.robot_schedule_create(director=director, **form.service_data())
            except InvalidInput as refused:
                form.add_error(
                    refused.field if refused.field in form.fields else None, str(refused)
                )
            else:
                messages.success(
                    request,
                    f"{schedule.name} is on the timetable: an event is created every day at "
                    f"{form.cleaned_data['hour']:02d}:{form.cleaned_data['minute']:02d} UTC.",
                )
                return redirect("robot_events:schedules")
        status = 400
    rows = [
        {
            "schedule": schedule,
            "time": _time_of_day(schedule),
            "may_change": permissions.may_change_schedule(schedule, director),
        }
        for schedule in selectors.schedule_list()
    ]
    context = {"form": form, "schedules": rows}
    return render(request, "robot_events/schedules.html", context, status=status)


@login_required
@require_POST
def schedule_running(request: HttpRequest, schedule_id: int) -> HttpResponse:
    """Pause or resume a timetable (the API's PATCH), then back to the timetables."""
    running = request.POST.get("running") == "yes"
    schedule = services.robot_schedule_set_running(
        schedule_id=schedule_id, by=asking_player_required(request), running=running
    )
    if running:
        messages.success(request, f"{schedule.name} runs again: its next event is on time.")
    else:
        messages.success(request, f"{schedule.name} is paused: no events until it resumes.")
    return redirect("robot_events:schedules")


@login_required
@require_POST
def schedule_remove(request: HttpRequest, schedule_id: int) -> HttpResponse:
    """Remove a timetable (the API's DELETE); the events it created stay."""
    name = services.robot_schedule_remove(
        schedule_id=schedule_id, by=asking_player_required(request)
    )
    messages.success(request, f"{name} is off the timetable; its events stay as they are.")
    return redirect("robot_events:schedules")


def _time_of_day(schedule: RobotSchedule) -> str:
    """The beat's crontab as a time of day ("18:05 UTC"); as written when staff have made it
    something else in the admin."""
    if schedule.task is None or schedule.task.crontab is None:
        return "no time set"
    hour, minute = schedule.task.crontab.hour, schedule.task.crontab.minute
    if hour.isdigit() and minute.isdigit():
        return f"{int(hour):02d}:{int(minute):02d} UTC"
    return f"hour {hour}, minute {minute} ({schedule.task.crontab.timezone})"


def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    viewer = asking_player(request)
    entry = selectors.entry_of(event=event, player=viewer)
    if entry is not None:
        # Tables finished since the last visit are scored before the page is drawn.
        play_tables.entry_sync(entry=entry)
    context = selectors.event_overview(event=event, viewer=viewer)
    context["refresh_s"] = settings.ROBOTS_STANDINGS_REFRESH_S
    return render(request, "robot_events/event_detail.html", context)


def standings_partial(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings alone, which the event page polls while the event is open."""
    event = _event(event_id)
    context = {
        "event": event,
        "status": permissions.status(event),
        "standings": selectors.event_standings(event=event),
        "refresh_s": settings.ROBOTS_STANDINGS_REFRESH_S,
    }
    return render(request, "robot_events/_standings.html", context)


def traveller(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = _event(event_id)
    viewer = asking_player(request)
    play_tables.viewer_sync(event=event, viewer=viewer, number=number)
    context = selectors.board_traveller(event=event, viewer=viewer, number=number)
    return render(request, "robot_events/traveller.html", context)


def verification(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    context = {"event": event, "check": selectors.event_verification(event=event)}
    return render(request, "robot_events/verification.html", context)


@login_required
@require_POST
def join(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        services.robot_entry_join(event=_event(event_id), player=asking_player_required(request))
        messages.success(request, "You are in: play the boards in order.")
    except (InvalidInput, Conflict) as refused:
        return _refused(request, event_id, refused)
    return redirect("robot_events:event", event_id=event_id)


@login_required
@require_POST
def play_next(request: HttpRequest, event_id: int) -> HttpResponse:
    """Start (or resume) the entrant's next board and go to its table."""
    event = _event(event_id)
    entry = selectors.joined_entry(event=event, player=asking_player_required(request))
    play_tables.entry_sync(entry=entry)
    try:
        play = services.robot_play_start(entry=entry)
    except (InvalidInput, Conflict) as refused:
        return _refused(request, event_id, refused)
    url = play_tables.table_url(play=play)
    return redirect(url) if url else redirect("robot_events:event", event_id=event_id)


@login_required
@require_POST
def close(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        services.robot_event_close(event=_event(event_id), by=asking_player_required(request))
        messages.success(request, "The event is closed: the secret and the pars are public.")
    except Conflict as refused:
        return _refused(request, event_id, refused)
    return redirect("robot_events:event", event_id=event_id)


def _refused(request: HttpRequest, event_id: int, refused: ServiceError) -> HttpResponse:
    """The event page again with the refusal shown, answered with the refusal's status (a
    refusal of who may act is the refusal page instead, as for every page)."""
    messages.error(request, str(refused))
    event = _event(event_id)
    context = selectors.event_overview(event=event, viewer=asking_player(request))
    return form_refused(render(request, "robot_events/event_detail.html", context), refused)
