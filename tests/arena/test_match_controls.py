"""The control variate of real matches (arena.services.controls): each match is centred on
the reference pairing's means over the matches finished before it, its interval shrinks
by what the controls explain, and deals a requester chose never enter the means."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
from celery import current_app
from django.db import transaction
from django.test import Client

from arena import services
from arena.models import Match, Player, ReferenceStats
from arena.queues.routing import all_queues
from arena.services.controls import (
    LUCK_MIN_BOARDS,
    REFERENCE_MIN_BOARDS,
    REFERENCE_MIN_HISTORY,
    PlayedControls,
    controls_apply,
    rules_key,
)
from arena.services.matches import match_create
from arena.tasks import match_run_task
from arena.variance import control_variate_mean, plain_mean
from bots.controls import reference_supported
from engine.registry import load_game
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version
from tests.arena.test_board_ratings import _version
from tests.arena.workers import celery_worker, require_worker_services, wait_for

pytestmark = pytest.mark.django_db

BOARDS = 20
GAME = load_game("auction4")
"""The game of every match here."""


@pytest.fixture
def pair() -> tuple[object, object]:
    owner: Player = services.player_register(username="owner", password="a-long-password-1")
    return _version(owner, "x"), _version(owner, "y")


def _boards(rng: random.Random) -> tuple[list[int], list[tuple[float, ...]]]:
    """Board results that the reference pairing's control explains well (as the quick bot
    against greedy explains strong against greedy), and a dealer's edge in the control."""
    results, rows = [], []
    for number in range(1, BOARDS + 1):
        control = rng.gauss(0, 30) + (10.0 if GAME.side_of(GAME.board_dealer(number)) else -10.0)
        lost = 250.0 if rng.random() < 0.1 else 0.0
        rows.append((control, lost))
        results.append(round(8 + 1.5 * control + 0.4 * lost + rng.gauss(0, 12)))
    return results, rows


def _complete(
    pair: tuple[object, object],
    rng: random.Random,
    *,
    chosen: bool = False,
    boards: tuple[list[int], list[tuple[float, ...]]] | None = None,
    seconds: float = 1.5,
) -> Match:
    """A match finished as match_complete finishes one, with its controls (``boards``: its
    results and control rows, drawn by ``_boards`` if not given)."""
    x, y = pair
    results, rows = _boards(rng) if boards is None else boards
    with transaction.atomic():
        match = Match.objects.create(
            variant="auction4",
            rules={"game": "auction4"},
            seed=rng.getrandbits(32),
            seed_chosen=chosen,
            board_count=len(results),
            version_x=x,
            version_y=y,
            decision_ms=1000,
            bank_ms=60000,
            rated=False,
            status=Match.Status.DONE,
            board_results=results,
        )
        controls_apply(match=match, controls=PlayedControls(rows, seconds))
        match.save()
    return match


def test_a_match_is_centred_on_the_earlier_matches_only(pair: tuple[object, object]) -> None:
    assert BOARDS >= REFERENCE_MIN_BOARDS
    rng = random.Random(3)
    earlier = []
    while len(earlier) * BOARDS < 4 * REFERENCE_MIN_HISTORY:
        match = _complete(pair, rng)
        # Not yet enough history: the plain interval only, but its boards are counted.
        assert match.cv_mean_x is None and match.cv_ci95 is None
        assert match.board_controls and match.control_seconds == 1.5
        earlier.append(match)
    # More history makes the measured means more precise.
    earlier += [_complete(pair, rng) for _ in range(7)]
    stats = ReferenceStats.objects.filter(
        variant="auction4", rules_key=rules_key({"game": "auction4"})
    )
    assert sorted(s.boards for s in stats) == [len(earlier) * BOARDS // 4] * 4
    match = _complete(pair, rng)
    assert match.cv_mean_x is not None and match.cv_ci95 is not None
    # The means it was centred on are those of the earlier boards, dealer by dealer.
    by_dealer: dict[int, list[list[float]]] = {}
    for old in earlier:
        for number, row in enumerate(old.board_controls, start=1):
            by_dealer.setdefault(GAME.board_dealer(number), []).append(row)
    means = {
        dealer: [sum(column) / len(rows) for column in zip(*rows, strict=True)]
        for dealer, rows in by_dealer.items()
    }
    centred = [
        [value - mean for value, mean in zip(row, means[GAME.board_dealer(number)], strict=True)]
        for number, row in enumerate(match.board_controls, start=1)
    ]
    expected = control_variate_mean(
        [float(r) for r in match.board_results], centred, raw=match.board_controls
    )
    assert match.cv_mean_x == pytest.approx(expected.mean, rel=1e-9)
    # The measured means' error is in the interval, so it is a little wider than without.
    assert match.cv_ci95 > expected.ci95
    # What the control explains is gone from the interval.
    assert match.cv_ci95 < 0.75 * plain_mean([float(r) for r in match.board_results]).ci95
    assert sum(s.boards for s in ReferenceStats.objects.all()) == (len(earlier) + 1) * BOARDS


def test_a_chosen_seed_is_corrected_but_never_enters_the_means(
    pair: tuple[object, object],
) -> None:
    rng = random.Random(8)
    for _ in range(5):
        _complete(pair, rng)
    before = {s.dealer: (s.boards, s.sums) for s in ReferenceStats.objects.all()}
    chosen = _complete(pair, rng, chosen=True)
    assert chosen.cv_mean_x is not None
    assert {s.dealer: (s.boards, s.sums) for s in ReferenceStats.objects.all()} == before


def test_the_match_page_shows_the_corrected_interval_beside_the_plain_one(
    pair: tuple[object, object],
) -> None:
    rng = random.Random(11)
    for _ in range(6):
        match = _complete(pair, rng)
    Match.objects.filter(pk=match.pk).update(mean_x=8.0, ci95=20.0, score_x=160)
    text = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "With the reference pairing" in text
    assert f"{match.cv_mean_x:.2f} ± {match.cv_ci95:.2f}" in text
    assert "luck of the random bot" not in text  # a match without it says nothing of it
    shown = Client().get(f"/api/matches/{match.pk}/").json()
    assert (shown["cv_mean_x"], shown["cv_ci95"]) == (match.cv_mean_x, match.cv_ci95)


def test_the_random_bots_luck_joins_the_fit_uncentred_and_stays_out_of_the_totals(
    pair: tuple[object, object],
) -> None:
    rng = random.Random(21)
    for _ in range(6):
        _complete(pair, rng)
    before = {s.dealer: (s.boards, list(s.sums)) for s in ReferenceStats.objects.all()}
    # A longer match whose rows carry the random bot's luck after the reference controls:
    # luck of mean zero that explains much of each board's result.
    count = LUCK_MIN_BOARDS
    results, rows = [], []
    for number in range(1, count + 1):
        control = rng.gauss(0, 30) + (10.0 if GAME.side_of(GAME.board_dealer(number)) else -10.0)
        auction, later = rng.gauss(0, 40), rng.gauss(0, 20)
        rows.append((control, 0.0, auction, later))
        results.append(round(8 + 1.5 * control + auction + later + rng.gauss(0, 5)))
    match = _complete(pair, rng, boards=(results, rows), seconds=2.0)
    assert match.board_controls == [list(row) for row in rows]
    stats = {s.dealer: s for s in ReferenceStats.objects.all()}
    # The totals grew by the reference controls only, two numbers a board as before.
    for dealer, (boards, sums) in before.items():
        mine = [
            row[:2]
            for number, row in enumerate(rows, start=1)
            if GAME.board_dealer(number) == dealer
        ]
        assert stats[dealer].boards == boards + len(mine)
        assert stats[dealer].sums == pytest.approx(
            [
                total + sum(column)
                for total, column in zip(sums, zip(*mine, strict=True), strict=True)
            ]
        )
    # The luck is used as it is (its mean is zero), the reference controls centred.
    means = {d: [total / boards for total in sums] for d, (boards, sums) in before.items()}
    centred = [
        [row[0] - means[GAME.board_dealer(n)][0], row[1] - means[GAME.board_dealer(n)][1], *row[2:]]
        for n, row in enumerate(rows, start=1)
    ]
    expected = control_variate_mean([float(r) for r in results], centred, raw=rows)
    assert match.cv_mean_x == pytest.approx(expected.mean, rel=1e-9)
    # What the luck explains is gone from the interval: narrower than the reference
    # controls alone give, even were their means known exactly.
    alone = control_variate_mean(
        [float(r) for r in results], [row[:2] for row in centred], raw=[row[:2] for row in rows]
    )
    assert match.cv_ci95 is not None and match.cv_ci95 < 0.6 * alone.ci95
    Match.objects.filter(pk=match.pk).update(mean_x=5.0, ci95=25.0, score_x=150)
    text = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "and by the luck of the random bot" in text


@pytest.mark.usefixtures("plain_bots")
def test_a_long_pinnacolo_match_plays_no_reference_pairing_and_logs_no_error(
    alice: Player, bob: Player, caplog: pytest.LogCaptureFixture
) -> None:
    """The README: the pairing's bots are the pinochle ones, so Pinnacolo in pairs (four
    partners too) has none; its matches of 20 boards or more once logged the pairing's
    failure on every board of theirs."""
    game = load_game("pinnacolo")
    assert game.players == 4 and game.partnership and not reference_supported(game)
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT, variant="pinnacolo")
    y = trusted_version(bob, "rnd", RANDOM_BOT, variant="pinnacolo")
    match = match_create(version_x=x, version_y=y, boards=REFERENCE_MIN_BOARDS, seed=5, rated=False)
    with caplog.at_level(logging.WARNING):
        assert match_run_task.apply(args=[match.pk]).get() == "done"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    match.refresh_from_db()
    assert len(match.board_results) == REFERENCE_MIN_BOARDS and match.faults == 0
    assert (match.board_controls, match.cv_mean_x, match.control_seconds) == ([], None, None)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_plays_a_long_pinnacolo_match_and_its_log_holds_no_error(
    alice: Player, bob: Player, tmp_path: Path
) -> None:
    """The same match as above, played by a real worker process: its own log, read whole,
    has no error and no traceback (the pairing's failure was logged there, board by
    board)."""
    require_worker_services()
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT, variant="pinnacolo")
    y = trusted_version(bob, "rnd", RANDOM_BOT, variant="pinnacolo")
    # Tasks earlier tests queued and never ran (their rows rolled back) would fail in this
    # worker and fill its log: it starts on this process's queues emptied.
    with current_app.connection_for_write() as connection:
        for queue in all_queues():
            connection.default_channel.queue_purge(queue)
    with celery_worker(tmp_path, SANDBOX_MODE="plain") as worker:
        match = match_create(
            version_x=x, version_y=y, boards=REFERENCE_MIN_BOARDS, seed=5, rated=False
        )
        finished = Match.objects.filter(pk=match.pk, status__in=["done", "failed"])
        wait_for(finished.exists, 900, f"the worker to play match {match.pk}")
        log = worker.output()
    match.refresh_from_db()
    assert match.status == Match.Status.DONE and len(match.board_results) == REFERENCE_MIN_BOARDS
    # The worker measured its tables' CPU (the bots' processes and its own refereeing).
    assert match.table_seconds is not None and match.table_seconds > 0
    lines = log.splitlines()
    # The log is the worker's that played it: its task is there, done.
    assert any("arena.match_run[" in line and line.endswith("'done'") for line in lines)
    assert [line for line in lines if "ERROR" in line or "Traceback" in line] == []
    assert "no control variate" not in log and "left out" not in log
