"""How the API renders its answers: JSON that always encodes, and the browsable API's HTML
pages under the site's Content-Security-Policy."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rest_framework import renderers

UNENCODABLE = re.compile("[\ud800-\udfff]")
"""Lone UTF-16 surrogates: the only code points of a Python string that have no UTF-8 form."""


def encodable(data: Any) -> Any:
    """``data`` with every unpaired surrogate replaced by U+FFFD, the replacement character."""
    if isinstance(data, str):
        return UNENCODABLE.sub("\ufffd", data)
    if isinstance(data, Mapping):
        return {encodable(key): encodable(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [encodable(item) for item in data]
    return data


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer, readable (non-ASCII characters sent as themselves, not escaped),
    that cannot fail to encode.

    The parser refuses unpaired surrogates (arena/http/parsers.py), so no request should bring
    one; should a message quote one anyway, its answer shows U+FFFD in its place instead of
    failing with a server error. The common case pays nothing: the walk runs only on failure.
    """

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        try:
            rendered: bytes = super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            rendered = super().render(encodable(data), accepted_media_type, renderer_context)
        return rendered


BROWSABLE_POLICY = {"style-src": ["'unsafe-inline'"]}
"""DRF's browsable pages style their forms with inline style attributes; these pages alone
allow inline styles. They still run no inline script."""


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        response = (renderer_context or {}).get("response")
        if response is not None:
            # django-csp's middleware reads this when the response passes through it.
            response._csp_update = BROWSABLE_POLICY
        page = super().render(data, accepted_media_type, renderer_context)
        if isinstance(page, str) and UNENCODABLE.search(page):
            # The page is one string that DRF encodes whole: a string in it that cannot be
            # encoded would fail it, so the data is rendered again, replaced as the JSON
            # renderer replaces it (only then: the data's serializer fills the page's forms).
            page = super().render(encodable(data), accepted_media_type, renderer_context)
        return page
