"""Errors raised by services, and how the API renders every error."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
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


class ServiceUnavailable(exceptions.APIException):
    """A service the request needs (the broker, the quota store) cannot be reached."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "a service this request needs is unavailable; try again shortly"
    default_code = "unavailable"
    wait = 30
    """Seconds to wait before trying again: sent as Retry-After."""


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
    if isinstance(exc, ServiceError):
        body: dict[str, Any] = {"detail": str(exc)}
        if isinstance(exc, InvalidInput) and exc.field:
            body[exc.field] = [str(exc)]
        return Response(body, status=exc.status)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        )
    return drf_exception_handler(exc, context)


# Django's own error pages, for requests no API view handled (a path no route matches, a
# refused host): JSON under /api/, so that an API client always gets the documented shape.


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "the request is malformed"}, status=400)
    return defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "no API resource has this path"}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "the server failed; the error is logged"}, status=500)
    return defaults.server_error(request)
