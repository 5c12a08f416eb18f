"""The re-queue job's sending, matches and validations alike: each item at most once a period.

Each item records when its message was last sent (``last_sent``, set by its publish
function before each send). An item found stale is sent only after moving that clock from
the value read to now with a conditional UPDATE: of two re-queue runs at once (two beats, or
runs that piled up behind a busy queue) one moves it and sends, the other sends nothing,
and no run sends it again within ``MATCH_RESEND_AFTER_S``. A duplicate would be harmless
(a worker claims a match, or settles a version, once), but each costs a delivery.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce

from arena.queues.broker_contents import BrokerContents


def resend_due(
    items: QuerySet[Any], *, never_sent: Q, lost: Q, publish: Callable[[int], bool], now: datetime
) -> list[int]:
    """Send again the ``items`` never sent, and those ``lost`` whose last send is more than
    ``MATCH_RESEND_AFTER_S`` old (``lost`` may use ``sent_at``: the last send, or the
    creation); returns the ids sent, or tried while the broker is unreachable."""
    cutoff = now - timedelta(seconds=settings.MATCH_RESEND_AFTER_S)
    due = (
        items.annotate(sent_at=Coalesce("last_sent", "created"))
        .filter(never_sent | (lost & Q(sent_at__lt=cutoff)))
        .values_list("pk", "last_sent")
    )
    sent = []
    for pk, last_sent in due:
        if items.filter(pk=pk, last_sent=last_sent).update(last_sent=now) != 1:
            continue  # another run sent it meanwhile
        if publish(pk):
            items.filter(pk=pk, publish_pending=True).update(publish_pending=False)
        sent.append(pk)
    return sent


def unread_queue_wait(broker: BrokerContents) -> timedelta:
    """How long a queued item's message may wait in a broker whose messages cannot be read:
    nothing waits in an empty queue; in a busy one, a message still there is handed out
    again by the broker itself after the visibility timeout, so the job sends at most once
    per that period."""
    if broker.queue_is_empty:
        return timedelta(seconds=settings.MATCH_RESEND_AFTER_S)
    return timedelta(seconds=settings.BROKER_VISIBILITY_TIMEOUT)
