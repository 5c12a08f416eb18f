"""Celery tasks of the lobby: each takes ids and calls one service (lobby.turns)."""

from __future__ import annotations

from celery import shared_task

from lobby import turns


@shared_task(name="lobby.bot_move")
def bot_move_task(table_id: int, ply: int) -> int:
    """The bots' moves at a table from ``ply`` on; does nothing once the ply moved on."""
    return turns.bot_move(table_id=table_id, ply=ply)


@shared_task(name="lobby.clocks_sweep")
def clocks_sweep_task() -> int:
    """Periodic: decisions past their deadline are played by the substitute."""
    return turns.clocks_sweep()
