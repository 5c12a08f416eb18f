"""Refused entries sent at once by one player still get no more than the allowance.

Runs on PostgreSQL and the shared Redis cache (the production set-up), with one thread per
request as the web processes would serve them.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.conf import settings
from django.db import connection, connections

from arena.errors import InvalidInput
from arena.models import Player
from engine import Suit
from tests.conftest import skip_or_fail
from tournaments import services
from tournaments.hands import EntryOutcome, ScoreEntry
from tournaments.models import Event

from .conftest import running_event

pytestmark = pytest.mark.django_db(transaction=True)

ATTEMPTS = 3 * services.ENTRY_REJECTIONS_ALLOWED


def test_simultaneous_refused_entries_get_exactly_the_allowance(
    alice: Player, field: list[Player]
) -> None:
    if connection.vendor != "postgresql" or "redis" not in settings.CACHES["default"]["BACKEND"]:
        skip_or_fail("this needs DATABASE_URL on PostgreSQL and REDIS_URL")
    event = running_event(alice, field)
    wrong = ScoreEntry(EntryOutcome.PLAYED, 0, 20, Suit.S, (999, 999), (12, 13))
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(ATTEMPTS)

    def attempt() -> None:
        start.wait()
        try:
            services.result_preview(
                event=Event.objects.get(pk=event.pk),
                by=field[0],
                section_name="A",
                round=1,
                table=1,
                board_number=1,
                entry=wrong,
            )
            outcome = "accepted"
        except InvalidInput:
            outcome = "refused"
        except services.EntryAttemptsExhausted:
            outcome = "throttled"
        finally:
            connections.close_all()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=attempt) for _ in range(ATTEMPTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == {
        "refused": services.ENTRY_REJECTIONS_ALLOWED,
        "throttled": ATTEMPTS - services.ENTRY_REJECTIONS_ALLOWED,
    }
