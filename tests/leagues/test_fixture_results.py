"""A fixture's result and its league points, from its walkover or its match's board total."""

from __future__ import annotations

import pytest

from leagues.fixture_results import (
    PLAYED,
    Result,
    bye_points,
    fixture_result,
    forfeits,
    result_points,
)
from leagues.scheduling import Forfeit


def test_a_played_match_is_won_drawn_or_lost_by_the_sign_of_xs_board_total() -> None:
    assert fixture_result(walkover="", failed=False, score_x=30) == Result.X_WON
    assert fixture_result(walkover="", failed=False, score_x=0) == Result.DRAWN
    assert fixture_result(walkover="", failed=False, score_x=-1) == Result.Y_WON
    assert set(PLAYED) == {Result.X_WON, Result.DRAWN, Result.Y_WON}


def test_a_match_without_a_total_yet_is_pending_and_a_failed_one_is_void() -> None:
    assert fixture_result(walkover="", failed=False, score_x=None) == Result.PENDING
    assert fixture_result(walkover="", failed=True, score_x=None) == Result.VOID


@pytest.mark.parametrize(
    "walkover", ["bye", "x_forfeited", "y_forfeited", "both_forfeited"], ids=str
)
def test_a_walkover_is_the_result_whatever_the_match_says(walkover: str) -> None:
    assert fixture_result(walkover=walkover, failed=False, score_x=None) == Result(walkover)


def test_a_win_is_two_points_a_draw_one_each_and_a_forfeit_a_loss() -> None:
    assert result_points(Result.X_WON) == (2, 0)
    assert result_points(Result.DRAWN) == (1, 1)
    assert result_points(Result.Y_WON) == (0, 2)
    assert result_points(Result.X_FORFEITED) == (0, 2)
    assert result_points(Result.Y_FORFEITED) == (2, 0)
    assert result_points(Result.BOTH_FORFEITED) == (0, 0)


@pytest.mark.parametrize("result", [Result.PENDING, Result.VOID, Result.BYE], ids=str)
def test_a_fixture_that_has_not_ended_or_was_void_scores_nothing(result: Result) -> None:
    assert result_points(result) == (0, 0)


def test_a_swiss_bye_is_a_win_and_a_round_robin_bye_scores_nothing() -> None:
    assert bye_points(swiss=True) == 2
    assert bye_points(swiss=False) == 0


def test_a_forfeit_credits_the_opponent_and_a_double_forfeit_credits_nobody() -> None:
    assert forfeits(Result.X_FORFEITED, 1, 2) == [Forfeit(winner=2, loser=1)]
    assert forfeits(Result.Y_FORFEITED, 1, 2) == [Forfeit(winner=1, loser=2)]
    assert forfeits(Result.BOTH_FORFEITED, 1, 2) == [
        Forfeit(winner=None, loser=1),
        Forfeit(winner=None, loser=2),
    ]
    assert forfeits(Result.X_WON, 1, 2) == []
