"""Sign-in under a quota of failures: the API token, the page sign-in and every other
password check (the admin's) share one count per client IP and per account.

A wrong password is counted; once an IP or an account has used its failures, every attempt
is refused until the window moves on, the right password included, so that guessing costs
the attacker time. The API and the sign-in page answer 429 with Retry-After; other password
checks simply fail (``QuotaModelBackend``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response

from arena.errors import ServiceUnavailable
from arena.throttles import Quota

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SIGN_IN_FAILURES = Quota(
    "sign-in",
    what="failed sign-ins",
    per_player="LOGIN_FAILURE_RATE",
    per_ip="LOGIN_FAILURE_RATE_PER_IP",
)


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
            # Every attempt takes a slot before the password is checked, so that attempts
            # racing for the last one cannot all be tried; a right password hands it back.
            attempt = SIGN_IN_FAILURES.reserve(request, account=account)
        except (Throttled, ServiceUnavailable):
            # Spent, or it cannot be told: a password is not checked uncounted.
            raise PermissionDenied(
                "too many failed sign-ins, or the count is unavailable"
            ) from None
        user = super().authenticate(request, username, password, **kwargs)
        if user is not None:
            attempt.release()
            SIGN_IN_FAILURES.reset(request, account=account)
        return user


class TokenView(ObtainAuthToken):
    """Obtain an API token (username + password), under the sign-in quota."""

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data
        username = data.get("username") if isinstance(data, Mapping) else None
        SIGN_IN_FAILURES.check(request, account=account_of(username))
        return super().post(request, *args, **kwargs)


class QuotaAuthenticationForm(AuthenticationForm):
    """The sign-in form, refusing before the password is checked while the quota is spent."""

    refusal: tuple[int, int] | None = None
    """The status and the seconds to wait, when the quota refused the attempt."""

    def clean(self) -> dict[str, Any]:
        try:
            SIGN_IN_FAILURES.check(self.request, account=account_of(self.data.get("username")))
        except Throttled as spent:
            # Throttled sets wait in __init__; its stub does not declare it.
            wait = math.ceil(spent.wait or 1)  # type: ignore[attr-defined]
            self.refusal = (429, wait)
            raise ValidationError(
                f"Too many failed sign-ins. Try again in {wait} seconds.", code="throttled"
            ) from None
        except ServiceUnavailable as unavailable:
            self.refusal = (503, unavailable.wait)
            raise ValidationError(
                f"Signing in is unavailable for a moment. Try again in {unavailable.wait} seconds.",
                code="unavailable",
            ) from None
        return super().clean()


class SignInView(LoginView):
    """The page sign-in, answering 429 with Retry-After while the quota is spent (503 while
    it cannot be read)."""

    authentication_form = QuotaAuthenticationForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if isinstance(form, QuotaAuthenticationForm) and form.refusal is not None:
            response.status_code, wait = form.refusal
            response["Retry-After"] = str(wait)
        return response
