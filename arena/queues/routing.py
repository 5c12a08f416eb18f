"""The two task queues, by who waits for the work.

- The interactive queue (``CELERY_QUEUE``, the default queue) carries what a person is
  waiting for: validating an upload, a match a person asked for, an arena bot's move at a
  human's table, pars of a closed event's boards, and the short periodic jobs (the re-queue,
  closing due rounds and events).
- The background queue (``CELERY_QUEUE`` + ``-background``) carries the long batch work
  nobody watches: matchmaking and its matches, league fixtures and a league's timetable,
  rating refits, purging spent quota slots.

Each queue has its own workers (deploy/README.md), so an hour of matchmaking matches never
holds the slot an upload's validation needs. The names are read from the settings at each
call, so a test process that renames its queue (tests/conftest.py) routes to the new name.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

BACKGROUND_SUFFIX = "-background"

BACKGROUND_TASKS = frozenset(
    {
        "arena.matchmaking",
        "arena.ratings_fit",
        "arena.quota_slots_purge",
        "leagues.league_advance",
    }
)
"""Tasks that only ever do batch work; every other task goes to the interactive queue, and
``arena.match_run`` goes where its match's kind says (``match_queue``)."""

BACKGROUND_MATCH_KINDS = frozenset({"matchmaking", "league"})
"""Matches nobody asked for in person: the matchmaker's and league fixtures."""


def interactive_queue() -> str:
    return str(settings.CELERY_TASK_DEFAULT_QUEUE)


def background_queue() -> str:
    return interactive_queue() + BACKGROUND_SUFFIX


def all_queues() -> list[str]:
    return [interactive_queue(), background_queue()]


def is_interactive_match(kind: str, boards: int) -> bool:
    """Whether a match of this kind (``Match.Kind``) and length is waited for in person: a
    challenge or a validation match of at most ``INTERACTIVE_MATCH_BOARDS`` boards. A longer
    challenge is batch work however it was asked for: on the interactive workers it would
    hold, for as long as it plays, the slot the next upload's validation needs."""
    return kind not in BACKGROUND_MATCH_KINDS and boards <= settings.INTERACTIVE_MATCH_BOARDS


def match_queue(kind: str, boards: int) -> str:
    """The queue of a match of this kind and length (``is_interactive_match``)."""
    return interactive_queue() if is_interactive_match(kind, boards) else background_queue()


def route_task(
    name: str, args: Any, kwargs: Any, options: dict[str, Any], task: Any = None, **extra: Any
) -> dict[str, str] | None:
    """Celery's router (``CELERY_TASK_ROUTES``): the background tasks to their queue. A queue
    given when sending (a match's) wins; None leaves the default, the interactive queue."""
    if name in BACKGROUND_TASKS:
        return {"queue": background_queue()}
    return None
