"""The Django admin for robot events, their plays and their timetables: mostly to read.

An event's boards are dealt at creation from its secret, and everything that follows from
the secret (the secret itself, each board's seed, the par and a play's contract) is shown
only once the event is closed, as on the verification page: staff may be entrants too.
Events, plays and timetables are created and closed through ``robot_events.services``
(the secret committed to, the boards dealt, beat's task set up), so the admin adds none.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django_celery_beat.models import PeriodicTask

from robot_events.models import RobotBoard, RobotEvent, RobotPlay, RobotSchedule

SEALED = "sealed until the event is closed"
SETTINGS = ("variant", "boards", "robots", "kind", "scoring", "director")
"""What an event is played with, and what a timetable creates its events with."""


def _closed(event: RobotEvent) -> bool:
    return event.closed is not None


class RobotBoardInline(admin.TabularInline[RobotBoard, RobotEvent]):
    model = RobotBoard
    fields = readonly_fields = ("number", "dealer", "deal_seed", "par")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="seed")
    def deal_seed(self, board: RobotBoard) -> str:
        return str(board.seed) if _closed(board.event) else SEALED

    @admin.display(description="par (NS / EW)")
    def par(self, board: RobotBoard) -> str:
        if not _closed(board.event):
            return SEALED
        return "pending" if board.par_ns is None else f"{board.par_ns} / {board.par_ew}"


@admin.register(RobotEvent)
class RobotEventAdmin(admin.ModelAdmin[RobotEvent]):
    list_display = ["id", "name", *SETTINGS, "opens", "closes", "closed"]
    list_filter = ["variant", "kind", "scoring", "robots"]
    search_fields = ["name", "director__display_name"]
    # Only the name may change: the boards were dealt for these settings, the commitment
    # binds them, and closing reveals the secret and computes the pars (the services do it).
    readonly_fields = [
        *SETTINGS,
        "opens",
        "closes",
        "closed",
        "schedule",
        "commitment",
        "revealed_secret",
        "created",
    ]
    inlines = [RobotBoardInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="secret")
    def revealed_secret(self, event: RobotEvent) -> str:
        return event.secret if _closed(event) else SEALED


@admin.register(RobotPlay)
class RobotPlayAdmin(admin.ModelAdmin[RobotPlay]):
    """Read-only: a play's result is the table's, brought back by the services."""

    list_display = ["id", "event", "entry", "board_number", "started", "finished", "net"]
    list_filter = ["entry__event"]
    list_select_related = ["entry__event", "entry__player", "board"]
    fields = readonly_fields = (
        "entry",
        "board_number",
        "table",
        "started",
        "finished",
        "score_ns",
        "score_ew",
        "contract",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="event")
    def event(self, play: RobotPlay) -> RobotEvent:
        return play.entry.event

    @admin.display(description="board")
    def board_number(self, play: RobotPlay) -> int:
        return play.board.number

    @admin.display(description="contract and scores")
    def contract(self, play: RobotPlay) -> str:
        # The contract tells the others still to play the board something of its cards.
        if not _closed(play.entry.event):
            return SEALED
        return "" if play.result is None else str(play.result)


@admin.register(RobotSchedule)
class RobotScheduleAdmin(admin.ModelAdmin[RobotSchedule]):
    list_display = ["id", "name", *SETTINGS]
    list_filter = ["variant", "kind"]
    # The settings are checked by the service that creates the timetable and its beat task,
    # and the day's event is found by the name: here they are read, and a timetable deleted.
    fields = readonly_fields = ("name", *SETTINGS, "task")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: RobotSchedule) -> None:
        # Beat's task goes with it: left behind, it would run a timetable that is gone.
        self.delete_queryset(request, RobotSchedule.objects.filter(pk=obj.pk))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[RobotSchedule]) -> None:
        with transaction.atomic():
            tasks = [schedule.task_id for schedule in queryset if schedule.task_id is not None]
            queryset.delete()
            PeriodicTask.objects.filter(pk__in=tasks).delete()
