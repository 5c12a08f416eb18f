"""Requests racing for the last slots of a quota get exactly the slots left.

Each test releases its threads together from a barrier, so that they check the quota at
the same moment, on the real quota store of the run (PostgreSQL in CI), each thread on its
own database connection. Names are unique per test so that counts left by another run or
test are never read.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

import pytest
from django.db import connection
from django.test import RequestFactory

from arena.errors import TooManyAttempts
from arena.http.quotas.throttles import UPLOADS, Quota, Reservation
from arena.models import QuotaSlot
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db(transaction=True)

RACERS = 12


@pytest.fixture(autouse=True)
def postgresql() -> None:
    # SQLite's in-memory test database answers "table is locked" to a second writer at once,
    # where a deployment's file waits for the lock (config/settings.py).
    if connection.vendor != "postgresql":
        skip_or_fail("threads racing on one database need DATABASE_URL on PostgreSQL")


def _request(ip: str) -> Any:
    return RequestFactory().post("/api/bots/1/versions/", REMOTE_ADDR=ip)


def _race(attempt: Callable[[], Reservation]) -> tuple[list[Reservation], int]:
    """``attempt`` run by RACERS threads at once: the reservations made, and the refusals."""
    start = Barrier(RACERS)

    def one() -> Reservation | None:
        start.wait()
        try:
            return attempt()
        except TooManyAttempts:
            return None
        finally:
            connection.close()  # the thread's own

    with ThreadPoolExecutor(RACERS) as pool:
        outcomes = list(pool.map(lambda _: one(), range(RACERS)))
    made = [outcome for outcome in outcomes if outcome is not None]
    return made, len(outcomes) - len(made)


@pytest.fixture
def quota(settings: Any) -> Quota:
    settings.UPLOAD_RATE = "5/hour"
    settings.UPLOAD_RATE_PER_IP = "50/hour"
    return Quota(
        f"race-{uuid.uuid4().hex}",
        what="uploads",
        per_player="UPLOAD_RATE",
        per_ip="UPLOAD_RATE_PER_IP",
    )


def test_racing_requests_take_only_the_slots_left_of_a_nearly_full_quota(quota: Quota) -> None:
    request = _request("10.9.0.1")
    account = "racer"
    for _ in range(3):
        quota.reserve(request, account=account)
    made, refused = _race(lambda: quota.reserve(request, account=account))
    assert (len(made), refused) == (2, RACERS - 2)
    # The account's five slots are taken, each once; the IP's rate holds the same five.
    assert len({key for reservation in made for key in reservation.keys}) == 4
    with pytest.raises(TooManyAttempts) as refusal:
        quota.check(request, account=account)
    assert refusal.value.wait is not None and refusal.value.wait > 0


def test_racing_requests_from_many_accounts_share_the_ips_slots(
    quota: Quota, settings: Any
) -> None:
    settings.UPLOAD_RATE_PER_IP = "4/hour"
    request = _request("10.9.0.2")
    taken = iter([f"account-{n}" for n in range(RACERS)])  # a list's iterator: thread-safe
    made, refused = _race(lambda: quota.reserve(request, account=next(taken)))
    assert (len(made), refused) == (4, RACERS - 4)


def test_a_refused_action_hands_its_slot_back_even_when_others_race_for_it(quota: Quota) -> None:
    request = _request("10.9.0.3")
    held = [quota.reserve(request, account="giver") for _ in range(5)]
    held[0].release()  # the action was refused: its slot is free again
    made, refused = _race(lambda: quota.reserve(request, account="giver"))
    assert (len(made), refused) == (1, RACERS - 1)


def test_a_spent_block_keeps_its_slot_and_a_failed_one_hands_it_back(settings: Any) -> None:
    settings.UPLOAD_RATE = "1/hour"
    request = _request(f"10.9.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}")
    account = uuid.uuid4().hex
    with pytest.raises(ValueError), UPLOADS.spend(request, account=account):
        raise ValueError("the upload was refused")
    with UPLOADS.spend(request, account=account) as reservation:
        assert QuotaSlot.objects.filter(key__in=reservation.keys).count() == 2
    with pytest.raises(TooManyAttempts):
        UPLOADS.check(request, account=account)
