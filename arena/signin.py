"""Sign-in under a quota of failures: the API token, the page sign-in and every other
password check (the admin's) share one count per client IP and per account.

A wrong password is counted against the client's address and against the account it named.
An address that has used its failures is refused every attempt until the window moves on,
the right password included, so that guessing costs the attacker time.

An account that has used its failures is closed only to the addresses that are failing (a
wrong password from them within their own window). A stranger's wrong passwords would
otherwise lock the owner out: the account's count is a denial of service anyone can cause.
So an address with no recent failure still has its password checked: the owner, signing in
from their own address, gets in (which clears the account's count), while a guesser gets
one try per fresh address, after which that address is failing too. The account's count
thus caps what an attacker with a few addresses can try; one with many pays an address per
guess once the count is spent.

The API's token endpoint (arena/api/tokens.py) and the sign-in page (arena/pages/signin.py)
answer 429 with Retry-After; other password checks simply fail (``QuotaModelBackend``).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from arena.errors import ServiceUnavailable, TooManyAttempts
from arena.http.quotas.throttles import Quota, Reservation

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# One scope for both: the counters are those of a single quota per IP and per account.
FAILURES_PER_IP = Quota(
    "sign-in", what="failed sign-ins", per_player=None, per_ip="LOGIN_FAILURE_RATE_PER_IP"
)
FAILURES_PER_ACCOUNT = Quota(
    "sign-in", what="failed sign-ins", per_player="LOGIN_FAILURE_RATE", per_ip=None
)


def check_attempt(request: Any, *, account: str | None) -> None:
    """Raise TooManyAttempts (429) when the attempt must be refused before its password is
    checked: the address has used its failures, or the account has and the address is
    failing (see the module's note). ServiceUnavailable (503) when it cannot be told."""
    FAILURES_PER_IP.check(request)
    try:
        FAILURES_PER_ACCOUNT.check(request, account=account)
    except TooManyAttempts:
        if FAILURES_PER_IP.used(request) > 0:
            raise
        # An address with no recent failure: its password is checked (the owner's way in).


def reserve_attempt(request: Any, *, account: str | None) -> list[Reservation]:
    """Take the attempt's slots before its password is checked, so that attempts racing
    for the last one cannot all be tried: the address's, and the account's unless it is
    spent and the address is not failing. Raises as ``check_attempt``."""
    by_ip = FAILURES_PER_IP.reserve(request)
    try:
        by_account = FAILURES_PER_ACCOUNT.reserve(request, account=account)
    except TooManyAttempts:
        # Counted after this attempt took its own slot: attempts racing from one address
        # see each other's, so a fresh address cannot have several passwords checked at once.
        try:
            clean = FAILURES_PER_IP.used(request) <= 1
        except ServiceUnavailable:
            by_ip.release()
            raise
        if clean:
            return [by_ip]
        by_ip.release()
        raise
    except ServiceUnavailable:
        by_ip.release()
        raise
    return [by_ip, by_account]


def account_of(username: Any) -> str | None:
    """The account a sign-in names, as a short key (usernames are matched without case)."""
    if not isinstance(username, str) or not username.strip():
        return None
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]


class QuotaModelBackend(ModelBackend):
    """Django's password check, refusing while the quota is spent and counting failures."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if request is None:  # not a client's request (a management command, a service)
            return super().authenticate(request, username, password, **kwargs)
        account = account_of(username)
        try:
            # A right password hands the slots back.
            attempt = reserve_attempt(request, account=account)
        except (TooManyAttempts, ServiceUnavailable):
            # Spent, or it cannot be told: a password is not checked uncounted. Django's
            # backend protocol: PermissionDenied stops the other backends, no HTTP answer.
            raise PermissionDenied(
                "too many failed sign-ins, or the count is unavailable"
            ) from None
        user = super().authenticate(request, username, password, **kwargs)
        if user is not None:
            for reservation in attempt:
                reservation.release()
            FAILURES_PER_ACCOUNT.reset(request, account=account)
        return user
