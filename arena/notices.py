"""In-site notices: tell a person that what they were waiting on has happened.

A version validated or rejected, a challenge played, a league round scheduled, an event's
results published, a table's result waiting for the other side's confirmation or rejected
by it: each service that makes such a thing happen calls ``notify`` in the
transaction that makes it happen, so a notice is never written for what a rollback undid,
nor lost for what committed. A notice is keyed by its event, so a task delivered twice,
or a service run again after a crash, adds no second notice (the unique constraint
decides under concurrency).
Notices are read on the ``/notices/`` page; the header shows how many are unread.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from arena.models import Notice

__all__ = ["mark_read", "notices_of", "notify", "notify_many", "unread_count"]

Kind = Notice.Kind

SHOWN = 50
"""How many notices the page lists: the newest; older ones are not lost, only not shown."""


def notify(*, user_id: int, kind: str, key: str, text: str, url: str = "") -> bool:
    """Add the notice of ``key`` for the user; False if it was there already."""
    try:
        with transaction.atomic():
            _, created = Notice.objects.get_or_create(
                user_id=user_id,
                key=key[:100],
                defaults={"kind": kind, "text": text[:300], "url": url[:300]},
            )
    except IntegrityError:
        # The same event noticed at the same moment by another process: one notice.
        return False
    return created


def notify_many(*, user_ids: Iterable[int], kind: str, key: str, text: str, url: str = "") -> int:
    """The same notice for several people (each once); how many were added."""
    return sum(
        notify(user_id=user_id, kind=kind, key=key, text=text, url=url)
        for user_id in sorted(set(user_ids))
    )


def notices_of(*, user_id: int) -> QuerySet[Notice]:
    """The person's newest notices, read or not."""
    return Notice.objects.filter(user_id=user_id)[:SHOWN]


def unread_count(*, user_id: int) -> int:
    return Notice.objects.filter(user_id=user_id, read__isnull=True).count()


def mark_read(*, user_id: int, now: datetime | None = None) -> int:
    """Mark every unread notice of the person read; how many were."""
    return Notice.objects.filter(user_id=user_id, read__isnull=True).update(
        read=now or timezone.now()
    )
