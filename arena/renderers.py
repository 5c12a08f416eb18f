"""The browsable API's HTML pages under the site's Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import renderers

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
        return super().render(data, accepted_media_type, renderer_context)
