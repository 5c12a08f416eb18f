"""At most one ``play.table_advance`` message waits on the broker for a table.

A table waiting for an arena bot is nudged by every poll of its page (``table_nudge``) and
by each move stored (``_store``); behind a slow queue each nudge used to add one more message,
and the worker then woke up to dozens of them for one table. A short-lived cache key per
table now says "a message is waiting": it is added (atomically, ``cache.add``) when one is
sent and deleted when the task starts, so a nudge while a message waits sends nothing, and
a move stored after the task started sends the next one. The key expires after
``PENDING_TTL_S``: a message lost with the broker is then sent again by the next nudge.

The cache only saves messages: when it cannot be reached the message is sent anyway, and
``table_advance`` is safe to deliver twice.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PENDING_TTL_S = 120
"""How long a sent message counts as waiting; longer than the interactive queue's wait,
short enough that a lost message is sent again within minutes."""

_CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)


def _key(table_id: int) -> str:
    return f"play:table-advance-pending:{table_id}"


def advance_mark_sent(*, table_id: int) -> bool:
    """Mark a message as waiting for the table; False if one was already waiting."""
    try:
        return bool(cache.add(_key(table_id), 1, timeout=PENDING_TTL_S))
    except _CACHE_ERRORS as error:
        logger.warning("table %s: the cache is unreachable, sending anyway: %s", table_id, error)
        return True


def advance_mark_done(*, table_id: int) -> None:
    """No message waits for the table any more: its task started, or it was never sent."""
    try:
        cache.delete(_key(table_id))
    except _CACHE_ERRORS as error:
        logger.warning("table %s: the cache is unreachable: %s", table_id, error)
