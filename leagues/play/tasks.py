"""Celery tasks of the play app: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from leagues.play import services


@shared_task(name="play.table_advance")
def table_advance_task(table_id: int) -> int:
    """Arena bots' moves at a human's table; safe to deliver twice (see table_advance)."""
    return services.table_advance(table_id=table_id)


@shared_task(name="play.tables_expire")
def tables_expire_task() -> int:
    """Periodic: casual tables left untouched for ``PLAY_TABLE_IDLE_S`` end as abandoned."""
    return services.tables_expire()
