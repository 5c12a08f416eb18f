"""The sign-up page: a person registers in the browser and is signed in.

The page registers through the API's own service (``services.player_register``) under the
API's own quota (``REGISTRATIONS``, per client IP and for everyone together), so that the
browser is no cheaper a way to make accounts than the API. The form checks only what the
service cannot see (the password typed twice) and reads Django's password validators so
that every field's message shows at once; the service decides.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, login, password_validation
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from arena import services
from arena.errors import InvalidInput
from arena.http.quotas.throttles import REGISTRATIONS

BACKEND = "arena.signin.QuotaModelBackend"
"""The backend the new player is signed in with (the site's only one)."""


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150)
    display_name = forms.CharField(max_length=64, required=False)
    password1 = forms.CharField(strip=False, widget=forms.PasswordInput)
    password2 = forms.CharField(strip=False, widget=forms.PasswordInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first is not None and second is not None and first != second:
            self.add_error("password2", "The two passwords differ.")
        elif first is not None:
            user = get_user_model()(username=data.get("username", ""))
            try:
                password_validation.validate_password(first, user)
            except ValidationError as error:
                self.add_error("password1", error)
        return data


class _Invalid(Exception):
    """The form's input is refused: the quota's slot is handed back."""


FIELDS = {"username": "username", "password": "password1", "display_name": "display_name"}
"""The form field of each of the service's ``InvalidInput.field``."""


@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        # A second account is made signed out: nothing here switches who is signed in.
        return redirect("home:player", username=request.user.get_username())
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method != "POST":
        return _page(request, form)
    try:
        with REGISTRATIONS.spend(request):  # a refused registration hands its slot back
            if not form.is_valid():
                raise _Invalid
            player = services.player_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data["display_name"],
            )
    except _Invalid:
        return _page(request, form, status=400)
    # Over the quota, or with the quota store away, the refusal is the site's one refusal
    # page (arena.http.middleware.RefusalPageMiddleware), with its Retry-After.
    except InvalidInput as refused:
        form.add_error(FIELDS.get(refused.field or "", None), refused.message)
        return _page(request, form, status=400)
    login(request, player.user, backend=BACKEND)
    return redirect("home:player", username=player.user.username)


def _page(request: HttpRequest, form: SignUpForm, *, status: int = 200) -> HttpResponse:
    context = {"form": form, "password_help": password_validation.password_validators_help_texts()}
    return render(request, "registration/signup.html", context, status=status)
