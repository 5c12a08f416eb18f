"""The site's routes and one more, which refuses with the ServiceError its path names: for
testing the pages' one answer to every refusal (tests/arena/test_refusal_pages.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from arena.errors import (
    Conflict,
    InvalidInput,
    NotAllowed,
    NotFound,
    ServiceError,
    ServiceUnavailable,
    TooManyAttempts,
    refuses_as,
)
from config import urls

REASONS = {
    400: "the board number is a whole number",
    403: "only the league's organiser can schedule rounds",
    404: "there is no league 4242",
    409: "round 3 is still being played",
    429: "too many refused entries: try again in 5 minutes, or ask the director",
    503: "the service that counts requests is unavailable; try again shortly",
}


def refusal(status: int) -> ServiceError:
    message = REASONS[status]
    return {
        400: lambda: InvalidInput(message),
        403: lambda: NotAllowed(message),
        404: lambda: NotFound(message),
        409: lambda: Conflict(message),
        429: lambda: TooManyAttempts(message, wait=300),
        503: lambda: ServiceUnavailable(message),
    }[status]()


def refuse(request: HttpRequest, status: int) -> HttpResponse:
    raise refusal(status)


@refuses_as("json")
def refuse_as_json(request: HttpRequest, status: int) -> HttpResponse:
    raise refusal(status)


def fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a failure of the server's own")


urlpatterns = [
    path("refusals/<int:status>/", refuse),
    path("refusals/<int:status>.json", refuse_as_json),
    path("failure/", fail),
    *urls.urlpatterns,
]

handler400 = urls.handler400
handler403 = urls.handler403
handler404 = urls.handler404
handler500 = urls.handler500
