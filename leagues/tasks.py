"""Celery tasks of the leagues: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from leagues import services


@shared_task(name=services.ADVANCE_TASK)
def league_advance_task(league_id: int) -> str:
    """A league's timetable (a django-celery-beat PeriodicTask) runs this; harmless when
    delivered twice, since scheduling a round that exists creates nothing."""
    return services.league_advance(league_id=league_id)


@shared_task(name="leagues.rounds_close")
def rounds_close_task() -> int:
    """Periodic: marks rounds complete (and seasons finished) once their matches ended."""
    return services.rounds_close_ended()
