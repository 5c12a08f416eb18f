"""The sign-in page, under the sign-in quota of failures (arena/signin.py): while the quota
is spent the form is shown again with the refusal's status and Retry-After."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpResponse

from arena.errors import ServiceError, ServiceUnavailable, TooManyAttempts, form_refused
from arena.signin import account_of, check_attempt


class QuotaAuthenticationForm(AuthenticationForm):
    """The sign-in form, refusing before the password is checked while the quota is spent."""

    refusal: ServiceError | None = None
    """The quota's refusal of the attempt: the form is shown again with its status."""

    def clean(self) -> dict[str, Any]:
        try:
            check_attempt(self.request, account=account_of(self.data.get("username")))
        except TooManyAttempts as spent:
            self.refusal = spent
            raise ValidationError(
                f"Too many failed sign-ins. Try again in {spent.wait} seconds.", code="throttled"
            ) from None
        except ServiceUnavailable as unavailable:
            self.refusal = unavailable
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
            return form_refused(response, form.refusal)
        return response
