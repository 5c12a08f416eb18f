"""Where the control variates pay: each control's measured gain and cost per variant and
rule set, and whether the arena runs it (arena.services.control_value)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.services.control_value import (
    EVIDENCE_BOARDS,
    WINDOW_MATCHES,
    control_value_list,
    default_rules_key,
)


def controls(request: HttpRequest) -> HttpResponse:
    """/ratings/controls/: the table of every control's measure and the choice made."""
    values = control_value_list()
    rows = [
        {
            "value": value,
            "rules": "default" if value.rules_key == default_rules_key(value.variant) else "custom",
        }
        for value in values
    ]
    return render(
        request,
        "arena/controls.html",
        {
            "rows": rows,
            "off": [value for value in values if not value.on],
            "evidence_boards": EVIDENCE_BOARDS,
            "window_matches": WINDOW_MATCHES,
            "recheck_every": settings.MATCH_CONTROL_RECHECK_EVERY,
        },
    )
