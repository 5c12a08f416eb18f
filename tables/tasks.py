"""Celery tasks of the play app: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from tables import challenges, services


@shared_task(name="play.table_advance")
def table_advance_task(table_id: int) -> int:
    """Arena bots' moves at a human's table; safe to deliver twice (see table_advance)."""
    return services.table_advance(table_id=table_id)


@shared_task(name="play.challenge_par")
def challenge_par_task(row_id: int) -> bool:
    """A challenge board's bot-only table, once the human's table of it is over; safe to
    deliver twice (see challenge_compare)."""
    return challenges.challenge_compare(row_id=row_id)


@shared_task(name="play.challenges_expire")
def challenges_expire_task() -> int:
    """The periodic job: score the challenges past their expiry, resend overdue comparisons."""
    return challenges.challenges_expire()


@shared_task(name="play.tables_expire")
def tables_expire_task() -> int:
    """Periodic: casual tables left untouched for ``PLAY_TABLE_IDLE_S`` end as abandoned."""
    return services.tables_expire_idle()
