"""Page content shared by every reader, rendered once and kept in the response cache.

A page is a frame (the site header with the reader's name, the sign-out form and its CSRF
token, one-time messages) around its content. The content of the costly public pages (a
leaderboard, a finished match, the match list) is the same for every reader: rendered without
the request, so it cannot depend on who reads it, and cached (arena/http/caching.py); the frame
is rendered for each request around it, so each reader still gets their own header.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from arena.http.caching import cached, peek

FRAME = "arena/page.html"


def shared_content(
    key: str | None, template: str, context: Callable[[], dict[str, Any]], timeout: int
) -> SafeString:
    """``template`` rendered with ``context()``, from the cache under ``key`` if it is
    there (None: rendered, not cached). What ``context`` raises is raised, nothing cached."""

    def build() -> bytes:
        # No request: no context processor runs, so the reader is not in the context.
        return render_to_string(template, context()).encode()

    # The content was rendered and escaped by the template engine.
    return mark_safe(cached(key, build, timeout).decode())


def cached_content(key: str) -> SafeString | None:
    """The content cached under ``key``, or None."""
    content: bytes | None = peek(key)
    return None if content is None else mark_safe(content.decode())


def framed(
    request: HttpRequest, title: str, content: SafeString, *, live: bool = False
) -> HttpResponse:
    """The reader's page: the site frame, for this request, around shared content; with the
    script that lets the content refresh itself when it is ``live``."""
    return render(request, FRAME, {"title": title, "content": content, "live": live})
