"""Completing a match replays its games before it takes the lock that orders completions.

The checks are made from inside the replay step itself, so they do not depend on timing:
the completing connection has opened no transaction of its own, and another connection
takes the completion lock at once (``NOWAIT`` fails rather than waits if the lock is held).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import DatabaseError, connection, connections, transaction

from arena.models import BotVersion, CompletionCounter, Game, Match
from arena.runner import MatchOutcome
from arena.services import matches
from arena.services.matches import ReplayedBoard, match_complete, match_create
from arena.tasks import match_run_task
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def _spy_on_replays(monkeypatch: pytest.MonkeyPatch, look: Any) -> list[Any]:
    """Replace the replay step by itself plus ``look()``, whose answers are returned."""
    seen: list[Any] = []
    replay = matches.match_replays

    def spy(*, match: Match, outcome: MatchOutcome) -> list[ReplayedBoard]:
        seen.append(look())
        return replay(match=match, outcome=outcome)

    monkeypatch.setattr(matches, "match_replays", spy)
    return seen


def test_the_games_are_replayed_outside_the_completion_transaction(
    versions: tuple[BotVersion, BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test itself runs in a transaction: what counts is that completion opened none.
    outside = len(connection.atomic_blocks)
    seen = _spy_on_replays(monkeypatch, lambda: len(connection.atomic_blocks))
    match = match_create(version_x=versions[0], version_y=versions[1], boards=2)

    assert match_run_task.apply(args=[match.pk]).get() == "done"

    assert seen == [outside]
    assert Game.objects.filter(match=match).count() == 4


def _completion_lock_is_free() -> bool:
    """Whether another connection takes the completion lock without waiting."""
    answer: list[bool] = []

    def try_lock() -> None:
        try:
            with transaction.atomic():
                CompletionCounter.objects.select_for_update(nowait=True).get(pk=1)
            answer.append(True)
        except DatabaseError:
            answer.append(False)
        finally:
            connections.close_all()

    other = threading.Thread(target=try_lock)
    other.start()
    other.join()
    return answer == [True]


@pytest.mark.django_db(transaction=True)
def test_another_completion_can_take_the_lock_while_a_match_is_replayed(
    versions: tuple[BotVersion, BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a second connection's NOWAIT lock needs PostgreSQL")
    CompletionCounter.objects.get_or_create(pk=1)
    first = match_create(version_x=versions[0], version_y=versions[1], boards=2)
    assert match_run_task.apply(args=[first.pk]).get() == "done"
    # The lock is held by the completions before and after the one spied on: the check
    # itself must be able to see a held lock.
    with transaction.atomic():
        CompletionCounter.objects.select_for_update().get(pk=1)
        assert not _completion_lock_is_free()

    seen = _spy_on_replays(monkeypatch, _completion_lock_is_free)
    second = match_create(version_x=versions[0], version_y=versions[1], boards=2)
    assert match_run_task.apply(args=[second.pk]).get() == "done"

    assert seen == [True]
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.completion_seq == (first.completion_seq or 0) + 1


def test_a_completion_whose_claim_is_lost_replays_nothing(
    versions: tuple[BotVersion, BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _spy_on_replays(monkeypatch, lambda: None)
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    outcome = MatchOutcome(boards=[], summary=None, stderr={})  # type: ignore[arg-type]

    assert not match_complete(match_id=match.pk, token="not-the-claim", outcome=outcome)

    assert seen == []
    assert Match.objects.get(pk=match.pk).status == Match.Status.QUEUED
