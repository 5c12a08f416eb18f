"""Quotas on costly or abusable actions, counted only when they happen.

DRF's throttles count every request, refused ones included: a player whose challenges were
mostly refused (a bad version id, an inactive bot) was locked out for most of an hour. A
quota here is checked before the action and charged only once the action was accepted (an
upload stored, a challenge queued, a replay verified) or, for sign-in, once it failed:

    UPLOADS.check(request)        # 429 with Retry-After when the player or the IP is out
    ...                           # validate and perform the action
    UPLOADS.charge(request)       # only now does it count

Each quota counts per player and per client IP, so that extra accounts do not multiply the
allowance. Counters live in the default cache (Redis in production, shared by every web
process); when it cannot be reached the action is refused with a 503 and a Retry-After
rather than allowed uncounted. Counting is a sliding window of the accepted actions'
times. Two requests racing may both pass a nearly full quota: the window may be exceeded
by the number of concurrent requests, never undercounted afterwards.

Rates are ``N/period`` with period ``second``, ``minute``, ``hour`` or ``day`` (first letter
enough), optionally with a multiple: ``10/15m`` is ten per fifteen minutes.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle

from arena.caching import CACHE_ERRORS
from arena.errors import ServiceUnavailable

log = logging.getLogger(__name__)

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$")


@dataclass(frozen=True)
class Rate:
    """At most ``count`` actions in any ``seconds``-long window."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``Rate.parse("20/hour")`` is Rate(20, 3600); ``Rate.parse("10/15m")`` Rate(10, 900)."""
        match = _RATE.match(text.lower())
        if match is None:
            raise ValueError(f"a rate is N/period, such as 20/hour or 10/15m, not {text!r}")
        count, multiple, unit = match.groups()
        return cls(int(count), int(multiple or 1) * _UNITS[unit])

    def period(self) -> str:
        """The window in words: ``hour``, ``15 minutes``."""
        for unit, seconds in (("day", 86400), ("hour", 3600), ("minute", 60)):
            if self.seconds == seconds:
                return unit
            if self.seconds % seconds == 0:
                return f"{self.seconds // seconds} {unit}s"
        return f"{self.seconds} seconds"


def client_ip(request: HttpRequest | Any) -> str:
    """The client's address, as DRF's throttles see it (``NUM_PROXIES`` honoured)."""
    # get_ident reads only META, which a Django HttpRequest has as a DRF Request does.
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


class Quota:
    """One kind of counted action: a rate per player and a rate per IP, read from settings
    at use (so that a deployment, or a test, may change them)."""

    def __init__(self, scope: str, *, what: str, per_player: str | None, per_ip: str) -> None:
        self.scope = scope
        self.what = what
        self.per_player = per_player
        self.per_ip = per_ip

    def _identities(self, request: Any, account: str | None) -> list[tuple[str, Rate]]:
        identities = [(f"ip:{client_ip(request)}", Rate.parse(getattr(settings, self.per_ip)))]
        if self.per_player is not None:
            if account is None:
                user = getattr(request, "user", None)
                account = str(user.pk) if user is not None and user.is_authenticated else None
            if account is not None:
                rate = Rate.parse(getattr(settings, self.per_player))
                identities.append((f"account:{account}", rate))
        return identities

    def _key(self, identity: str) -> str:
        return f"quota:{self.scope}:{identity}"

    def check(self, request: Any, *, account: str | None = None) -> None:
        """Raise Throttled (429) when the next action would exceed a rate; ServiceUnavailable
        (503) when the counters cannot be read. ``account``: whose quota, when that is not
        the signed-in user (a sign-in attempt names its account)."""
        now = time.time()
        waits: list[tuple[float, Rate]] = []
        for identity, rate in self._identities(request, account):
            history = [t for t in self._read(identity) if t > now - rate.seconds]
            if len(history) >= rate.count:
                waits.append((history[-rate.count] + rate.seconds - now, rate))
        if waits:
            wait, rate = max(waits, key=lambda pair: pair[0])
            raise Throttled(
                wait=max(wait, 1.0),
                detail=f"Throttled: at most {rate.count} {self.what} per {rate.period()}.",
            )

    def charge(self, request: Any, *, account: str | None = None) -> None:
        """Count one accepted action against every identity of the request."""
        now = time.time()
        for identity, rate in self._identities(request, account):
            try:
                history = [t for t in self._read(identity) if t > now - rate.seconds]
                history.append(now)
                cache.set(self._key(identity), history[-rate.count :], rate.seconds)
            # A starred tuple of exception classes, which mypy cannot read in an except.
            except (ServiceUnavailable, *CACHE_ERRORS) as error:  # type: ignore[misc]
                # The action itself has happened: it is not undone for want of a counter.
                log.warning("could not count %s for %s: %s", self.scope, identity, error)

    def reset(self, request: Any, *, account: str | None = None) -> None:
        """Forget the counts (a successful sign-in clears its account's failures)."""
        for identity, _ in self._identities(request, account):
            if identity.startswith("account:"):
                try:
                    cache.delete(self._key(identity))
                except CACHE_ERRORS as error:
                    log.warning("could not reset %s for %s: %s", self.scope, identity, error)

    def _read(self, identity: str) -> list[float]:
        try:
            history = cache.get(self._key(identity))
        except CACHE_ERRORS as error:
            log.warning("quota store unavailable for %s: %s", self.scope, error)
            raise ServiceUnavailable(
                "the service that counts requests is unavailable; try again shortly"
            ) from None
        return sorted(history) if isinstance(history, list) else []


UPLOADS = Quota(
    "uploads", what="bot uploads", per_player="UPLOAD_RATE", per_ip="UPLOAD_RATE_PER_IP"
)
CHALLENGES = Quota(
    "challenges", what="challenges", per_player="CHALLENGE_RATE", per_ip="CHALLENGE_RATE_PER_IP"
)
REGISTRATIONS = Quota(
    "registrations", what="registrations", per_player=None, per_ip="REGISTRATION_RATE"
)
VERIFICATIONS = Quota(
    "verify", what="replay verifications not already cached", per_player=None, per_ip="VERIFY_RATE"
)
