"""Whether a control pays for its worker CPU, per variant, rules and control kind.

A match's board results have a variance per board; the corrected results (each board's
result less its fitted correction, ``arena.variance.control_variate_mean`` with the
match's ``FOLDS`` folds) have a smaller one. At equal worker CPU a design's error goes as
the square root of (its variance per board x its CPU per board), so a control pays when

    gain = var(board results) / var(corrected results)  >  cost = (tables + control) / tables

with ``tables`` the worker CPU of the match's own tables (``Match.table_seconds``) and
``control`` that of the control (its ``seconds`` in ``Match.controls_run``). Both are
measured on the latest ``WINDOW_MATCHES`` finished matches of the same variant and rules
(``rules_key``) in which that control ran, pooled over them:

    gain = sum over matches of (n - 1) var(results) / sum of (n - 1) var(corrected)
    cost = 1 + sum of control seconds / sum of table seconds

Each match's coefficients are fitted on that match alone (its bots are its own), each
kind alone (its gain is over duplicate alone, not over the other control), and the
controls uncentred: subtracting a control's long-run mean shifts every corrected result
of a match by one constant, which changes no variance. The error of those long-run means,
which the match's interval adds, shrinks with the history and is left out.

Until the matches hold ``EVIDENCE_BOARDS`` boards the control stays on, as before this
choice, and says it is still being measured. Where the finished matches show that no
design beats plain deals, neither duplicate nor duplicate with its controls
(``arena.services.design_value``), every control is off whatever its own measure: the
arena runs the cheapest of its designs, duplicate alone. A control found not to pay (or
off for that reason) is off, except in one eligible match in
``MATCH_CONTROL_RECHECK_EVERY`` (by match id), which keeps its measure going: a control
made cheaper, or bots whose results it explains better, turn it back on.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import F

from arena.models import Match
from arena.services.controls import (
    CONTROL_KINDS,
    FOLDS,
    LUCK,
    REFERENCE,
    Choice,
    reference_ran,
    rules_key,
)
from arena.services.controls import EVIDENCE_BOARDS as EVIDENCE_BOARDS
from arena.services.controls import WINDOW_MATCHES as WINDOW_MATCHES
from arena.services.design_value import (
    NO_DESIGN_CHOICE,
    DesignValue,
    design_value,
    design_values,
)
from arena.variance import EstimatorError, control_variate_mean
from arena.variants import variant_names
from bots.controls import CONTROL_NAMES, LUCK_NAMES, reference_supported
from engine.registry import load_game

KIND_LABELS = {REFERENCE: "reference pairing", LUCK: "random bot's luck"}


@dataclass(frozen=True)
class ControlValue:
    """What one control buys and costs in one variant and rule set, and the choice made."""

    variant: str
    rules_key: str
    kind: str
    matches: int
    boards: int
    gain: float | None
    """Variance of the board results over that of the corrected results (pooled)."""
    cost: float | None
    """Worker CPU of the tables and the control over that of the tables."""
    on: bool
    reason: str

    @property
    def choice(self) -> Choice:
        return Choice(self.on, self.reason)

    @property
    def label(self) -> str:
        return KIND_LABELS[self.kind]


@dataclass
class _Totals:
    matches: int = 0
    boards: int = 0
    plain: float = 0.0
    """Sum over matches of (n - 1) times the variance of the board results."""
    corrected: float = 0.0
    table_seconds: float = 0.0
    control_seconds: float = 0.0


_FIELDS = (
    "variant",
    "rules",
    "board_results",
    "board_controls",
    "controls_run",
    "table_seconds",
)


def control_choices(*, variant: str, rules: Any, match_id: int) -> dict[str, Choice]:
    """The choice for each control kind in match ``match_id`` of ``variant`` under ``rules``
    (JSON). A control that does not pay still runs in one match in
    ``MATCH_CONTROL_RECHECK_EVERY``, so that its measure goes on."""
    key = rules_key(rules)
    values = _values(_finished(variant=variant), only=(variant, key))
    no_design = design_value(variant=variant, rules=rules).no_design
    every: int = settings.MATCH_CONTROL_RECHECK_EVERY
    choices = {}
    for kind in CONTROL_KINDS:
        choice = _value(variant, key, kind, values.get((variant, key, kind)), no_design).choice
        if not choice.on and every and match_id % every == 0:
            choice = Choice(True, f"{choice.reason}; rechecked in 1 match in {every}")
        choices[kind] = choice
    return choices


def control_value_list() -> list[ControlValue]:
    """Every control's measure and choice, per variant and rule set that has measures (and
    each variant's default rules, with none yet), in variant order."""
    return controls_report()[0]


def controls_report() -> tuple[list[ControlValue], list[DesignValue]]:
    """Every control's measure and choice, and every design's measure against plain deals,
    per variant and rule set that has control measures (and each variant's default rules,
    with none yet), in variant order."""
    variants = [name for name in variant_names() if reference_supported(load_game(name))]
    found = _values(_finished(variant=None), only=None)
    keys = {(variant, key) for variant, key, _ in found if variant in variants}
    for variant in variants:
        keys.add((variant, default_rules_key(variant)))
    designs = design_values(keys)
    keys |= set(designs)
    ordered = sorted(keys, key=lambda pair: (variants.index(pair[0]), pair[1]))
    controls = [
        _value(variant, key, kind, found.get((variant, key, kind)), designs[variant, key].no_design)
        for variant, key in ordered
        for kind in CONTROL_KINDS
    ]
    return controls, [designs[pair] for pair in ordered]


def default_rules_key(variant: str) -> str:
    return rules_key(load_game(variant).rules_for({}).to_json())


def _finished(*, variant: str | None) -> Iterable[Match]:
    """Finished matches whose tables' CPU is known, latest first."""
    matches = Match.objects.filter(status=Match.Status.DONE, table_seconds__gt=0).exclude(
        controls_run={}
    )
    if variant is not None:
        matches = matches.filter(variant=variant)
    latest = (F("completion_seq").desc(nulls_last=True), "-id")
    return matches.order_by(*latest).only(*_FIELDS).iterator(chunk_size=200)


def _values(
    matches: Iterable[Match], *, only: tuple[str, str] | None
) -> dict[tuple[str, str, str], _Totals]:
    totals: dict[tuple[str, str, str], _Totals] = {}
    for match in matches:
        key = rules_key(match.rules)
        if only is not None and (match.variant, key) != only:
            continue
        for kind in CONTROL_KINDS:
            run = match.controls_run.get(kind) or {}
            if not run.get("ran") or run.get("seconds") is None:
                continue
            total = totals.setdefault((match.variant, key, kind), _Totals())
            if total.matches >= WINDOW_MATCHES:
                continue
            _add(total, match, kind, float(run["seconds"]))
        if only is not None and all(
            (*only, kind) in totals and totals[(*only, kind)].matches >= WINDOW_MATCHES
            for kind in CONTROL_KINDS
        ):
            break  # every window is full: older matches count no more
    return totals


def _add(total: _Totals, match: Match, kind: str, seconds: float) -> None:
    """Add one match's variances and seconds for one control kind."""
    rows = match.board_controls
    values = [float(result) for result in match.board_results]
    if not rows or len(rows) != len(values) or match.table_seconds is None:
        return
    start = 0
    if kind == LUCK and reference_ran(match.controls_run, len(rows[0])):
        start = len(CONTROL_NAMES)
    width = len(CONTROL_NAMES) if kind == REFERENCE else len(LUCK_NAMES)
    columns = [[float(value) for value in row[start : start + width]] for row in rows]
    try:
        estimate = control_variate_mean(values, columns, folds=FOLDS)
    except EstimatorError:
        return
    count = len(values)
    total.matches += 1
    total.boards += count
    total.plain += (count - 1) * statistics.variance(values)
    total.corrected += (count - 1) * statistics.variance(estimate.adjusted)
    total.table_seconds += match.table_seconds
    total.control_seconds += seconds


def _value(
    variant: str, key: str, kind: str, total: _Totals | None, no_design: bool = False
) -> ControlValue:
    total = total or _Totals()
    gain = total.plain / total.corrected if total.corrected > 0 else None
    cost = 1 + total.control_seconds / total.table_seconds if total.table_seconds > 0 else None
    if total.boards < EVIDENCE_BOARDS or gain is None or cost is None:
        on = True
        reason = f"measuring: {total.boards} of {EVIDENCE_BOARDS} boards, runs as before"
    elif gain > cost:
        on = True
        reason = f"pays: gain {gain:.2f} above cost {cost:.2f}"
    else:
        on = False
        reason = f"does not pay: gain {gain:.2f}, cost {cost:.2f}"
    if no_design:
        # Neither duplicate nor duplicate with its controls beats plain deals here
        # (arena.services.design_value): the cheapest design, duplicate alone, runs.
        on, reason = False, NO_DESIGN_CHOICE
    return ControlValue(variant, key, kind, total.matches, total.boards, gain, cost, on, reason)
