"""Requests refused before any view or parser reads them.

- A NUL character in the path or a query parameter: PostgreSQL cannot store or compare text
  that holds one, so every filter that passed it on failed with a server error. Refusing it
  here covers every view, present and future, at once.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

NUL = "\x00"


def _refusal(status: int, message: str) -> JsonResponse:
    return JsonResponse({"detail": message}, status=status)


class NulCharacterMiddleware:
    """400 for a NUL character in the path, a query parameter's name or its value."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path:
            return _refusal(400, "the path contains a NUL character")
        for name, values in request.GET.lists():
            if NUL in name or any(NUL in value for value in values):
                shown = name.replace(NUL, "\\x00")
                return _refusal(400, f"query parameter {shown!r} contains a NUL character")
        return self.get_response(request)
