"""Celery tasks: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from arena import services


@shared_task(name="arena.bot_version_build", acks_late=True)
def bot_version_build_task(version_id: int) -> str:
    version = services.bot_version_build(version_id=version_id)
    return "skipped" if version is None else version.status
