"""Celery tasks of the tournaments app: each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.board_par")
def board_par_task(board_id: int) -> str:
    """Idempotent: a board whose par is stored already is skipped."""
    par = services.board_par_compute(board_id=board_id)
    return "skipped" if par is None else f"{par.score_ns}/{par.score_ew}"
