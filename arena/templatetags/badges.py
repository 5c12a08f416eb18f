"""A version's state as a badge: a filter, because an include per table row costs a
template render each."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

_TONES = {"active": "good", "disabled": "bad", "rejected": "bad"}


@register.filter
def status_badge(status: str) -> SafeString:
    """``active`` in green, ``rejected`` and ``disabled`` in red, ``pending`` plain; the word
    itself says it, so the colour is never the only sign."""
    tone = _TONES.get(status, "")
    return format_html('<span class="badge{}">{}</span>', f" {tone}" if tone else "", status)
