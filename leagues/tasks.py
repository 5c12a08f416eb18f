"""Celery tasks of the leagues: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from leagues import services


@shared_task(name=services.ADVANCE_TASK)
def league_advance_task(league_id: int) -> str:
    """A league's timetable (a django-celery-beat PeriodicTask) runs this; harmless when
    delivered twice, since scheduling a round that exists creates nothing."""
    return services.league_advance(league_id=league_id)
