"""Celery tasks of the robot events: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from robot_events import services


@shared_task(name=services.PAR_TASK)
def board_par_task(board_id: int) -> str:
    """Idempotent: a board whose par is stored already is skipped."""
    board = services.robot_board_par_compute(board_id=board_id)
    return "skipped" if board is None else f"{board.par_ns}/{board.par_ew}"


@shared_task(name=services.SCHEDULE_TASK)
def schedule_run_task(schedule_id: int) -> str:
    """A timetable's PeriodicTask runs this; a repeated delivery creates nothing."""
    event = services.robot_schedule_run(schedule_id=schedule_id)
    return "skipped" if event is None else f"event {event.pk}"


@shared_task(name="robots.events_close_due")
def events_close_due_task() -> int:
    """Periodic: closes the daylong events whose 24 hours are over."""
    return services.robot_events_close_due()
