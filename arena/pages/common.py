"""What every page view shares: reading the query string, refusing what it cannot use."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest

from arena.errors import InvalidInput


class BadQuery(InvalidInput):
    """A page was asked for with a query parameter it cannot use; the message says why (a
    400 refusal page, as every service's refusal)."""


def page_number(request: HttpRequest) -> int:
    raw = request.GET.get("page", "1")
    if not raw.isdigit() or int(raw) < 1:
        raise BadQuery(f"page must be a whole number from 1 on, not {raw!r}")
    return int(raw)


def choice(request: HttpRequest, name: str, allowed: Iterable[str]) -> str | None:
    """The parameter ``name`` if given (empty counts as absent), which must be in ``allowed``."""
    raw: str = request.GET.get(name, "")
    if not raw:
        return None
    options = list(allowed)
    if raw not in options:
        raise BadQuery(f"{name} must be one of {', '.join(options)}, not {raw!r}")
    return raw


def whole_number(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "")
    if not raw:
        return None
    if not raw.isdigit():
        raise BadQuery(f"{name} must be a whole number, not {raw!r}")
    return int(raw)
