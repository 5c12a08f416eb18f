"""Controls that pay, only where they pay (arena.services.control_value): a control runs
while its measure is short, then only where the finished matches of its variant and rules
show its variance gain above its worker-CPU cost; a match says which ran and why not."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest
from django.test import Client

from arena import services
from arena.models import BotVersion, CompletionCounter, Match, Player, ReferenceStats
from arena.services import control_value
from arena.services.control_value import (
    EVIDENCE_BOARDS,
    ControlValue,
    control_choices,
    control_value_list,
)
from arena.services.controls import (
    LUCK,
    LUCK_MIN_BOARDS,
    REFERENCE,
    REFERENCE_MIN_BOARDS,
    PlayedControls,
    controls_apply,
    rules_key,
)
from arena.services.matches import match_create
from arena.tasks import match_run_task
from arena.variance import control_variate_mean
from engine.registry import load_game
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version
from tests.arena.test_board_ratings import _version

pytestmark = pytest.mark.django_db

GAME = load_game("auction4")
RULES = GAME.rules_for({}).to_json()
"""The default rules: those of a match created without overrides."""
BOARDS = 20
TABLE_SECONDS = 10.0
CONTROL_SECONDS = 5.0
"""A cost factor of (10 + 5) / 10 = 1.5 in every match here."""


def finished_match(
    pair: tuple[BotVersion, BotVersion], rng: random.Random, *, explained: bool, noise: float
) -> Match:
    """A finished auction4 match whose reference controls explain its board results well
    (``explained``) or not at all, its boards' own noise of standard deviation ``noise``."""
    x, y = pair
    results, rows = [], []
    for _ in range(BOARDS):
        control, lost = rng.gauss(0, 30), (250.0 if rng.random() < 0.1 else 0.0)
        signal = 1.5 * control + 0.4 * lost if explained else 0.0
        rows.append([control, lost])
        results.append(round(signal + rng.gauss(0, noise)))
    # Numbered in completion order as match_complete numbers them.
    counter, _ = CompletionCounter.objects.get_or_create(pk=1)
    counter.last_seq += 1
    counter.save(update_fields=["last_seq"])
    return Match.objects.create(
        variant="auction4",
        rules=RULES,
        seed=rng.getrandbits(32),
        board_count=BOARDS,
        version_x=x,
        version_y=y,
        decision_ms=1000,
        bank_ms=60000,
        rated=False,
        status=Match.Status.DONE,
        completion_seq=counter.last_seq,
        board_results=results,
        board_controls=rows,
        table_seconds=TABLE_SECONDS,
        control_seconds=CONTROL_SECONDS,
        controls_run={
            REFERENCE: {"ran": True, "reason": "eligible", "seconds": CONTROL_SECONDS},
            LUCK: {"ran": False, "reason": "not against the random bot", "seconds": None},
        },
    )


def pooled_gain(matches: list[Match]) -> float:
    """The variance of the board results over that of the corrected results, each match
    fitted alone as arena.variance fits it (5 folds), pooled with weights n - 1."""
    plain = corrected = 0.0
    for match in matches:
        values = [float(value) for value in match.board_results]
        fit = control_variate_mean(values, match.board_controls, folds=5)
        plain += (len(values) - 1) * statistics.variance(values)
        corrected += (len(values) - 1) * statistics.variance(fit.adjusted)
    return plain / corrected


@pytest.fixture
def pair() -> tuple[BotVersion, BotVersion]:
    owner = services.player_register(username="owner", password="a-long-password-1")
    return _version(owner, "x"), _version(owner, "y")


def reference_value() -> ControlValue:
    key = rules_key(RULES)
    return next(
        v
        for v in control_value_list()
        if (v.variant, v.rules_key, v.kind) == ("auction4", key, REFERENCE)
    )


def test_a_control_runs_while_measured_then_only_while_its_gain_is_above_its_cost(
    pair: tuple[BotVersion, BotVersion],
) -> None:
    rng = random.Random(5)
    # No measure yet: the control runs, as before the choice, and says so.
    choice = control_choices(variant="auction4", rules=RULES, match_id=1)[REFERENCE]
    assert (
        choice.on and choice.reason == f"measuring: 0 of {EVIDENCE_BOARDS} boards, runs as before"
    )
    good = [
        finished_match(pair, rng, explained=True, noise=12)
        for _ in range(EVIDENCE_BOARDS // BOARDS)
    ]
    value = reference_value()
    assert value.boards == EVIDENCE_BOARDS and value.matches == len(good)
    assert value.cost == pytest.approx(1.5)
    assert value.gain == pytest.approx(pooled_gain(good), rel=1e-12)
    assert value.gain is not None and value.gain > 3 and value.on
    assert control_choices(variant="auction4", rules=RULES, match_id=1)[REFERENCE].reason == (
        f"pays: gain {value.gain:.2f} above cost 1.50"
    )
    # Then matches whose results the control does not explain, with much wider swings:
    # pooled, the gain falls below the cost and the control is off.
    bad = [finished_match(pair, rng, explained=False, noise=100) for _ in range(10)]
    value = reference_value()
    assert value.boards == EVIDENCE_BOARDS + len(bad) * BOARDS
    assert value.gain == pytest.approx(pooled_gain(good + bad), rel=1e-12)
    assert value.gain is not None and 1 < value.gain < 1.5 and not value.on
    choice = control_choices(variant="auction4", rules=RULES, match_id=1)[REFERENCE]
    assert not choice.on and choice.reason == f"does not pay: gain {value.gain:.2f}, cost 1.50"


@pytest.mark.usefixtures("plain_bots")
def test_a_match_runs_without_a_control_that_does_not_pay_and_says_why(
    pair: tuple[BotVersion, BotVersion], alice: Player, bob: Player, settings: Any
) -> None:
    settings.MATCH_CONTROL_RECHECK_EVERY = 0  # this match is never one that rechecks
    rng = random.Random(9)
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        finished_match(pair, rng, explained=False, noise=40)
    value = reference_value()
    assert not value.on and value.gain is not None and value.gain < 1.5
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    y = trusted_version(bob, "rnd", RANDOM_BOT)
    match = match_create(version_x=x, version_y=y, boards=REFERENCE_MIN_BOARDS, seed=7, rated=False)
    assert match_run_task.apply(args=(match.pk,)).get() == "done"
    match.refresh_from_db()
    assert len(match.board_results) == REFERENCE_MIN_BOARDS
    # The tables' CPU is measured; no control was played, so none has a cost or a row.
    assert match.table_seconds is not None and match.table_seconds > 0
    assert (match.board_controls, match.control_seconds, match.cv_mean_x) == ([], None, None)
    reason = f"does not pay: gain {value.gain:.2f}, cost 1.50"
    assert match.controls_run[REFERENCE] == {"ran": False, "reason": reason, "seconds": None}
    assert match.controls_run[LUCK]["ran"] is False
    text = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f"The reference pairing: not run ({reason})" in text
    shown = Client().get(f"/api/matches/{match.pk}/").json()
    assert shown["controls_run"][REFERENCE]["reason"] == reason
    assert shown["table_seconds"] == match.table_seconds
    # The page of every control's measure says the same, and so does its API.
    page = Client().get("/ratings/controls/").content.decode()
    assert "Duplicate alone, no control pays: the reference pairing in auction4." in page
    listed = Client().get("/api/ratings/controls/").json()["controls"]
    row = next(r for r in listed if (r["variant"], r["control"]) == ("auction4", REFERENCE))
    assert (row["on"], row["boards"], row["reason"]) == (False, EVIDENCE_BOARDS, reason)
    assert row["gain"] == pytest.approx(value.gain) and row["cost"] == pytest.approx(1.5)


def test_the_random_bots_luck_alone_corrects_a_match_with_no_history_and_no_totals(
    pair: tuple[BotVersion, BotVersion],
) -> None:
    """Where the reference pairing does not pay but the luck does, the rows hold the luck
    alone: of mean zero, it needs no history, and the pairing's totals do not move."""
    rng = random.Random(13)
    count = LUCK_MIN_BOARDS
    results, rows = [], []
    for _ in range(count):
        auction, later = rng.gauss(0, 40), rng.gauss(0, 20)
        rows.append((auction, later))
        results.append(round(5 + auction + later + rng.gauss(0, 5)))
    match = finished_match(pair, rng, explained=False, noise=1)
    match.board_results, match.board_controls, match.control_seconds = results, [], None
    runs = {
        REFERENCE: {"ran": False, "reason": "does not pay: gain 0.98, cost 1.50", "seconds": None},
        LUCK: {"ran": True, "reason": "pays: gain 4.00 above cost 1.20", "seconds": 2.0},
    }
    controls_apply(match=match, controls=PlayedControls(rows, 2.0, runs))
    match.save()
    assert ReferenceStats.objects.count() == 0
    expected = control_variate_mean([float(r) for r in results], rows, raw=rows)
    assert match.cv_mean_x == pytest.approx(expected.mean, rel=1e-12)
    assert match.cv_ci95 == pytest.approx(expected.ci95, rel=1e-12)
    Match.objects.filter(pk=match.pk).update(mean_x=5.0, ci95=25.0, score_x=150)
    text = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "With the random bot's luck" in text
    assert "The random bot&#x27;s luck: ran (pays: gain 4.00 above cost 1.20)" in text


@pytest.mark.usefixtures("plain_bots")
def test_a_match_plays_a_control_still_measured_and_records_both_cpu_times(
    alice: Player, bob: Player
) -> None:
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    y = trusted_version(bob, "rnd", RANDOM_BOT)
    match = match_create(version_x=x, version_y=y, boards=REFERENCE_MIN_BOARDS, seed=3, rated=False)
    assert match_run_task.apply(args=(match.pk,)).get() == "done"
    match.refresh_from_db()
    run = match.controls_run[REFERENCE]
    assert run["ran"] is True
    assert run["reason"] == f"measuring: 0 of {EVIDENCE_BOARDS} boards, runs as before"
    assert run["seconds"] > 0 and match.control_seconds == run["seconds"]
    assert match.table_seconds is not None and match.table_seconds > 0
    assert [len(row) for row in match.board_controls] == [2] * REFERENCE_MIN_BOARDS
    # The match is now part of the measure: its boards, its gain, its cost.
    value = reference_value()
    assert (value.matches, value.boards) == (1, REFERENCE_MIN_BOARDS)
    assert value.cost == pytest.approx(1 + run["seconds"] / match.table_seconds)
    assert value.gain == pytest.approx(pooled_gain([match]), rel=1e-12)


def test_a_control_that_does_not_pay_is_still_rechecked_in_one_match_in_n(
    pair: tuple[BotVersion, BotVersion], settings: Any
) -> None:
    settings.MATCH_CONTROL_RECHECK_EVERY = 20
    rng = random.Random(17)
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        finished_match(pair, rng, explained=False, noise=40)
    reason = reference_value().reason
    assert reason.startswith("does not pay")
    off = control_choices(variant="auction4", rules=RULES, match_id=41)[REFERENCE]
    assert (off.on, off.reason) == (False, reason)
    on = control_choices(variant="auction4", rules=RULES, match_id=60)[REFERENCE]
    assert (on.on, on.reason) == (True, f"{reason}; rechecked in 1 match in 20")


def test_the_measure_counts_the_latest_matches_only(
    pair: tuple[BotVersion, BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(control_value, "WINDOW_MATCHES", 3)
    rng = random.Random(23)
    for _ in range(3):
        finished_match(pair, rng, explained=True, noise=12)
    latest = [finished_match(pair, rng, explained=False, noise=40) for _ in range(3)]
    value = reference_value()
    assert (value.matches, value.boards) == (3, 3 * BOARDS)
    assert value.gain == pytest.approx(pooled_gain(latest), rel=1e-12)
