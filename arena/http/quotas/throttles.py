"""Quotas on costly or abusable actions, counted only when they happen.

DRF's throttles count every request, refused ones included: a player whose challenges were
mostly refused (a bad version id, an inactive bot) was locked out for most of an hour. A
quota here takes a slot before the action and hands it back unless the action was accepted
(an upload stored, a challenge queued, a replay verified) or, for sign-in, unless it failed:

    with UPLOADS.spend(request):  # 429 with Retry-After when the player or the IP is out
        ...                       # validate and perform the action; an exception hands back

Each quota counts per player and per client IP, so that extra accounts do not multiply the
allowance. Counters live in the database (arena/http/quotas/slots.py, shared by every web
process), not in Redis: a broker outage must not refuse the actions that are stored and
sent once the broker is back. When the counters cannot be reached the action is refused
with a 503 and a Retry-After rather than allowed uncounted.

A rate of N per window is N slots, rows that live for the window from the time they are
taken: a sliding window of the accepted actions. A slot is taken atomically (an INSERT, or
a conditional UPDATE of an expired one), so requests racing for a nearly full quota get
exactly the slots left, however many race.

Rates are ``N/period`` with period ``second``, ``minute``, ``hour`` or ``day`` (first letter
enough), optionally with a multiple: ``10/15m`` is ten per fifteen minutes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from django.conf import settings
from django.http import HttpRequest

from arena.errors import ServiceUnavailable, TooManyAttempts
from arena.http.client_address import client_address
from arena.http.quotas import slots
from arena.http.quotas.rates import Rate

log = logging.getLogger(__name__)


def client_ip(request: HttpRequest | Any) -> str:
    """The client's address, from the proxies the deployment trusts (``TRUSTED_PROXIES``)."""
    return client_address(request)


class Reservation:
    """The slots one action holds, one per identity of its request: kept once the action
    has happened, handed back when it was refused."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys

    def release(self) -> None:
        """Hand the slots back (the action was refused, or it does not count)."""
        if not self.keys:
            return
        try:
            slots.release(self.keys)
        except slots.STORE_ERRORS as error:
            # The slot then lapses with its window: the player is undercharged never,
            # overcharged by one until it lapses.
            log.warning("could not hand back quota slots %s: %s", self.keys, error)
        self.keys = []


class Quota:
    """One kind of counted action: a rate per player, a rate per IP and a rate for everyone
    together (each optional), read from settings at use (so that a deployment, or a test,
    may change them)."""

    def __init__(
        self,
        scope: str,
        *,
        what: str,
        per_player: str | None,
        per_ip: str | None,
        overall: str | None = None,
    ) -> None:
        self.scope = scope
        self.what = what
        self.per_player = per_player
        self.per_ip = per_ip
        self.overall = overall

    def _identities(self, request: Any, account: str | None) -> list[tuple[str, Rate]]:
        identities = []
        if self.per_ip is not None:
            rate = Rate.parse(getattr(settings, self.per_ip))
            identities.append((f"ip:{client_ip(request)}", rate))
        if self.overall is not None:
            identities.append(("everyone", Rate.parse(getattr(settings, self.overall))))
        if self.per_player is not None:
            if account is None:
                user = getattr(request, "user", None)
                account = str(user.pk) if user is not None and user.is_authenticated else None
            if account is not None:
                rate = Rate.parse(getattr(settings, self.per_player))
                identities.append((f"account:{account}", rate))
        return identities

    def _holder(self, identity: str) -> str:
        return f"quota:{self.scope}:{identity}"

    def _slots(self, identity: str, rate: Rate) -> Iterator[str]:
        return (f"{self._holder(identity)}:{slot}" for slot in range(rate.count))

    def check(self, request: Any, *, account: str | None = None) -> None:
        """Raise TooManyAttempts (429) when the next action would exceed a rate; ServiceUnavailable
        (503) when the counters cannot be read. It takes nothing: a request that will be
        counted takes its slot with ``reserve`` (``account``: whose quota, when that is not
        the signed-in user; a sign-in attempt names its account)."""
        now = time.time()
        waits = []
        for identity, rate in self._identities(request, account):
            taken = self._taken(identity, rate)
            if len(taken) >= rate.count:
                waits.append((min(taken.values()) + rate.seconds - now, rate, identity))
        if waits:
            self._refuse(*max(waits, key=lambda wait: wait[0]))

    def used(self, request: Any, *, account: str | None = None) -> int:
        """The slots in use of the request's busiest identity (503 when they cannot be read)."""
        identities = self._identities(request, account)
        return max((len(self._taken(identity, rate)) for identity, rate in identities), default=0)

    def reserve(self, request: Any, *, account: str | None = None) -> Reservation:
        """Take one slot of every rate of the request, or none (429 when a rate is spent).

        A slot is a row that lives for the rate's window, taken atomically, so requests
        racing for the last slot cannot all have it."""
        now = time.time()
        reservation = Reservation([])
        for identity, rate in self._identities(request, account):
            try:
                slot, wait = self._take(identity, rate, now)
            except ServiceUnavailable:
                reservation.release()
                raise
            if slot is None:
                reservation.release()
                self._refuse(wait, rate, identity)
            reservation.keys.append(slot)
        return reservation

    @contextmanager
    def spend(self, request: Any, *, account: str | None = None) -> Iterator[Reservation]:
        """Reserve for the block; the slots are handed back if the block raises."""
        reservation = self.reserve(request, account=account)
        try:
            yield reservation
        except BaseException:
            reservation.release()
            raise

    def reset(self, request: Any, *, account: str | None = None) -> None:
        """Forget the counts (a successful sign-in clears its account's failures)."""
        for identity, _rate in self._identities(request, account):
            if identity.startswith("account:"):
                try:
                    slots.release_all(self._holder(identity))
                except slots.STORE_ERRORS as error:
                    log.warning("could not reset %s for %s: %s", self.scope, identity, error)

    def _refuse(self, wait: float, rate: Rate, identity: str) -> NoReturn:
        whose = " from everyone together" if identity == "everyone" else ""
        raise TooManyAttempts(
            f"Throttled: at most {rate.count} {self.what} per {rate.period()}{whose}.",
            wait=max(wait, 1.0),
        )

    def _take(self, identity: str, rate: Rate, now: float) -> tuple[str | None, float]:
        """A free slot taken (its key), or None and the seconds until one is free."""
        taken = self._taken(identity, rate)
        try:
            for slot in self._slots(identity, rate):
                # A slot seen free may be taken by a racing request before this add: then
                # the add fails and the next free one is tried.
                if slot not in taken and slots.take(
                    slot, holder=self._holder(identity), now=now, seconds=rate.seconds
                ):
                    return slot, 0.0
        except slots.STORE_ERRORS as error:
            raise self._unavailable(error) from None
        return None, min(taken.values(), default=now) + rate.seconds - now

    def _taken(self, identity: str, rate: Rate) -> dict[str, float]:
        """The slots in use and when each was taken."""
        try:
            return slots.taken(self._holder(identity))
        except slots.STORE_ERRORS as error:
            raise self._unavailable(error) from None

    def _unavailable(self, error: Exception) -> ServiceUnavailable:
        log.warning("quota store unavailable for %s: %s", self.scope, error)
        return ServiceUnavailable(
            "the service that counts requests is unavailable; try again shortly"
        )


UPLOADS = Quota(
    "uploads", what="bot uploads", per_player="UPLOAD_RATE", per_ip="UPLOAD_RATE_PER_IP"
)
CHALLENGES = Quota(
    "challenges", what="challenges", per_player="CHALLENGE_RATE", per_ip="CHALLENGE_RATE_PER_IP"
)
REGISTRATIONS = Quota(
    "registrations",
    what="registrations",
    per_player=None,
    per_ip="REGISTRATION_RATE",
    # Addresses are many (a botnet's, a cloud's): the whole site's registrations are
    # bounded too, so that accounts cannot be made faster than this however they come.
    overall="REGISTRATION_RATE_OVERALL",
)
VERIFICATIONS = Quota(
    "verify", what="replay verifications not already cached", per_player=None, per_ip="VERIFY_RATE"
)
