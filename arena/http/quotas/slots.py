"""Where the request quotas (``throttles``) keep their slots: a table of PostgreSQL.

Not in Redis: Redis is also the broker, and a quota that could not be counted refused the
request with a 503, so a broker outage refused the very challenges and uploads that the
outage path (stored, answered 202, sent once the broker is back) exists for. The database
is needed by every counted action anyway, and one row per slot is shared by every web
process.

A slot is a row keyed by its name. Taking it is atomic, however many requests race for it:
an INSERT, which the primary key lets only one of them make, or, when the row is there but
expired, a conditional UPDATE (``expires <= now``), which the row lock lets only one make
(the others find it taken once they get the lock). Expired rows are reused by their key and
the rest are deleted by ``purge`` (the beat's ``arena.quota_slots_purge``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.db import DatabaseError, IntegrityError, transaction

from arena.models import QuotaSlot

STORE_ERRORS: tuple[type[Exception], ...] = (DatabaseError,)
"""What a store that cannot be reached raises."""


def _moment(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


def taken(holder: str, *, now: float | None = None) -> dict[str, float]:
    """The slots of ``holder`` in use, and when each was taken (one indexed look-up,
    however large the rate)."""
    moment = _moment(time.time() if now is None else now)
    rows = QuotaSlot.objects.filter(holder=holder, expires__gt=moment)
    return dict(rows.values_list("key", "taken_at"))


def take(key: str, *, holder: str, now: float, seconds: int) -> bool:
    """Take the slot ``key`` of ``holder`` for ``seconds`` from ``now``; False if it is in
    use."""
    moment = _moment(now)
    expires = moment + timedelta(seconds=seconds)
    try:
        # A savepoint: a request's own transaction goes on after a refused INSERT.
        with transaction.atomic():
            QuotaSlot.objects.create(key=key, holder=holder, taken_at=now, expires=expires)
        return True
    except IntegrityError:
        pass
    reused = QuotaSlot.objects.filter(key=key, expires__lte=moment)
    return reused.update(taken_at=now, expires=expires) == 1


def release(keys: Iterable[str]) -> None:
    """Free the slots ``keys`` (an action refused)."""
    QuotaSlot.objects.filter(key__in=list(keys)).delete()


def release_all(holder: str) -> None:
    """Free every slot of ``holder`` (failures forgiven)."""
    QuotaSlot.objects.filter(holder=holder).delete()


def purge() -> int:
    """Delete the expired slots; returns how many."""
    deleted, _ = QuotaSlot.objects.filter(expires__lte=_moment(time.time())).delete()
    return deleted
