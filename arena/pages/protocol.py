"""The bot protocol document (bots/PROTOCOL.md) as a page."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe

import bots

PROTOCOL = Path(bots.__file__).resolve().parent / "PROTOCOL.md"


@cache
def protocol_html() -> SafeString:
    # Our own document, not user input, so its HTML is trusted; tables align by attribute
    # because the Content-Security-Policy refuses inline styles.
    html = markdown.markdown(
        PROTOCOL.read_text(encoding="utf-8"),
        extensions=["tables", "fenced_code", "toc"],
        extension_configs={"tables": {"use_align_attribute": True}},
    )
    return mark_safe(html)


def protocol(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/protocol.html", {"document": protocol_html()})
