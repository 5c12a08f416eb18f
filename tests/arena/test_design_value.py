"""Duplicate deals against plain deals at equal worker CPU (arena.services.design_value):
each table of a duplicate board is a plain deal, so the arena's own games measure both
designs; where no design beats plain deals the arena says so and runs duplicate alone, the
cheapest of its designs, its controls off (RULES.md section 9: a board's result is the sum
of its tables' results)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client

from arena import services
from arena.models import Board, BotVersion, CompletionCounter, Game, Match, Player
from arena.services.control_value import EVIDENCE_BOARDS, control_choices, controls_report
from arena.services.controls import FOLDS, LUCK, REFERENCE, REFERENCE_MIN_BOARDS, rules_key
from arena.services.design_value import (
    DUPLICATE,
    MEASURING,
    NO_DESIGN,
    NO_DESIGN_CHOICE,
    WITH_CONTROLS,
    DesignValue,
    design_value,
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
BOARDS = 20
TABLE_SECONDS = 10.0
CONTROL_SECONDS = 5.0
"""A controls' cost factor of (10 + 5) / 10 = 1.5 wherever they ran here."""


def scores_for(table: str, result: int) -> list[int]:
    """Side scores (``teams`` order) that give X ``result`` at ``table``."""
    x_side = GAME.seatings[table][0]  # seat 0's bot; seats 0 and 2 are side 0
    x, y = max(result, 0), max(-result, 0)
    return [x, y] if x_side == 0 else [y, x]


def played_match(
    pair: tuple[BotVersion, BotVersion],
    tables: Sequence[tuple[int, int]],
    *,
    controls: Sequence[Sequence[float]] | None = None,
    faults: int = 0,
    drop: bool = False,
) -> Match:
    """A finished auction4 match whose board ``i`` gave X ``tables[i]`` at tables A and B,
    stored as match completion stores it: a Game row per table, the board results their
    sums; with ``controls``, the reference pairing's rows, run at ``CONTROL_SECONDS``."""
    counter, _ = CompletionCounter.objects.get_or_create(pk=1)
    counter.last_seq += 1
    counter.save(update_fields=["last_seq"])
    x, y = pair
    ran = controls is not None
    match = Match.objects.create(
        variant="auction4",
        rules=RULES,
        seed=counter.last_seq,
        board_count=len(tables),
        version_x=x,
        version_y=y,
        decision_ms=1000,
        bank_ms=60000,
        rated=False,
        status=Match.Status.DONE,
        completion_seq=counter.last_seq,
        board_results=[a + b for a, b in tables],
        board_controls=[list(row) for row in controls] if controls is not None else [],
        table_seconds=TABLE_SECONDS,
        control_seconds=CONTROL_SECONDS if ran else None,
        faults=faults,
        controls_run={
            REFERENCE: {
                "ran": ran,
                "reason": "eligible" if ran else "too few boards",
                "seconds": CONTROL_SECONDS if ran else None,
            },
            LUCK: {"ran": False, "reason": "not against the random bot", "seconds": None},
        },
    )
    for number, results in enumerate(tables, start=1):
        board = Board.objects.create(variant="auction4", rules=RULES, seed=number, dealer=0)
        for table, result in zip("AB", results, strict=True):
            if drop and number == len(tables) and table == "B":
                continue  # a table lost: the board is not whole
            Game.objects.create(
                match=match,
                board=board,
                number=number,
                table=table,
                seat_versions=[x.pk, y.pk, x.pk, y.pk] if table == "A" else [y.pk, x.pk] * 2,
                team_scores=scores_for(table, result),
            )
    return match


@pytest.fixture
def pair() -> tuple[BotVersion, BotVersion]:
    owner = services.player_register(username="owner", password="a-long-password-1")
    return _version(owner, "x"), _version(owner, "y")


def measure() -> DesignValue:
    return design_value(variant="auction4", rules=RULES)


def test_the_ratio_pools_each_matchs_own_variances_as_computed_by_hand(
    pair: tuple[BotVersion, BotVersion],
) -> None:
    # Match 1, tables (A, B): r = 10 -6 -4 6 20 -16 -2 0, mean 1, squares about it
    # 81 49 25 25 361 289 9 1 = 840 over 7; s = 4 2 4 -2, mean 2, squares 4 0 4 16 = 24
    # over 3. Match 2: r = 3 1 -3 1 0 4, mean 1, squares 4 0 16 0 1 9 = 30 over 5;
    # s = 4 -2 4, mean 2, squares 4 16 4 = 24 over 2.
    # Var(r) = (840 + 30) / 12 = 72.5, Var(s) = 48 / 5 = 9.6: ratio = 2 x 72.5 / 9.6.
    played_match(pair, [(10, -6), (-4, 6), (20, -16), (-2, 0)])
    played_match(pair, [(3, 1), (-3, 1), (0, 4)])
    value = measure()
    assert (value.matches, value.boards, value.tables) == (2, 7, 2)
    assert value.ratio == pytest.approx(725 / 48, rel=1e-12)
    assert value.error == pytest.approx((725 / 48) ** 0.5, rel=1e-12)
    assert value.correlation == pytest.approx(48 / 725 - 1, rel=1e-12)
    # Resampling two matches: match 1 alone gives 2 x 120 / 8 = 30, match 2 alone
    # 2 x 6 / 12 = 1; every resample's ratio lies between.
    assert value.ratio is not None
    assert value.ratio_low is not None and value.ratio_high is not None
    assert 1 <= value.ratio_low <= value.ratio <= value.ratio_high <= 30
    # No control ran, and 7 boards are far from the evidence needed.
    assert (value.controls_ratio, value.gain, value.cost) == (None, None, None)
    assert value.verdict == MEASURING
    assert value.reason == f"measuring: 7 of {EVIDENCE_BOARDS} boards"
    assert measure() == value  # the interval is seeded: the same page twice


def test_duplicate_beats_plain_where_the_tables_results_cancel_the_cards_luck(
    pair: tuple[BotVersion, BotVersion],
) -> None:
    rng = random.Random(3)
    boards = []
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        tables = []
        for _ in range(BOARDS):
            luck = rng.gauss(0, 60)  # what the cards give X at table A, Y at table B
            tables.append((round(5 + luck + rng.gauss(0, 10)), round(5 - luck + rng.gauss(0, 10))))
        boards.append(tables)
        played_match(pair, tables)
    value = measure()
    assert (value.matches, value.boards) == (len(boards), EVIDENCE_BOARDS)
    # The ratio is 2 Var(r) / Var(s) pooled over matches, each on its own means.
    flat = [[r for board in tables for r in board] for tables in boards]
    sums = [[a + b for a, b in tables] for tables in boards]
    var_r = sum((len(r) - 1) * statistics.variance(r) for r in flat) / sum(len(r) - 1 for r in flat)
    var_s = sum((len(s) - 1) * statistics.variance(s) for s in sums) / sum(len(s) - 1 for s in sums)
    assert value.ratio == pytest.approx(2 * var_r / var_s, rel=1e-9)
    assert value.ratio is not None
    assert value.ratio_low is not None and value.ratio_high is not None
    assert 10 < value.ratio_low < value.ratio < value.ratio_high
    assert value.correlation is not None and value.correlation < -0.9
    assert value.verdict == DUPLICATE
    assert value.reason == (
        f"{DUPLICATE}: plain deals' error is {value.ratio**0.5:.2f} times duplicate's"
    )
    # The controls keep their own choice: still measured, they run.
    for choice in control_choices(variant="auction4", rules=RULES, match_id=1).values():
        assert choice.on and choice.reason.startswith("measuring")


def no_design_history(pair: tuple[BotVersion, BotVersion], seed: int) -> list[Match]:
    """Matches whose tables' results are independent, with reference controls that
    explain none of them: neither duplicate nor its controls beat plain deals."""
    rng = random.Random(seed)
    matches = []
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        tables = [(round(rng.gauss(0, 50)), round(rng.gauss(0, 50))) for _ in range(BOARDS)]
        rows = [(rng.gauss(0, 30), rng.gauss(0, 30)) for _ in range(BOARDS)]
        matches.append(played_match(pair, tables, controls=rows))
    # Neither a match with a fault nor one with a table missing is counted.
    played_match(pair, [(400, -400)] * BOARDS, faults=1)
    played_match(pair, [(-400, 400)] * BOARDS, drop=True)
    return matches


def pooled_gain(matches: list[Match]) -> float:
    """The variance of the board results over that of the match's own corrected results,
    as the match's fit makes them, pooled with weights n - 1."""
    plain = corrected = 0.0
    for match in matches:
        values = [float(value) for value in match.board_results]
        fit = control_variate_mean(values, match.board_controls, folds=FOLDS)
        plain += (len(values) - 1) * statistics.variance(values)
        corrected += (len(values) - 1) * statistics.variance(fit.adjusted)
    return plain / corrected


def test_where_no_design_beats_plain_the_controls_are_off_and_the_arena_says_so(
    pair: tuple[BotVersion, BotVersion], settings: Any
) -> None:
    settings.MATCH_CONTROL_RECHECK_EVERY = 20
    matches = no_design_history(pair, seed=11)
    value = measure()
    assert (value.matches, value.boards) == (len(matches), EVIDENCE_BOARDS)
    assert (value.control_matches, value.control_boards) == (len(matches), EVIDENCE_BOARDS)
    # Independent tables: duplicate's ratio is about 1, its interval not above 1.
    assert value.ratio_low is not None and value.ratio_high is not None
    assert value.ratio is not None and value.ratio_low < 1 < value.ratio_high
    assert value.cost == pytest.approx(1.5)
    assert value.gain == pytest.approx(pooled_gain(matches), rel=1e-9)
    assert value.gain is not None and value.controls_ratio is not None
    assert value.controls_ratio == pytest.approx(value.ratio * value.gain / 1.5, rel=1e-12)
    assert value.controls_low is not None and value.controls_high is not None
    assert value.controls_low < value.controls_ratio < value.controls_high < 1
    assert value.verdict == NO_DESIGN and value.no_design
    assert value.reason == (
        f"{NO_DESIGN}: plain deals' error is {value.ratio**0.5:.2f} times duplicate's, "
        f"{value.controls_ratio**0.5:.2f} times duplicate's with controls"
    )
    # Every control is off, for that reason, except in the match that rechecks.
    choices = control_choices(variant="auction4", rules=RULES, match_id=41)
    assert {kind: (c.on, c.reason) for kind, c in choices.items()} == {
        REFERENCE: (False, NO_DESIGN_CHOICE),
        LUCK: (False, NO_DESIGN_CHOICE),
    }
    recheck = control_choices(variant="auction4", rules=RULES, match_id=60)[REFERENCE]
    assert (recheck.on, recheck.reason) == (True, f"{NO_DESIGN_CHOICE}; rechecked in 1 match in 20")
    # The page and its API say the same.
    page = Client().get("/ratings/controls/").content.decode()
    assert "No design beats plain deals in auction4" in page
    assert 'data-verdict="no design beats plain here"' in page
    listed = Client().get("/api/ratings/controls/").json()
    design = next(
        row
        for row in listed["designs"]
        if (row["variant"], row["rules_key"]) == ("auction4", rules_key(RULES))
    )
    assert design["verdict"] == NO_DESIGN and design["boards"] == EVIDENCE_BOARDS
    assert design["ratio"] == pytest.approx(value.ratio)
    assert design["ratio_interval"] == pytest.approx([value.ratio_low, value.ratio_high])
    assert design["controls_ratio"] == pytest.approx(value.controls_ratio)
    control = next(
        row
        for row in listed["controls"]
        if (row["variant"], row["control"]) == ("auction4", REFERENCE)
    )
    assert (control["on"], control["reason"]) == (False, NO_DESIGN_CHOICE)


@pytest.mark.usefixtures("plain_bots")
def test_a_match_where_no_design_beats_plain_runs_duplicate_alone_and_says_why(
    pair: tuple[BotVersion, BotVersion], alice: Player, bob: Player, settings: Any
) -> None:
    settings.MATCH_CONTROL_RECHECK_EVERY = 0  # this match is never one that rechecks
    no_design_history(pair, seed=11)
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    y = trusted_version(bob, "rnd", RANDOM_BOT)
    match = match_create(version_x=x, version_y=y, boards=REFERENCE_MIN_BOARDS, seed=7, rated=False)
    assert match_run_task.apply(args=(match.pk,)).get() == "done"
    match.refresh_from_db()
    assert (match.board_controls, match.control_seconds) == ([], None)
    off = {"ran": False, "reason": NO_DESIGN_CHOICE, "seconds": None}
    assert match.controls_run[REFERENCE] == off
    # The luck needs more boards than this match has: that reason comes first.
    assert match.controls_run[LUCK]["ran"] is False
    text = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f"The reference pairing: not run ({NO_DESIGN_CHOICE})" in text


def test_duplicate_with_controls_beats_plain_where_the_controls_explain_the_luck(
    pair: tuple[BotVersion, BotVersion],
) -> None:
    rng = random.Random(19)
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        tables, rows = [], []
        for _ in range(BOARDS):
            a, b = rng.gauss(0, 50), rng.gauss(0, 50)
            # Independent tables, whose sum the reference pairing's play follows closely.
            tables.append((round(a), round(b)))
            rows.append((a + b + rng.gauss(0, 5), rng.gauss(0, 30)))
        played_match(pair, tables, controls=rows)
    value = measure()
    assert value.ratio is not None and value.controls_ratio is not None
    assert value.controls_ratio > max(value.ratio, 1)
    assert value.verdict == WITH_CONTROLS
    for choice in control_choices(variant="auction4", rules=RULES, match_id=1).values():
        assert choice.reason != NO_DESIGN_CHOICE


def test_below_the_evidence_the_measure_goes_on_and_nothing_changes(
    pair: tuple[BotVersion, BotVersion],
) -> None:
    rng = random.Random(29)
    for _ in range(EVIDENCE_BOARDS // BOARDS - 1):
        tables = [(round(rng.gauss(0, 50)), round(rng.gauss(0, 50))) for _ in range(BOARDS)]
        played_match(pair, tables)
    value = measure()
    boards = EVIDENCE_BOARDS - BOARDS
    assert value.boards == boards and value.verdict == MEASURING
    assert value.reason == f"measuring: {boards} of {EVIDENCE_BOARDS} boards"
    choices = control_choices(variant="auction4", rules=RULES, match_id=1)
    assert all(choice.on for choice in choices.values())
    _, designs = controls_report()
    shown = next(d for d in designs if (d.variant, d.rules_key) == ("auction4", rules_key(RULES)))
    assert shown == value
    page = Client().get("/ratings/controls/").content.decode()
    assert f"measuring: {boards} of {EVIDENCE_BOARDS} boards" in page
