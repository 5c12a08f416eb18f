"""Which queue each task goes to (arena/queues/routing.py): what a person waits for is interactive,
batch work is background, and a match goes where its kind says."""

from __future__ import annotations

import pytest
from django.conf import settings

from arena.models import Match
from arena.queues.routing import background_queue, interactive_queue, match_queue
from config.celery import app

BACKGROUND = {
    "arena.matchmaking",
    "arena.ratings_fit",
    "arena.quota_slots_purge",
    "leagues.league_advance",
}
INTERACTIVE = {
    "arena.bot_version_validate",
    "arena.match_requeue_stale",
    "play.table_advance",
    "play.challenge_par",
    "play.challenges_expire",
    "play.tables_expire",
    "robots.board_par",
    "robots.events_close_due",
    "robots.schedule_run",
    "tournaments.board_par",
    "leagues.rounds_close",
    # A person at a card table waits for each bot's move and each run-out clock.
    "lobby.bot_move",
    "lobby.clocks_sweep",
}


def _queue_of(task: str) -> str:
    route = app.amqp.router.route({}, task, (), {})
    return str(route["queue"].name)


def test_every_task_of_the_project_has_its_queue() -> None:
    app.loader.import_default_modules()
    ours = {name for name in app.tasks if not name.startswith("celery.")}
    # A task added later must be placed on purpose, here and in arena/queues/routing.py.
    assert ours == BACKGROUND | INTERACTIVE | {"arena.match_run"}
    for name in BACKGROUND:
        assert _queue_of(name) == background_queue(), name
    for name in INTERACTIVE:
        assert _queue_of(name) == interactive_queue(), name


@pytest.mark.parametrize(
    ("kind", "boards", "waited_for"),
    [
        (Match.Kind.CHALLENGE, 4, True),
        (Match.Kind.CHALLENGE, 12, True),
        (Match.Kind.VALIDATION, 2, True),
        # A long challenge would hold an interactive worker for as long as it plays.
        (Match.Kind.CHALLENGE, 13, False),
        (Match.Kind.CHALLENGE, 100, False),
        (Match.Kind.MATCHMAKING, 4, False),
        (Match.Kind.LEAGUE, 4, False),
    ],
)
def test_a_short_match_a_person_asked_for_is_interactive_and_others_background(
    kind: str, boards: int, waited_for: bool
) -> None:
    assert settings.INTERACTIVE_MATCH_BOARDS == 12
    expected = interactive_queue() if waited_for else background_queue()
    assert match_queue(kind, boards) == expected
