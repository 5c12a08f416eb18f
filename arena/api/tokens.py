"""The API token endpoint: a username and password give the account's token, under the
sign-in quota of failures (arena/signin.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from arena.signin import account_of, check_attempt


class TokenView(ObtainAuthToken):
    """Obtain an API token (username + password), under the sign-in quota."""

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data
        username = data.get("username") if isinstance(data, Mapping) else None
        check_attempt(request, account=account_of(username))
        return super().post(request, *args, **kwargs)
