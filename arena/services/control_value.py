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

The same measure over one pairing's matches alone (``arena.services.pairings``: the
match's two bots) decides for that pairing's matches once it holds ``EVIDENCE_BOARDS``
boards of the control, and its reason says so; the variant's decides until then.

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
from django.db.models import F, Sum

from arena.models import Bot, Match
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
    MEASURING,
    NO_DESIGN_CHOICE,
    DesignValue,
    design_value,
    design_values,
    pairing_designs,
)
from arena.services.pairings import Pairing, pairing_q
from arena.variance import EstimatorError, control_variate_mean
from arena.variants import variant_names
from bots.controls import CONTROL_NAMES, LUCK_NAMES, reference_supported
from engine.registry import load_game

KIND_LABELS = {REFERENCE: "reference pairing", LUCK: "random bot's luck"}
PAIRING_PREFIX = "this pairing: "
"""Begins the reason of a choice made from the match's own pairing's measure."""


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


def control_choices(
    *, variant: str, rules: Any, match_id: int, pairing: Pairing | None = None
) -> dict[str, Choice]:
    """The choice for each control kind in match ``match_id`` of ``variant`` under ``rules``
    (JSON) between the bots of ``pairing``: from that pairing's own matches where they hold
    ``EVIDENCE_BOARDS`` boards of the control (or a design verdict), else from the
    variant's. A control that does not pay still runs in one match in
    ``MATCH_CONTROL_RECHECK_EVERY``, so that its measure goes on."""
    key = rules_key(rules)
    values = _values(_finished(variant=variant), only=(variant, key))
    no_design = design_value(variant=variant, rules=rules).no_design
    own: dict[tuple[str, str, str], _Totals] = {}
    own_design = False
    if pairing is not None:
        own = _values(_finished(variant=variant, pairing=pairing), only=(variant, key))
        design = design_value(variant=variant, rules=rules, pairing=pairing)
        if design.verdict != MEASURING:
            no_design, own_design = design.no_design, True
    every: int = settings.MATCH_CONTROL_RECHECK_EVERY
    choices = {}
    for kind in CONTROL_KINDS:
        mine = own.get((variant, key, kind))
        decides = mine is not None and mine.boards >= EVIDENCE_BOARDS
        total = mine if decides else values.get((variant, key, kind))
        choice = _value(variant, key, kind, total, no_design).choice
        if decides or (own_design and choice.reason == NO_DESIGN_CHOICE):
            choice = Choice(choice.on, f"{PAIRING_PREFIX}{choice.reason}")
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


@dataclass(frozen=True)
class PairingValue:
    """One pairing's own measures in one variant: each control with enough boards of its
    own to decide for the pairing's matches, and each design verdict it has."""

    variant: str
    pairing: Pairing
    names: tuple[str, str]
    boards: int
    """Its finished matches' boards in the variant (with or without controls)."""
    controls: list[ControlValue]
    designs: list[DesignValue]


PAIRINGS_SHOWN = 50
"""The pairings with the most boards whose own measures the report lists."""


def pairings_report() -> list[PairingValue]:
    """The pairings that have played ``EVIDENCE_BOARDS`` boards of a variant, most boards
    first (at most ``PAIRINGS_SHOWN``), with the measures of their own that decide for
    their matches: a control's once it has that many boards of it, a design's once it has
    a verdict."""
    boards: dict[tuple[str, Pairing], int] = {}
    rows = (
        Match.objects.filter(status=Match.Status.DONE, table_seconds__gt=0)
        .values_list("variant", "version_x__bot_id", "version_y__bot_id")
        .annotate(total=Sum("board_count"))
        .order_by()
    )
    for variant, first, second, total in rows:
        key = (variant, (min(first, second), max(first, second)))
        boards[key] = boards.get(key, 0) + int(total or 0)
    ranked = sorted(
        ((count, key) for key, count in boards.items() if count >= EVIDENCE_BOARDS),
        key=lambda item: (-item[0], item[1]),
    )[:PAIRINGS_SHOWN]
    names = dict(
        Bot.objects.filter(id__in={bot for _, (_, pair) in ranked for bot in pair}).values_list(
            "id", "name"
        )
    )
    report = []
    for count, (variant, pairing) in ranked:
        designs = [
            design
            for design in pairing_designs(variant=variant, pairing=pairing)
            if design.verdict != MEASURING
        ]
        totals = _values(_finished(variant=variant, pairing=pairing), only=None)
        # A pairing without a design verdict of its own follows its variant's, as its
        # matches do (control_choices).
        verdicts = {
            key: value.no_design
            for (_, key), value in design_values({(variant, key) for _, key, _ in totals}).items()
        }
        verdicts.update({design.rules_key: design.no_design for design in designs})
        controls = [
            _value(variant, key, kind, total, verdicts.get(key, False))
            for (_, key, kind), total in sorted(totals.items())
            if total.boards >= EVIDENCE_BOARDS
        ]
        report.append(
            PairingValue(
                variant=variant,
                pairing=pairing,
                names=(names.get(pairing[0], "?"), names.get(pairing[1], "?")),
                boards=count,
                controls=controls,
                designs=designs,
            )
        )
    return report


def default_rules_key(variant: str) -> str:
    return rules_key(load_game(variant).rules_for({}).to_json())


def _finished(*, variant: str | None, pairing: Pairing | None = None) -> Iterable[Match]:
    """Finished matches whose tables' CPU is known, latest first (of ``pairing`` alone, if
    given)."""
    matches = Match.objects.filter(status=Match.Status.DONE, table_seconds__gt=0).exclude(
        controls_run={}
    )
    if variant is not None:
        matches = matches.filter(variant=variant)
    if pairing is not None:
        matches = matches.filter(pairing_q(pairing))
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
