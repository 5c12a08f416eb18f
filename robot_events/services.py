"""Every write of the robot duplicate events, each in its own transaction.

An event is created with its boards dealt from a fresh secret (``arena.seeding``), entrants
join, play the boards one after another, and each finished table's result is recorded
once. Closing ends the boards still in play as forfeits, reveals the secret and computes
each board's par with the event's robots.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, TypedDict, Unpack

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from arena import seeding
from arena.errors import Conflict, InvalidInput, NotAllowed, NotFound
from arena.models import Player
from arena.newcomers import rated_play_refusal
from engine.registry import load_game
from robot_events import permissions
from robot_events.models import (
    ROBOT_VARIANTS,
    RobotBoard,
    RobotEntry,
    RobotEvent,
    RobotPlay,
    RobotSchedule,
)
from tables import services as play_services
from tables.errors import NotYourTurn
from tables.models import PlayTable
from tournaments.par import board_par

__all__ = [
    "CLOSE_REASON",
    "DAYLONG",
    "MAX_BOARDS",
    "PAR_TASK",
    "SCHEDULE_CHANGE_REFUSAL",
    "SCHEDULE_REFUSAL",
    "SCHEDULE_TASK",
    "AlreadyDone",
    "NotAllowed",
    "robot_board_par_compute",
    "robot_entry_join",
    "robot_event_close",
    "robot_event_create",
    "robot_event_director",
    "robot_events_close_due",
    "robot_play_finish",
    "robot_play_start",
    "robot_plays_sync",
    "robot_schedule_create",
    "robot_schedule_remove",
    "robot_schedule_run",
    "robot_schedule_set_running",
]

DAYLONG = timedelta(hours=24)
MAX_BOARDS = 36
PAR_TASK = "robots.board_par"
SCHEDULE_TASK = "robots.schedule_run"


class AlreadyDone(Conflict):
    """The request repeats something done once for all (a join, a board): answered 409."""


def _choice(value: str, choices: Any, field: str) -> str:
    allowed = [str(choice) for choice in choices]
    if value not in allowed:
        raise InvalidInput(f"{field} is one of {', '.join(allowed)}, not {value!r}", field=field)
    return value


class EventSettings(TypedDict):
    """What an event is, and what a timetable creates its events with."""

    name: str
    variant: str
    boards: int
    robots: str
    kind: str
    scoring: str


CREATE_REFUSAL = "only staff and robot event directors create robot events"
SCHEDULE_REFUSAL = "only staff and robot event directors set timetables"
SCHEDULE_CHANGE_REFUSAL = "only the timetable's director or staff pause, resume or remove it"


def robot_event_director(*, player: Player, refusal: str = CREATE_REFUSAL) -> Player:
    """The player, who may direct robot events (staff, or the permission to direct):
    ``NotAllowed(refusal)`` otherwise."""
    if not permissions.may_direct(player):
        raise NotAllowed(refusal)
    return player


def _event_settings(director: Player, refusal: str, settings: EventSettings) -> dict[str, Any]:
    """The fields an event (or a timetable of events) is created with, once the director
    may direct (``NotAllowed(refusal)`` otherwise) and every setting is checked."""
    robot_event_director(player=director, refusal=refusal)
    _checked_settings(**settings)
    return {**settings, "name": settings["name"].strip(), "director": director}


def _checked_settings(
    *, name: str, variant: str, boards: int, robots: str, kind: str, scoring: str
) -> None:
    if not name.strip() or len(name) > 120:
        raise InvalidInput("the name is 1 to 120 characters", field="name")
    _choice(variant, ROBOT_VARIANTS, "variant")
    _choice(robots, RobotEvent.Robots.values, "robots")
    _choice(kind, RobotEvent.Kind.values, "kind")
    _choice(scoring, RobotEvent.Scoring.values, "scoring")
    if isinstance(boards, bool) or not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
        raise InvalidInput(f"an event has 1 to {MAX_BOARDS} boards", field="boards")


def robot_event_create(
    *,
    director: Player,
    opens: datetime | None = None,
    schedule: RobotSchedule | None = None,
    **settings: Unpack[EventSettings],
) -> RobotEvent:
    """Create an event and deal its boards from a secret whose commitment alone is shown.

    The commitment is ``arena.seeding``'s; each board's seed is its own HMAC of the secret
    (``arena.seeding.event_board_seed``), not a step of one generator as a match's boards
    are: an entrant's table reveals its board's seed when the hand is over, and the next
    step of a SplitMix64 can be computed from one output (its mixing is invertible), so one
    revealed board would deal every later one.
    """
    fields = _event_settings(director, CREATE_REFUSAL, settings)
    opens = opens or timezone.now()
    secret = seeding.new_secret()
    game = load_game(settings["variant"])
    with transaction.atomic():
        event = RobotEvent.objects.create(
            **fields,
            opens=opens,
            closes=opens + DAYLONG if settings["kind"] == RobotEvent.Kind.DAYLONG else None,
            secret=secret.hex(),
            commitment=seeding.commitment(secret),
            schedule=schedule,
        )
        RobotBoard.objects.bulk_create(
            RobotBoard(
                event=event,
                number=number,
                seed=seeding.event_board_seed(secret, number),
                dealer=game.board_dealer(number),
            )
            for number in range(1, settings["boards"] + 1)
        )
    return event


CLOSE_REASON = "the event closed before the hand was over, which counts as a forfeit"
"""What an entrant is told at a table the close ended."""


def robot_event_close(*, event: RobotEvent, by: Player | None) -> RobotEvent:
    """Close the event (``by`` None: its time is up): no more play; the secret and every
    board's par become public.

    A table still in play is ended in the same transaction, scored as its forfeit (the
    entrant's side, as if they had left): the close makes every hand public, and a hand
    played on after it would be played open.
    """
    if by is not None and not permissions.directs(event, by):
        raise NotAllowed("only the event's director or staff close it")
    with transaction.atomic():
        # Locked so that a board started at the same moment either lands before the close
        # or is refused by it, never half-way.
        event = RobotEvent.objects.select_for_update().get(pk=event.pk)
        if event.closed is not None:
            raise AlreadyDone("the event is closed already")
        plays = RobotPlay.objects.filter(entry__event=event)
        _end_tables(plays)
        # Tables that finished before the close count even if their entrant never came back,
        # and the tables just ended count as their forfeits.
        robot_plays_sync(plays=plays)
        event.closed = timezone.now()
        event.save(update_fields=["closed"])
        PlayTable.objects.filter(robot_play__entry__event=event).update(public_after=event.closed)
        board_ids = list(event.board_set.values_list("pk", flat=True))
        transaction.on_commit(lambda: _enqueue_pars(board_ids))
    return event


def _end_tables(plays: QuerySet[RobotPlay]) -> None:
    """End every table of ``plays`` still in play as a forfeit of the entrant's side.

    Each table is locked as it is ended (``table_close``): an action taken at it a moment
    before is applied first and the hand closed after it, one that comes later is refused.
    """
    unfinished = plays.filter(finished__isnull=True, table__status=PlayTable.Status.PLAYING)
    for table_id in unfinished.values_list("table_id", flat=True):
        assert table_id is not None
        try:
            play_services.table_close(table_id=table_id, reason=CLOSE_REASON)
        except NotYourTurn:
            continue  # the hand's last action landed first: its own result counts


def _enqueue_pars(board_ids: list[int]) -> None:
    from robot_events.tasks import board_par_task

    for board_id in board_ids:
        board_par_task.delay(board_id)


def robot_events_close_due() -> int:
    """Close every daylong event whose 24 hours are over; the number closed."""
    closed = 0
    due = RobotEvent.objects.filter(closed__isnull=True, closes__lte=timezone.now())
    for event in due:
        try:
            robot_event_close(event=event, by=None)
        except AlreadyDone:
            continue  # closed by another run in between
        closed += 1
    return closed


def robot_board_par_compute(*, board_id: int) -> RobotBoard | None:
    """The board played by the event's robots at every seat; None when stored already."""
    board = RobotBoard.objects.select_related("event").get(pk=board_id)
    if board.par_result is not None:
        return None
    event = board.event
    result = board_par(
        event.variant, bot=event.robots, number=board.number, seed=board.seed, dealer=board.dealer
    )
    ns, ew = result.team_scores
    # Conditional: a second delivery of the task computes the same par and stores nothing.
    RobotBoard.objects.filter(pk=board.pk, par_result__isnull=True).update(
        par_ns=ns,
        par_ew=ew,
        par_result=permissions.result_summary(result.to_json(), load_game(event.variant)),
    )
    board.refresh_from_db()
    return board


def robot_entry_join(*, event: RobotEvent, player: Player) -> RobotEntry:
    if player.pk == event.director_id:
        # The director sees every board from the start: playing would be playing open.
        raise NotAllowed("the event's director does not play in it")
    refusal = rated_play_refusal(player.user)
    if refusal is not None:
        raise NotAllowed(refusal)
    try:
        with transaction.atomic():
            # Locked as the close locks it: an entry lands before the close or not at all.
            event = RobotEvent.objects.select_for_update().get(pk=event.pk)
            state = permissions.status(event)
            if state != "open":
                raise InvalidInput(f"the event is {state}: it takes no entries", field="event")
            return RobotEntry.objects.create(event=event, player=player)
    except IntegrityError:
        raise AlreadyDone(f"{player.display_name} has joined this event already") from None


def robot_play_start(*, entry: RobotEntry) -> RobotPlay:
    """Start the entrant's next board, in order, at a play table of its own (the entrant
    South, the event's robots at the other seats); the open one when one is in play."""
    with transaction.atomic():
        event = RobotEvent.objects.select_for_update().get(pk=entry.event_id)
        state = permissions.status(event)
        if state != "open":
            raise InvalidInput(f"the event is {state}: no board can be started", field="event")
        current = entry.plays.filter(finished__isnull=True).select_related("board").first()
        if current is not None:
            return current
        played = set(entry.plays.values_list("board__number", flat=True))
        board = event.board_set.exclude(number__in=played).order_by("number").first()
        if board is None:
            raise AlreadyDone("every board of this event is played")
        try:
            with transaction.atomic():
                play = RobotPlay.objects.create(entry=entry, board=board)
        except IntegrityError:
            raise AlreadyDone(f"board {board.number} is played already") from None
        robot = {"kind": "reference", "name": event.robots}
        play.table = play_services.table_start(
            owner=entry.player.user,
            variant=event.variant,
            seed=board.seed,
            dealer=board.dealer,
            human_seat=permissions.HUMAN_SEAT,
            bots=[robot, robot, robot],
            return_url=reverse("robot_events:event", args=[event.pk]),
            # Other people's tables open with the event's results, at the close that
            # ends every table (``robot_event_close`` sets it then); not at a daylong
            # event's published end, which comes before the close job has run.
            public_after=None,
            # A daylong event's tables stop at its published end, not when the close job
            # comes round to them: nothing is played after the time is up.
            plays_until=event.closes,
        )
        play.save(update_fields=["table"])
    return play


def robot_play_finish(
    *,
    play: RobotPlay,
    scores: Sequence[int],
    hand: Mapping[str, Any] | None,
    fault: Mapping[str, Any] | None = None,
) -> RobotPlay:
    """Record a finished table once: North-South's and East-West's scores, and the hand's
    contract (``hand`` is the engine's result, None when the hand ended by a forfeit)."""
    if not (len(scores) == 2 and all(type(score) is int for score in scores)):
        raise InvalidInput("a board's result is two whole team scores", field="scores")
    summary: dict[str, Any] = (
        permissions.result_summary(dict(hand), load_game(play.board.event.variant))
        if hand is not None
        else {"outcome": "forfeit"}
    )
    if fault is not None:
        summary["fault"] = {"seat": fault.get("seat"), "kind": fault.get("kind")}
    # Conditional: a table reported twice (a retried request, two tabs) is counted once.
    updated = RobotPlay.objects.filter(pk=play.pk, finished__isnull=True).update(
        finished=timezone.now(), score_ns=scores[0], score_ew=scores[1], result=summary
    )
    if updated == 0:
        raise AlreadyDone(f"board {play.board.number} is recorded already")
    play.refresh_from_db()
    return play


def robot_plays_sync(*, plays: QuerySet[RobotPlay]) -> int:
    """Record every play of ``plays`` whose table is over; the number recorded."""
    recorded = 0
    for play in plays.filter(finished__isnull=True, table__isnull=False).exclude(
        table__status=PlayTable.Status.PLAYING
    ):
        table = play.table
        assert table is not None and table.result is not None
        try:
            robot_play_finish(
                play=play,
                scores=[int(score) for score in table.result["side_scores"]],
                hand=table.result.get("hand"),
                fault=table.result.get("fault"),
            )
        except AlreadyDone:
            continue  # recorded by a concurrent request
        recorded += 1
    return recorded


def robot_schedule_create(
    *,
    director: Player,
    hour: int,
    minute: int = 0,
    **settings: Unpack[EventSettings],
) -> RobotSchedule:
    """A daily timetable: celery beat creates an event of these settings at hour:minute UTC."""
    fields = _event_settings(director, SCHEDULE_REFUSAL, settings)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise InvalidInput("the time of day is hour 0-23 and minute 0-59", field="hour")
    with transaction.atomic():
        schedule = RobotSchedule.objects.create(**fields)
        crontab, _ = CrontabSchedule.objects.get_or_create(
            minute=str(minute),
            hour=str(hour),
            day_of_week="*",
            day_of_month="*",
            month_of_year="*",
            timezone="UTC",
        )
        schedule.task = PeriodicTask.objects.create(
            name=f"robot schedule {schedule.pk}: {schedule.name}",
            crontab=crontab,
            task=SCHEDULE_TASK,
            kwargs=json.dumps({"schedule_id": schedule.pk}),
        )
        schedule.save(update_fields=["task"])
    return schedule


def _changeable_schedule(schedule_id: int, by: Player) -> RobotSchedule:
    """The timetable, locked for a change by its director or staff: ``NotFound`` when
    there is none (removed already), ``NotAllowed`` for anyone else."""
    locked = RobotSchedule.objects.select_for_update(of=("self",)).select_related(
        "task", "director"
    )
    schedule = locked.filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(f"there is no timetable {schedule_id} (it may have been removed)")
    if not permissions.may_change_schedule(schedule, by):
        raise NotAllowed(SCHEDULE_CHANGE_REFUSAL)
    return schedule


def robot_schedule_set_running(*, schedule_id: int, by: Player, running: bool) -> RobotSchedule:
    """Pause the timetable (beat creates no more events) or set it running again; saying
    it twice changes nothing more. The events it created stay as they are."""
    with transaction.atomic():
        schedule = _changeable_schedule(schedule_id, by)
        task = schedule.task
        if task is None:
            raise Conflict(
                "this timetable has no time of day in the beat: staff set it in the admin"
            )
        if task.enabled != running:
            task.enabled = running
            task.save(update_fields=["enabled"])
    return schedule


def robot_schedule_remove(*, schedule_id: int, by: Player) -> str:
    """Remove the timetable and its beat task; the events it created stay (they no longer
    name it). Returns the timetable's name."""
    with transaction.atomic():
        schedule = _changeable_schedule(schedule_id, by)
        name, task = schedule.name, schedule.task
        schedule.delete()
        if task is not None:
            task.delete()
    return name


def robot_schedule_run(*, schedule_id: int) -> RobotEvent | None:
    """Create the schedule's event of the day; None when today's exists already (a
    repeated delivery of the beat's message creates nothing, nor one for a timetable
    removed since it was sent)."""
    with transaction.atomic():
        schedule = RobotSchedule.objects.select_for_update().filter(pk=schedule_id).first()
        if schedule is None:
            return None
        today = timezone.now().date()
        name = f"{schedule.name} {today.isoformat()}"
        if schedule.events.filter(name=name).exists():
            return None
        return robot_event_create(
            director=schedule.director,
            name=name,
            variant=schedule.variant,
            boards=schedule.boards,
            robots=schedule.robots,
            kind=schedule.kind,
            scoring=schedule.scoring,
            schedule=schedule,
        )
