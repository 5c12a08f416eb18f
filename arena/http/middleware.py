"""Requests refused before any view or parser reads them.

- A NUL character in the path or a query parameter: PostgreSQL cannot store or compare text
  that holds one, so every filter that passed it on failed with a server error. Refusing it
  here covers every view, present and future, at once.
- A body larger than the route may receive (``Content-Length`` over the limit): answered 413
  without reading a byte, so a 50 MB body costs nothing. gunicorn is published without a
  proxy in front, so the limit must hold in the application itself.

And the pages' one answer to a service's refusal: ``RefusalPageMiddleware`` turns a
``ServiceError`` a page view lets through into the site's refusal page (``arena.errors``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve

from arena.errors import ServiceError, service_error_page

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


def body_limit(request: HttpRequest) -> int:
    """The largest body this request's route accepts, in bytes."""
    try:
        name = resolve(request.path_info).view_name
    except Resolver404:
        return int(settings.REQUEST_BODY_MAX_BYTES)
    if name in settings.UPLOAD_ROUTES:
        return int(settings.UPLOAD_REQUEST_MAX_BYTES)
    return int(settings.REQUEST_BODY_MAX_BYTES)


class RequestBodyLimitMiddleware:
    """413 for a body over the route's limit, judged by ``Content-Length`` before reading."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            return _refusal(400, f"Content-Length {declared!r} is not a number of bytes")
        if length < 0:
            return _refusal(400, "Content-Length cannot be negative")
        limit = body_limit(request)
        if length > limit:
            return _refusal(
                413, f"the request body is {length} bytes; this endpoint accepts at most {limit}"
            )
        return self.get_response(request)


class RefusalPageMiddleware:
    """A ``ServiceError`` raised in a page view becomes the refusal page, with the error's
    status, its reason and what the person can do. The API's views answer their own errors
    (``arena.errors.exception_handler``) before anything reaches this."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, ServiceError):
            return service_error_page(request, exception)
        return None
