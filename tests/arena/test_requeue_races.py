"""Runs of the re-queue job at once (two beats, or runs piled up behind a busy queue) send a
lost match once; an expired quota slot raced for is taken once.

Each test releases its threads together from a barrier, each on its own connection to the
real PostgreSQL of the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any, TypeVar

import pytest
from django.db import connection

from arena import services
from arena.http.quotas import slots
from arena.models import Match, Player
from arena.queues.broker_contents import BrokerContents
from arena.services.matches import match_create
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version
from tests.conftest import skip_or_fail

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("plain_bots")]

RACERS = 8
T = TypeVar("T")


@pytest.fixture(autouse=True)
def postgresql() -> None:
    if connection.vendor != "postgresql":
        skip_or_fail("threads racing on one database need DATABASE_URL on PostgreSQL")


def _race(attempt: Callable[[], T]) -> list[T]:
    start = Barrier(RACERS)

    def one(_: int) -> T:
        start.wait()
        try:
            return attempt()
        finally:
            connection.close()  # the thread's own

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(one, range(RACERS)))


def test_runs_of_the_requeue_job_at_once_send_a_lost_match_once(alice: Player, bob: Player) -> None:
    x, y = trusted_version(alice, "a", FIRST_LEGAL_BOT), trusted_version(bob, "b", RANDOM_BOT)
    lost = match_create(version_x=x, version_y=y, boards=1)
    Match.objects.filter(pk=lost.pk).update(
        status=Match.Status.QUEUED, last_sent="2001-01-01T00:00:00Z"
    )
    busy = BrokerContents(readable=True, queue_is_empty=False)
    sent = _race(lambda: services.match_requeue_stale(broker=busy))
    assert sorted(match for run in sent for match in run) == [lost.pk]


def test_an_expired_quota_slot_raced_for_is_taken_once() -> None:
    now = time.time()
    holder = "quota:race:ip:10.9.0.9"
    slot, lapsed = f"{holder}:0", f"{holder}:1"
    assert slots.take(slot, holder=holder, now=now - 7200, seconds=3600)
    taken: list[Any] = _race(lambda: slots.take(slot, holder=holder, now=now, seconds=60))
    assert taken.count(True) == 1
    assert slots.taken(holder, now=now) == {slot: now}
    assert slots.take(lapsed, holder=holder, now=now - 7200, seconds=60)
    assert slots.purge() == 1  # the lapsed one; the one just taken stays
    assert slots.taken(holder, now=now + 61) == {}
