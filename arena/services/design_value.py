"""Whether duplicate deals beat plain deals at equal worker CPU, per variant and rules.

Each table of a duplicate board is itself a plain deal: one play of one deal, X in the
seats that table's seating gives it. With ``r`` a table's result from X's side
(``bots.duplicate.table_result``: the game's ``margin`` of the stored ``Game.team_scores``)
and ``s`` the board result, the sum of its ``T`` tables' results (``T = 2`` in a
partnership game), a match of ``n`` boards costs ``n T`` tables of worker CPU. Spent on
``n T`` plain deals instead, the same CPU measures X's edge per board (``T`` times its
edge per table) with variance ``T^2 Var(r) / (n T)``; duplicate measures it with
``Var(s) / n``. At equal CPU plain deals' error over duplicate's is ``sqrt(ratio)`` with

    ratio = T Var(r) / Var(s)

and, with two tables whose results have one variance,

    ratio = 2 Var(r) / Var(s) = Var(r) / (Var(r) + Cov(r_A, r_B)):

duplicate beats plain only where its tables' results are negatively correlated (the
cards' luck that one table gives X the other gives Y). Positive or no correlation, and
plain deals are at least as good for the same CPU.

With the controls the arena runs, duplicate's variance shrinks by the controls' gain and
its CPU grows by their cost (``arena.services.control_value``), so

    ratio with controls = ratio x gain / cost

where gain and cost are those of each match's own corrected results: the variance of its
board results over that of its results corrected by every control that ran in it (its
own fit, ``arena.variance.control_variate_mean``, as its corrected mean uses them), and
its tables' and controls' CPU over its tables'. The match's own fit rather than the
product of the per-control gains, because the two controls explain overlapping parts of
the deal's luck: their gains do not multiply. The matches that ran no control add
nothing to gain and cost.

Every figure is pooled over the latest ``WINDOW_MATCHES`` finished matches of the variant
and rules (``rules_key``) whose every board has all its tables and no fault (a forfeit's
bounds are no play's result), each match centred on its own mean (its bots are its own):

    Var(r) = sum over matches of sum over tables (r - match mean r)^2 / sum of (n T - 1)
    Var(s) = sum of (n - 1) var(s) / sum of (n - 1)
    gain   = sum of (n - 1) var(board results) / sum of (n - 1) var(corrected)
    cost   = 1 + sum of control seconds / sum of table seconds   (matches with controls)

The 95% intervals are percentiles of ``BOOTSTRAP`` resamples of the matches (with
replacement, seeded: a page shows the same interval twice): matches, not boards, are the
independent units, since every board of a match has the same two bots.

The verdict, once the window holds ``EVIDENCE_BOARDS`` boards: a design beats plain deals
where its whole 95% interval lies above 1, duplicate with controls only after as many
boards with them. "duplicate with controls beats plain" where they do (and, if duplicate
alone does too, with the larger ratio), else "duplicate beats plain" where it does, else
"no design beats plain here", once the controls that ran have their evidence too (none,
where no control ran). The same measure of one pairing's matches alone
(``arena.services.pairings``: the match's two bots), once it has its own verdict, decides
for that pairing's matches; the variant's decides for the rest. Where no design is shown
better than plain deals, none is worth more CPU than the cheapest, so there the arena
runs the cheapest of its designs, duplicate alone: the controls are off
(``control_value.control_choices``), except in the one match in
``MATCH_CONTROL_RECHECK_EVERY`` that keeps their measure going.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db.models import Case, F, FloatField, Q, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from arena.models import Game, Match
from arena.services.controls import EVIDENCE_BOARDS, FOLDS, WINDOW_MATCHES, rules_key
from arena.services.pairings import Pairing, pairing_q
from arena.variance import EstimatorError, control_variate_mean
from engine.interface import AnyGame
from engine.registry import load_game

BOOTSTRAP = 1000
"""Resamples of the matches behind each 95% interval."""
BOOTSTRAP_SEED = 20261204

MEASURING = "measuring"
DUPLICATE = "duplicate beats plain"
WITH_CONTROLS = "duplicate with controls beats plain"
NO_DESIGN = "no design beats plain here"
VERDICTS = (MEASURING, DUPLICATE, WITH_CONTROLS, NO_DESIGN)
NO_DESIGN_CHOICE = "off: no design beats plain deals here; duplicate alone is the cheapest"
"""Why a control is off where neither duplicate nor duplicate with controls beats plain."""

_CHUNK = 100


@dataclass(frozen=True)
class DesignValue:
    """Plain deals against duplicate, with and without controls, in one variant and rules."""

    variant: str
    rules_key: str
    tables: int
    matches: int
    boards: int
    ratio: float | None
    """Plain deals' variance over duplicate's at equal CPU: ``T Var(r) / Var(s)``."""
    ratio_low: float | None
    ratio_high: float | None
    correlation: float | None
    """The tables' results' correlation that gives this ratio: ``(1 / ratio - 1) / (T - 1)``."""
    control_matches: int
    control_boards: int
    gain: float | None
    cost: float | None
    controls_ratio: float | None
    """Plain deals' variance over that of duplicate with its controls at equal CPU."""
    controls_low: float | None
    controls_high: float | None
    verdict: str
    reason: str

    @property
    def no_design(self) -> bool:
        """Neither duplicate nor duplicate with controls beats plain deals here."""
        return self.verdict == NO_DESIGN

    # The error factors a page shows: plain deals' error over the design's, at equal CPU.
    @property
    def error(self) -> float | None:
        return _root(self.ratio)

    @property
    def error_low(self) -> float | None:
        return _root(self.ratio_low)

    @property
    def error_high(self) -> float | None:
        return _root(self.ratio_high)

    @property
    def controls_error(self) -> float | None:
        return _root(self.controls_ratio)

    @property
    def controls_error_low(self) -> float | None:
        return _root(self.controls_low)

    @property
    def controls_error_high(self) -> float | None:
        return _root(self.controls_high)


@dataclass(frozen=True)
class _MatchSums:
    """One match's sums of squares (each around its own mean) and CPU."""

    boards: int
    tables: float
    """Sum over its tables of (r - mean r)^2."""
    tables_df: int
    sums: float
    """Sum over its boards of (s - mean s)^2."""
    plain: float
    """(n - 1) var(board results), where controls ran; else 0."""
    corrected: float
    table_seconds: float
    control_seconds: float
    controlled: bool


def design_value(*, variant: str, rules: Any, pairing: Pairing | None = None) -> DesignValue:
    """The measure and verdict of ``variant`` under ``rules`` (JSON): of its matches
    between the two bots of ``pairing`` alone, if given."""
    key = rules_key(rules)
    found = _sums(_finished(variant=variant, pairing=pairing), only=(variant, key))
    return _value(variant, key, found.get((variant, key), []))


def design_values(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], DesignValue]:
    """The measure and verdict of every (variant, rules key) of ``pairs``, and of every
    other rule set of their variants that has a measure, in one pass."""
    wanted = set(pairs)
    variants = {variant for variant, _ in wanted}
    found = _sums((m for m in _finished(variant=None) if m.variant in variants), only=None)
    return {
        (variant, key): _value(variant, key, found.get((variant, key), []))
        for variant, key in wanted | set(found)
    }


def pairing_designs(*, variant: str, pairing: Pairing) -> list[DesignValue]:
    """The measure and verdict of each rule set ``pairing`` has played ``variant`` under,
    from its own matches."""
    found = _sums(_finished(variant=variant, pairing=pairing), only=None)
    return [_value(variant, key, window) for (_, key), window in sorted(found.items())]


def _finished(*, variant: str | None, pairing: Pairing | None = None) -> Iterator[Match]:
    """Finished matches with no fault whose tables' CPU is known, latest first (of
    ``pairing`` alone, if given)."""
    matches = Match.objects.filter(status=Match.Status.DONE, table_seconds__gt=0, faults=0)
    if variant is not None:
        matches = matches.filter(variant=variant)
    if pairing is not None:
        matches = matches.filter(pairing_q(pairing))
    latest = (F("completion_seq").desc(nulls_last=True), "-id")
    fields = (
        "variant",
        "rules",
        "board_count",
        "board_results",
        "board_controls",
        "controls_run",
        "table_seconds",
    )
    return matches.order_by(*latest).only(*fields).iterator(chunk_size=_CHUNK)


def _sums(
    matches: Iterable[Match], *, only: tuple[str, str] | None
) -> dict[tuple[str, str], list[_MatchSums]]:
    found: dict[tuple[str, str], list[_MatchSums]] = {}
    for chunk in _chunks(matches):
        keyed = []
        for match in chunk:
            key = rules_key(match.rules)
            if only is not None and (match.variant, key) != only:
                continue
            if len(found.get((match.variant, key), [])) < WINDOW_MATCHES:
                keyed.append((match, key))
        tables = _table_results(keyed)
        for match, key in keyed:
            window = found.setdefault((match.variant, key), [])
            if len(window) >= WINDOW_MATCHES:
                continue
            sums = _match_sums(match, tables.get(match.pk, {}))
            if sums is not None:
                window.append(sums)
        if only is not None and len(found.get(only, [])) >= WINDOW_MATCHES:
            break  # the window is full: older matches count no more
    return found


def _chunks(matches: Iterable[Match]) -> Iterator[list[Match]]:
    chunk: list[Match] = []
    for match in matches:
        chunk.append(match)
        if len(chunk) == _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _table_results(keyed: list[tuple[Match, str]]) -> dict[int, dict[int, dict[str, Any]]]:
    """match -> board number -> table -> (X's result there, whether it ended in a fault),
    from the stored games: the database weighs each side's score (``_margin_weights``),
    so that no row's JSON is decoded here."""
    found: dict[int, dict[int, dict[str, Any]]] = {}
    by_variant: dict[str, list[int]] = {}
    for match, _ in keyed:
        by_variant.setdefault(match.variant, []).append(match.pk)
    for variant, match_ids in by_variant.items():
        weights = _margin_weights(load_game(variant))
        result = Case(
            *(
                When(
                    table=name,
                    then=sum(
                        (
                            Value(weight)
                            * Cast(KT(f"team_scores__{side}"), output_field=FloatField())
                            for side, weight in enumerate(table_weights)
                        ),
                        Value(0.0),
                    ),
                )
                for name, table_weights in weights.items()
            ),
            output_field=FloatField(),
        )
        rows = (
            Game.objects.filter(match_id__in=match_ids)
            .annotate(x_result=result, faulted=Q(fault__isnull=False))
            .values_list("match_id", "number", "table", "x_result", "faulted")
        )
        for match_id, number, table, value, faulted in rows:
            found.setdefault(match_id, {}).setdefault(number, {})[table] = (value, faulted)
    return found


def _match_sums(match: Match, boards: dict[int, dict[str, Any]]) -> _MatchSums | None:
    """The match's sums, or None if a board lacks a table or ended in a fault."""
    weights = _margin_weights(load_game(match.variant))
    count = match.board_count
    if count < 2 or len(match.board_results) != count or set(boards) != set(range(1, count + 1)):
        return None
    results: list[list[float]] = []
    for number in range(1, count + 1):
        tables = boards[number]
        if set(tables) != set(weights) or any(faulted for _, faulted in tables.values()):
            return None
        if any(value is None for value, _ in tables.values()):
            return None  # a side's score missing: no result to count
        results.append([float(tables[name][0]) for name in sorted(weights)])
    flat = [value for row in results for value in row]
    mean_r = sum(flat) / len(flat)
    boards_s = [sum(row) for row in results]
    mean_s = sum(boards_s) / count
    plain = corrected = control_seconds = 0.0
    controlled = False
    seconds = [
        float(run["seconds"])
        for run in (match.controls_run or {}).values()
        if run.get("ran") and run.get("seconds") is not None
    ]
    rows = match.board_controls
    if seconds and rows and len(rows) == count:
        values = [float(value) for value in match.board_results]
        columns = [[float(value) for value in row] for row in rows]
        try:
            estimate = control_variate_mean(values, columns, folds=FOLDS)
        except EstimatorError:
            estimate = None
        if estimate is not None:
            controlled = True
            plain = _squares(values)
            corrected = _squares(list(estimate.adjusted))
            control_seconds = sum(seconds)
    return _MatchSums(
        boards=count,
        tables=sum((value - mean_r) ** 2 for value in flat),
        tables_df=len(flat) - 1,
        sums=sum((value - mean_s) ** 2 for value in boards_s),
        plain=plain,
        corrected=corrected,
        table_seconds=float(match.table_seconds or 0.0),
        control_seconds=control_seconds,
        controlled=controlled,
    )


def _margin_weights(game: AnyGame) -> dict[str, list[float]]:
    """Per table, each side's weight in X's result there: ``game.margin`` is linear in the
    side scores (a mean of X's seats less a mean of Y's), so one weighted sum per game row
    gives it, computed by the database over tens of thousands of rows at a time."""
    sides = len(game.teams)
    return {
        name: [
            float(game.margin([int(side == k) for side in range(sides)], seating))
            for k in range(sides)
        ]
        for name, seating in game.seatings.items()
    }


def _squares(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return sum((value - mean) ** 2 for value in values)


def _ratios(weights: np.ndarray, parts: np.ndarray, tables: int) -> tuple[np.ndarray, np.ndarray]:
    """Each weighting's (ratio, ratio with controls) from the matches' ``parts`` columns:
    tables, tables df, sums, boards df, plain, corrected, table s, control s (controlled)."""
    total = weights @ parts
    with np.errstate(divide="ignore", invalid="ignore"):
        var_r = total[:, 0] / total[:, 1]
        var_s = total[:, 2] / total[:, 3]
        ratio = tables * var_r / var_s
        gain = total[:, 4] / total[:, 5]
        cost = 1 + total[:, 7] / total[:, 6]
        controls = ratio * gain / cost
    return ratio, controls


def _value(variant: str, key: str, window: list[_MatchSums]) -> DesignValue:
    tables = len(load_game(variant).seatings)
    boards = sum(item.boards for item in window)
    controlled = [item for item in window if item.controlled]
    control_boards = sum(item.boards for item in controlled)
    parts = np.array(
        [
            [
                item.tables,
                item.tables_df,
                item.sums,
                item.boards - 1,
                item.plain,
                item.corrected,
                item.table_seconds if item.controlled else 0.0,
                item.control_seconds,
            ]
            for item in window
        ],
        dtype=float,
    ).reshape(len(window), 8)
    ratio = controls_ratio = gain = cost = correlation = None
    low = high = controls_low = controls_high = None
    if window:
        point, point_controls = _ratios(np.ones((1, len(window))), parts, tables)
        ratio = _finite(point[0])
        if controlled:
            controls_ratio = _finite(point_controls[0])
            total = parts.sum(axis=0)
            gain = _finite(total[4] / total[5]) if total[5] > 0 else None
            cost = _finite(1 + total[7] / total[6]) if total[6] > 0 else None
        if ratio is not None and ratio > 0 and tables > 1:
            correlation = (1 / ratio - 1) / (tables - 1)
    if len(window) >= 2:
        rng = np.random.default_rng(BOOTSTRAP_SEED)
        picks = rng.integers(0, len(window), size=(BOOTSTRAP, len(window)))
        weights = np.zeros((BOOTSTRAP, len(window)))
        np.add.at(weights, (np.arange(BOOTSTRAP)[:, None], picks), 1.0)
        resampled, resampled_controls = _ratios(weights, parts, tables)
        low, high = _interval(resampled)
        if controls_ratio is not None:
            controls_low, controls_high = _interval(resampled_controls)
    verdict, reason = _verdict(boards, ratio, low, control_boards, controls_ratio, controls_low)
    return DesignValue(
        variant=variant,
        rules_key=key,
        tables=tables,
        matches=len(window),
        boards=boards,
        ratio=ratio,
        ratio_low=low,
        ratio_high=high,
        correlation=correlation,
        control_matches=len(controlled),
        control_boards=control_boards,
        gain=gain,
        cost=cost,
        controls_ratio=controls_ratio,
        controls_low=controls_low,
        controls_high=controls_high,
        verdict=verdict,
        reason=reason,
    )


def _verdict(
    boards: int,
    ratio: float | None,
    low: float | None,
    control_boards: int,
    controls_ratio: float | None,
    controls_low: float | None,
) -> tuple[str, str]:
    if boards < EVIDENCE_BOARDS or ratio is None:
        return MEASURING, f"measuring: {boards} of {EVIDENCE_BOARDS} boards"
    errors = f"plain deals' error is {math.sqrt(ratio):.2f} times duplicate's"
    if controls_ratio is not None:
        errors += f", {math.sqrt(controls_ratio):.2f} times duplicate's with controls"
    # A design beats plain deals where its whole 95% interval lies above 1.
    shown = low is not None and low > 1
    controls_shown = (
        control_boards >= EVIDENCE_BOARDS
        and controls_ratio is not None
        and controls_low is not None
        and controls_low > 1
    )
    if controls_shown and (not shown or (controls_ratio or 0.0) > ratio):
        return WITH_CONTROLS, f"{WITH_CONTROLS}: {errors}"
    if shown:
        return DUPLICATE, f"{DUPLICATE}: {errors}"
    if 0 < control_boards < EVIDENCE_BOARDS:
        # Duplicate alone is not shown to beat plain, and the controls' measure is short.
        return MEASURING, (
            f"measuring: {errors}; controls measured on {control_boards} of "
            f"{EVIDENCE_BOARDS} boards"
        )
    return NO_DESIGN, f"{NO_DESIGN}: {errors}"


def _interval(values: np.ndarray) -> tuple[float | None, float | None]:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None, None
    low, high = np.percentile(finite, [2.5, 97.5])
    return float(low), float(high)


def _finite(value: Any) -> float | None:
    number = float(value)
    return number if math.isfinite(number) else None


def _root(value: float | None) -> float | None:
    return math.sqrt(value) if value is not None and value >= 0 else None
