"""Errors raised by services, and the one way each becomes an HTTP answer.

A service or selector refuses a request by raising a ``ServiceError``; the class carries
the status. The API answers it through ``exception_handler`` (``{"detail": ...}``); a page
through ``arena.http.middleware.RefusalPageMiddleware``, which renders ``refusal_page``: the
site's frame with the reason and what the person can do. Django's own 403/404/500 answers
(``permission_denied``, ``not_found``, ``server_error``) render the same page, or JSON under
/api/. No view maps an error to a status itself.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ServiceError(Exception):
    """A request a service refuses: every app's refusals derive from this one class, and
    ``exception_handler`` answers each with its ``status`` and the message as ``detail``.

    Only a refusal the service means is one of these: any other exception (a ``KeyError``
    from a bug) reaches the client as a 500, never as one of these statuses.
    """

    status: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def headers(self) -> dict[str, str]:
        """Headers the answer carries (a refusal that passes with time says when)."""
        return {}


class InvalidInput(ServiceError, ValueError):
    """A request broke a rule of the product; the message says which."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class NotAllowed(ServiceError):
    """The requester may not do this (not the director, not an entrant)."""

    status = status.HTTP_403_FORBIDDEN


class NotFound(ServiceError):
    """No such thing, or one the requester may not see (the two are not told apart)."""

    status = status.HTTP_404_NOT_FOUND


class Conflict(ServiceError):
    """The request repeats something done once for all, or answers a state that has moved."""

    status = status.HTTP_409_CONFLICT


class TooManyAttempts(ServiceError):
    """A quota is spent (uploads, challenges, tables, refused score entries): the same
    request is accepted again after ``wait`` seconds, sent as Retry-After."""

    status = status.HTTP_429_TOO_MANY_REQUESTS

    def __init__(self, message: str, *, wait: float) -> None:
        super().__init__(message)
        self.wait = max(1, math.ceil(wait))

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.wait)}


class ServiceUnavailable(ServiceError):
    """A service the request needs (the broker, the quota store) cannot be reached."""

    status = status.HTTP_503_SERVICE_UNAVAILABLE
    wait = 30
    """Seconds to wait before trying again: sent as Retry-After."""

    def __init__(
        self, message: str = "a service this request needs is unavailable; try again shortly"
    ) -> None:
        super().__init__(message)

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.wait)}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render the services' refusals with their statuses, model validation errors as 400s
    with a readable ``detail``, and
    bodies over Django's limits (read past what ``Content-Length`` announced) as 413/400."""
    if isinstance(exc, RequestDataTooBig):
        return Response(
            {"detail": f"the request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, OverflowError):
        # SQLite cannot even compare with an integer beyond 64 bits (PostgreSQL finds nothing).
        return Response(
            {"detail": "a number in the request is larger than this service stores"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        return Response(
            {"detail": f"the request has more than {limit} fields"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, TooManyFilesSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        return Response(
            {"detail": f"the request has more than {limit} files"},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, TooManyAttempts):
        # DRF's own wording of a throttled request ("... Expected available in N seconds."),
        # which every 429 of the API has always had.
        return drf_exception_handler(
            exceptions.Throttled(wait=exc.wait, detail=exc.message), context
        )
    if isinstance(exc, ServiceError):
        body: dict[str, Any] = {"detail": str(exc)}
        if isinstance(exc, InvalidInput) and exc.field:
            body[exc.field] = [str(exc)]
        return Response(body, status=exc.status, headers=exc.headers)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        )
    return drf_exception_handler(exc, context)


# The pages' answer to a refusal: the site's frame, the reason, and what to do next.

log = logging.getLogger(__name__)

TITLES = {
    400: "That request cannot be answered",
    403: "Not allowed",
    404: "Not found",
    409: "Not now",
    429: "Too many attempts",
    500: "Something went wrong",
    503: "Unavailable for a moment",
}

View = TypeVar("View", bound=Callable[..., HttpResponse])


def refuses_as(kind: str) -> Callable[[View], View]:
    """Mark a page route that a script reads (``"json"``: ``{"detail": ...}``; ``"text"``:
    the reason as plain text): its refusals are answered in that form, not as a page."""

    def mark(view: View) -> View:
        view.refusal_kind = kind  # type: ignore[attr-defined]
        return view

    return mark


def _back(request: HttpRequest) -> str | None:
    """The page the person came from, when it is one of this site's."""
    referer = str(request.META.get("HTTP_REFERER", ""))
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return None


def refusal_page(
    request: HttpRequest, status_code: int, message: str, *, headers: dict[str, str] | None = None
) -> HttpResponse:
    """A refusal as the person sees it: in the site's frame, with the reason and what they
    can do (sign in, go back, wait, go home); a script's route gets the reason alone."""
    kind = getattr(getattr(request, "resolver_match", None), "func", None)
    kind = getattr(kind, "refusal_kind", None)
    if kind == "json":
        response: HttpResponse = JsonResponse({"detail": message}, status=status_code)
    elif kind == "text":
        response = HttpResponse(message, status=status_code, content_type="text/plain")
    else:
        user = getattr(request, "user", None)
        signed_in = bool(user is not None and user.is_authenticated)
        context = {
            "status": status_code,
            "title": TITLES.get(status_code, TITLES[400 if status_code < 500 else 500]),
            "message": message,
            "sign_in": None
            if signed_in or status_code not in (403, 404)
            else f"{reverse('login')}?next={request.get_full_path()}",
            "back": _back(request),
            "wait": (headers or {}).get("Retry-After"),
        }
        response = render(request, "arena/refused.html", context, status=status_code)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def form_refused(response: HttpResponse, error: ServiceError) -> HttpResponse:
    """A form drawn again beside the refusal of what it sent: the refusal's status and
    headers (a Retry-After) on it, as on every other answer to that refusal."""
    response.status_code = error.status
    for name, value in error.headers.items():
        response[name] = value
    return response


def service_error_page(request: HttpRequest, error: ServiceError) -> HttpResponse:
    """The page answering a service's refusal, with the refusal's status and headers."""
    return refusal_page(request, error.status, error.message, headers=error.headers)


# Django's own error pages, for what no view answered (a path no route matches, a refused
# host, a failure): JSON under /api/, so that an API client always gets the documented
# shape; the site's refusal page elsewhere.


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _reason(exception: Exception | None, default: str) -> str:
    """The reason an Http404 or PermissionDenied was raised with, when it says one."""
    if isinstance(exception, (Http404, PermissionDenied)) and exception.args:
        text = str(exception.args[0])
        if text and not text.startswith("{"):  # Django's resolver passes a dict for a 404
            return text
    return default


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "the request is malformed"}, status=400)
    return refusal_page(request, 400, "the request is malformed")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": _reason(exception, "not allowed")}, status=403)
    return refusal_page(request, 403, _reason(exception, "you may not see this page"))


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "no API resource has this path"}, status=404)
    return refusal_page(request, 404, _reason(exception, "there is no page at this address"))


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "the server failed; the error is logged"}, status=500)
    try:
        return refusal_page(request, 500, "the server failed; the error is logged")
    except Exception:  # the frame itself needs what may have failed (the database)
        log.exception("the error page could not be drawn in the site's frame")
        return defaults.server_error(request)
