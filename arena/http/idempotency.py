"""``Idempotency-Key`` for POSTs that create something: a retried request gets the first answer.

A client that got no answer (a timeout, a dropped connection, a 5xx) cannot know whether its
request took effect. Sent again with the same ``Idempotency-Key`` header, the request is
answered with the stored first answer (and ``Idempotent-Replayed: true``) instead of being
done a second time. The same key with another endpoint or another body is refused with a
422: a key names one request. Keys are per user and kept for ``KEEP``.

The work and the stored answer are committed in one transaction, so a crash leaves either
both or neither. Two concurrent requests with one key cannot both commit: the second waits
on the unique (user, key) index, rolls its work back and answers as the first did. A request
that fails (an error answer) stores nothing, since it changed nothing: a retry runs again.

Use it in a view as ``return idempotency.respond(request, handler=lambda: ..., settle=...)``;
``settle``, if given, revises the answer after the commit (when work queued on commit, such
as sending a task, has run) and the stored answer is revised with it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from arena.errors import InvalidInput
from arena.models import IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEEP = timedelta(hours=24)
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
OPENAPI_HEADER = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    description="a key of your choice (1 to 255 visible ASCII characters): a repeat of the "
    "request with the same key gets the first answer instead of doing the work again",
)


class KeyReused(APIException):
    """The key was already used for a different request."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"


class _Conflict(Exception):
    """A concurrent request with the same key committed first."""


def respond(
    request: Request,
    *,
    handler: Callable[[], Response],
    settle: Callable[[Response], Response] | None = None,
) -> Response:
    """Answer ``request`` with ``handler()``, once per Idempotency-Key."""
    key = request.headers.get(HEADER)
    if key is None or not request.user.is_authenticated:
        return _settled(handler(), settle)
    if not _KEY.match(key):
        raise InvalidInput(
            f"the {HEADER} header must be 1 to 255 visible ASCII characters", field=HEADER
        )
    endpoint = f"{request.method} {request.path}"
    fingerprint = request_hash(request)
    IdempotencyRecord.objects.filter(user=request.user, created__lt=timezone.now() - KEEP).delete()
    try:
        with transaction.atomic():
            earlier = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
            if earlier is not None:
                return _replay(earlier, endpoint, fingerprint)
            response = handler()
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        user=request.user,
                        key=key,
                        endpoint=endpoint,
                        request_hash=fingerprint,
                        status_code=response.status_code,
                        response=response.data,
                    )
            except IntegrityError:
                raise _Conflict from None
    except _Conflict:
        # The work of this request was rolled back with the transaction.
        return _replay(
            IdempotencyRecord.objects.get(user=request.user, key=key), endpoint, fingerprint
        )
    settled = _settled(response, settle)
    if (settled.status_code, settled.data) != (record.status_code, record.response):
        IdempotencyRecord.objects.filter(pk=record.pk).update(
            status_code=settled.status_code, response=settled.data
        )
    return settled


def _settled(response: Response, settle: Callable[[Response], Response] | None) -> Response:
    return response if settle is None else settle(response)


def _replay(record: IdempotencyRecord, endpoint: str, fingerprint: str) -> Response:
    if record.endpoint != endpoint or record.request_hash != fingerprint:
        raise KeyReused(
            f"this {HEADER} was already used for a different request ({record.endpoint} with "
            "other content); send a new key with a new request"
        )
    return Response(record.response, status=record.status_code, headers={REPLAYED_HEADER: "true"})


def request_hash(request: Request) -> str:
    """The sha256 of what the request asks for: its fields and the contents of its files.

    Computed from the parsed content rather than the raw body, because a client sends a
    multipart upload again with another boundary.
    """
    data = request.data
    fields = {name: data.getlist(name) for name in data} if hasattr(data, "getlist") else data
    canonical = json.dumps(fields, sort_keys=True, default=_file_digest, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _file_digest(value: Any) -> Any:
    if hasattr(value, "chunks"):
        digest = hashlib.sha256()
        for chunk in value.chunks():
            digest.update(chunk)
        value.seek(0)
        return {"file": value.name, "sha256": digest.hexdigest()}
    return str(value)
