"""The control variate of real matches: the reference pairing replayed on the match's deals.

After the match's tables, the worker plays the reference pairing of ``bots.controls`` on
the same deals, in its own process (both bots are the project's code: no sandbox), and
keeps each board's control with the match. At completion, under the completion lock, the
match's mean board result is corrected by its controls less their long-run means
(``arena.variance``): the means come from every board of the matches of the same variant
and rules finished before it (``ReferenceStats``, one row per dealer), which were dealt
independently of this match, so the corrected mean stays unbiased, and the error of those
measured means is added to its standard error. The match's own boards then join the
totals, except a requester's chosen seed, whose deals were not drawn at random.

A match against the random reference bot also carries that bot's luck
(``bots.controls.random_luck``), stored after the reference controls in each board's row:
its mean is exactly zero, so it is never centred nor counted in the totals, and it is used
when the match has boards enough for the wider fit (``LUCK_MIN_BOARDS``).

Where the finished matches of a variant and rule set show that a control does not pay for
its worker CPU (``arena.services.control_value``), it is not played: the match records
that, and why, in ``Match.controls_run``, and its rows hold only the controls that ran
(the luck alone, with no reference pairing, needs no history and feeds no totals).

A match shorter than ``REFERENCE_MIN_BOARDS`` gets no reference play: its boards are too
few to fit the correction's coefficient across folds. Until every dealer has
``REFERENCE_MIN_HISTORY`` boards of history the match keeps only its plain interval.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from arena.models import Match, ReferenceStats
from arena.variance import EstimatorError, control_variate_mean
from bots.controls import (
    CONTROL_NAMES,
    LUCK_NAMES,
    REFERENCE_VERSION,
    random_luck,
    reference_controls,
    reference_supported,
)
from bots.match import DuplicateBoard
from bots.table import BoardRecord
from engine.interface import AnyGame
from engine.registry import load_game

logger = logging.getLogger(__name__)

FOLDS = 5
REFERENCE_MIN_BOARDS = FOLDS * (len(CONTROL_NAMES) + 2)
"""The fewest boards a match needs for its controls to be played and used."""
LUCK_MIN_BOARDS = FOLDS * (len(CONTROL_NAMES) + len(LUCK_NAMES) + 2)
"""The fewest boards a match needs for the random bot's luck to join its controls."""
REFERENCE_MIN_HISTORY = 25
"""Boards of history each dealer needs before its mean is trusted to centre a control."""
EVIDENCE_BOARDS = 200
"""Boards a measure of what a design is worth (a control's, or duplicate's over plain
deals) needs before it may change what the arena runs."""
WINDOW_MATCHES = 200
"""The latest matches of a variant and rule set counted in such a measure."""


REFERENCE = "reference"
"""The reference pairing's controls (``CONTROL_NAMES``)."""
LUCK = "luck"
"""The random bot's luck (``LUCK_NAMES``)."""
CONTROL_KINDS = (REFERENCE, LUCK)


@dataclass(frozen=True)
class Choice:
    """Whether a control runs where its eligibility allows, and why, in a few words."""

    on: bool
    reason: str


@dataclass(frozen=True)
class PlayedControls:
    rows: list[tuple[float, ...]]
    """Each board's controls: the reference pairing's (``CONTROL_NAMES``) if it ran, then
    the random bot's luck (``LUCK_NAMES``) if it ran."""
    seconds: float | None
    """Worker CPU seconds of every control that ran (None if none did)."""
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per control kind: ``ran``, the ``reason`` it ran or not, and its ``seconds``. Empty
    for rows laid out as before the choice (the reference pairing always, luck after it
    when the rows are wider)."""


def reference_ran(runs: dict[str, Any], width: int) -> bool:
    """Whether rows of ``width`` controls begin with the reference pairing's."""
    if REFERENCE in runs:
        return bool(runs[REFERENCE].get("ran"))
    return width >= len(CONTROL_NAMES)


def rules_key(rules: Any) -> str:
    """The identity of the totals' rule set and reference pairing: the sha256 of the
    canonical JSON of the rules beside ``REFERENCE_VERSION`` (a new pairing starts totals
    of its own rather than be centred on another's means)."""
    text = json.dumps(
        {"reference": REFERENCE_VERSION, "rules": rules}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(text.encode()).hexdigest()


def controls_play(
    *,
    game: AnyGame,
    rules: Any,
    match_seed: int,
    boards: int,
    heartbeat: Callable[[], None],
    played: Sequence[DuplicateBoard] = (),
    random_side: int | None = None,
    choices: Mapping[str, Choice] | None = None,
) -> PlayedControls | None:
    """Play the reference pairing on the match's deals and measure the luck of the random
    reference bot on the ``played`` boards when it is ``random_side`` of the match, each
    where the match is eligible for it and its ``choices`` (``arena.services.control_value``;
    every control on where none is given) let it run. None where no control is eligible."""
    if not settings.MATCH_REFERENCE_CONTROLS or not reference_supported(game):
        return None
    if boards < REFERENCE_MIN_BOARDS:
        return None
    choose = choices or {}
    runs: dict[str, dict[str, Any]] = {}
    columns: list[list[tuple[float, ...]]] = []
    total = 0.0

    def beat(_: BoardRecord) -> None:
        heartbeat()

    choice = choose.get(REFERENCE, Choice(True, "eligible"))
    if not choice.on:
        runs[REFERENCE] = {"ran": False, "reason": choice.reason, "seconds": None}
    else:
        started = time.process_time()
        try:
            rows = reference_controls(
                game, rules, match_seed=match_seed, boards=boards, on_board=beat
            )
        except Exception:
            # The controls only narrow an interval: a failure to play them must never cost
            # the match its result, which stands with its plain interval.
            logger.exception("the reference pairing failed on %s; no control variate", game.variant)
            failed = "failed (the worker's log says why)"
            return PlayedControls(
                [],
                None,
                {
                    REFERENCE: {"ran": False, "reason": failed, "seconds": None},
                    LUCK: {"ran": False, "reason": "the reference pairing failed", "seconds": None},
                },
            )
        seconds = time.process_time() - started
        total += seconds
        columns.append(rows)
        runs[REFERENCE] = {"ran": True, "reason": choice.reason, "seconds": seconds}
    if random_side is None:
        runs[LUCK] = {"ran": False, "reason": "not against the random bot", "seconds": None}
    elif len(played) != boards or boards < LUCK_MIN_BOARDS:
        runs[LUCK] = {
            "ran": False,
            "reason": f"fewer than {LUCK_MIN_BOARDS} boards",
            "seconds": None,
        }
    else:
        choice = choose.get(LUCK, Choice(True, "eligible"))
        runs[LUCK] = {"ran": False, "reason": choice.reason, "seconds": None}
        if choice.on:
            started = time.process_time()
            try:
                luck = random_luck(
                    game, rules, played, side=random_side, match_seed=match_seed, on_board=heartbeat
                )
            except Exception:
                logger.exception("the random bot's luck failed on %s; left out", game.variant)
                luck = None
            seconds = time.process_time() - started
            if luck is None:
                runs[LUCK]["reason"] = "failed (the worker's log says why)"
            else:
                total += seconds
                columns.append(luck)
                runs[LUCK] = {"ran": True, "reason": choice.reason, "seconds": seconds}
    joined = [
        tuple(value for part in parts for value in part) for parts in zip(*columns, strict=True)
    ]
    return PlayedControls(joined, total if columns else None, runs)


def controls_apply(*, match: Match, controls: PlayedControls | None) -> None:
    """Store the match's controls and its corrected mean, and add its boards to the totals
    (the caller holds the completion lock and saves the match)."""
    if controls is None:
        return
    match.controls_run = controls.runs
    if not controls.rows:
        return
    match.board_controls = [list(row) for row in controls.rows]
    match.control_seconds = controls.seconds
    key = rules_key(match.rules)
    game = load_game(match.variant)
    if not reference_ran(controls.runs, len(controls.rows[0])):
        # The luck alone: its mean is zero, so it needs no history and feeds no totals.
        estimate = _corrected(match, controls.rows, {}, game, width=0)
        if estimate is not None:
            match.cv_mean_x, match.cv_ci95 = estimate
        return
    stats = {
        row.dealer: row
        for row in ReferenceStats.objects.select_for_update().filter(
            variant=match.variant, rules_key=key
        )
    }
    estimate = _corrected(match, controls.rows, stats, game, width=len(CONTROL_NAMES))
    if estimate is not None:
        match.cv_mean_x, match.cv_ci95 = estimate
    if match.seed_chosen:
        return
    width = len(CONTROL_NAMES)
    for number, full in enumerate(controls.rows, start=1):
        # Only the reference pairing's controls have a long-run mean to measure.
        row = full[:width]
        dealer = game.board_dealer(number)
        stat = stats.get(dealer)
        if stat is None:
            stat = stats[dealer] = ReferenceStats(
                variant=match.variant,
                rules_key=key,
                dealer=dealer,
                sums=[0.0] * len(row),
                squares=[0.0] * len(row),
            )
        stat.boards += 1
        stat.sums = [total + value for total, value in zip(stat.sums, row, strict=True)]
        stat.squares = [
            total + value * value for total, value in zip(stat.squares, row, strict=True)
        ]
    for stat in stats.values():
        stat.save()


def _corrected(
    match: Match,
    rows: Sequence[Sequence[float]],
    stats: dict[int, ReferenceStats],
    game: AnyGame,
    *,
    width: int,
) -> tuple[float, float] | None:
    """The corrected mean board result and its 95% half-width, if the history allows (the
    first ``width`` controls of each row are the reference pairing's, centred on it)."""
    count = len(rows)
    dealers = [game.board_dealer(number) for number in range(1, count + 1)]
    if width and any(
        stats.get(dealer) is None or stats[dealer].boards < REFERENCE_MIN_HISTORY
        for dealer in set(dealers)
    ):
        return None
    means = {dealer: [total / stat.boards for total in stat.sums] for dealer, stat in stats.items()}
    # The variance of each dealer's measured mean (the sample variance over its boards,
    # over their number).
    errors = {
        dealer: [
            max(square - stat.boards * mean * mean, 0.0) / (stat.boards - 1) / stat.boards
            for square, mean in zip(stat.squares, means[dealer], strict=True)
        ]
        for dealer, stat in stats.items()
    }
    # The luck after the reference controls has mean zero: it is its own centred value.
    centred = [
        [
            *(value - mean for value, mean in zip(row[:width], means.get(dealer, []), strict=True)),
            *row[width:],
        ]
        for row, dealer in zip(rows, dealers, strict=True)
    ]
    extra = len(rows[0]) - width if rows else 0
    # The mean subtracted over the match is each dealer's measured mean weighted by its
    # share of the boards: those errors add up with the squared shares.
    shares = {dealer: dealers.count(dealer) / count for dealer in set(dealers)}
    mean_variances = [
        sum(share * share * errors[dealer][j] for dealer, share in shares.items())
        for j in range(width)
    ] + [0.0] * extra
    values = [float(result) for result in match.board_results]
    try:
        estimate = control_variate_mean(
            values, centred, folds=FOLDS, mean_variances=mean_variances, raw=rows
        )
    except EstimatorError:
        return None
    if not math.isfinite(estimate.se):
        return None
    return estimate.mean, estimate.ci95
