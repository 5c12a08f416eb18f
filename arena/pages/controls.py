"""Where the control variates pay: each control's measured gain and cost per variant and
rule set, and whether the arena runs it (arena.services.control_value); and whether
duplicate deals, with or without them, beat plain deals (arena.services.design_value)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.services.control_value import (
    EVIDENCE_BOARDS,
    WINDOW_MATCHES,
    controls_report,
    default_rules_key,
    pairings_report,
)
from arena.services.design_value import NO_DESIGN_CHOICE


def controls(request: HttpRequest) -> HttpResponse:
    """/ratings/controls/: the table of every control's measure and the choice made."""
    values, designs = controls_report()
    defaults = {value.variant: default_rules_key(value.variant) for value in values}
    rows = [
        {
            "value": value,
            "rules": "default" if value.rules_key == defaults[value.variant] else "custom",
        }
        for value in values
    ]
    design_rows = [
        {
            "value": design,
            "rules": "default" if design.rules_key == defaults.get(design.variant) else "custom",
        }
        for design in designs
    ]
    return render(
        request,
        "arena/controls.html",
        {
            "rows": rows,
            # Controls off because they do not pay; those off because no design beats plain
            # deals are said in the designs' section.
            "off": [value for value in values if not value.on and value.reason != NO_DESIGN_CHOICE],
            "design_rows": design_rows,
            "pairings": pairings_report(),
            "no_design": [
                row for row, design in zip(design_rows, designs, strict=True) if design.no_design
            ],
            "evidence_boards": EVIDENCE_BOARDS,
            "window_matches": WINDOW_MATCHES,
            "recheck_every": settings.MATCH_CONTROL_RECHECK_EVERY,
        },
    )
