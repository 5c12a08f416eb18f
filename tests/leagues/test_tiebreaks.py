"""Standings and tiebreaks on worked examples, hand-computed from the definitions."""

from __future__ import annotations

import pytest

from leagues.scheduling import Forfeit, GameResult, fixture_points, standings


def test_a_fixture_is_won_drawn_or_lost_by_the_sign_of_xs_board_total() -> None:
    assert fixture_points(1) == (2, 0)
    assert fixture_points(0) == (1, 1)
    assert fixture_points(-450) == (0, 2)


def test_a_round_robin_ranks_by_points_then_board_difference_then_sonneborn_berger() -> None:
    games = [
        GameResult(1, 2, 0),  # draw
        GameResult(1, 3, 10),  # 1 wins
        GameResult(1, 4, -10),  # 4 wins
        GameResult(2, 3, -10),  # 3 wins
        GameResult(2, 4, 10),  # 2 wins
        GameResult(3, 4, 20),  # 3 wins
    ]
    table = standings([1, 2, 3, 4], games)
    # Points: 1 = 1 + 2 + 0 = 3; 2 = 1 + 0 + 2 = 3; 3 = 0 + 2 + 2 = 4; 4 = 2 + 0 + 0 = 2.
    # Board difference: 1 = 0 + 10 - 10 = 0; 2 = 0 - 10 + 10 = 0; 3 = 20; 4 = -20.
    # Sonneborn-Berger: 1 = half of 2's 3 + 3's 4 = 5.5; 2 = half of 1's 3 + 4's 2 = 3.5;
    #                   3 = 2's 3 + 4's 2 = 5;         4 = 1's 3 = 3.
    by_number = {row.number: row for row in table}
    assert [row.number for row in table] == [3, 1, 2, 4]
    assert [by_number[n].points for n in (1, 2, 3, 4)] == [3, 3, 4, 2]
    assert [by_number[n].board_difference for n in (1, 2, 3, 4)] == [0, 0, 20, -20]
    assert [by_number[n].sonneborn_berger for n in (1, 2, 3, 4)] == [5.5, 3.5, 5.0, 3.0]
    assert [(by_number[1].won, by_number[1].drawn, by_number[1].lost)] == [(1, 1, 1)]


def test_board_difference_comes_before_sonneborn_berger() -> None:
    games = [
        GameResult(1, 2, 30),
        GameResult(1, 3, 0),
        GameResult(1, 4, -10),
        GameResult(2, 3, 50),
        GameResult(2, 4, 20),
        GameResult(3, 4, 5),
    ]
    table = standings([1, 2, 3, 4], games)
    # 1 and 3 have 3 points each; 1's difference 30 + 0 - 10 = 20 beats 3's 0 - 50 + 5 = -45,
    # although 3's Sonneborn-Berger is not what decides.
    assert [(row.number, row.points, row.board_difference) for row in table] == [
        (2, 4, 40),
        (1, 3, 20),
        (3, 3, -45),
        (4, 2, -15),
    ]


def test_a_swiss_ranks_by_points_then_buchholz() -> None:
    games = [
        GameResult(1, 4, 50),  # round 1; 3 has the bye
        GameResult(2, 5, 0),
        GameResult(3, 1, -20),  # round 2; 5 has the bye
        GameResult(4, 2, 30),
    ]
    table = standings([1, 2, 3, 4, 5], games, byes=[3, 5], bye_points=2, swiss=True)
    # Points: 1 = 2 + 2 = 4; 2 = 1 + 0 = 1; 3 = bye 2 + 0 = 2; 4 = 0 + 2 = 2; 5 = 1 + bye 2 = 3.
    # Buchholz (the bye adds no opponent): 1 = 4's 2 + 3's 2 = 4; 2 = 5's 3 + 4's 2 = 5;
    #   3 = 1's 4 = 4; 4 = 1's 4 + 2's 1 = 5; 5 = 2's 1 = 1.
    # 3 and 4 both have 2 points and a board difference of -20: Buchholz puts 4 first.
    by_number = {row.number: row for row in table}
    assert [row.number for row in table] == [1, 5, 4, 3, 2]
    assert [by_number[n].buchholz for n in (1, 2, 3, 4, 5)] == [4, 5, 4, 5, 1]
    assert by_number[3].board_difference == by_number[4].board_difference == -20
    assert by_number[3].byes == 1 and by_number[3].played == 1


def test_a_forfeit_is_a_win_for_one_side_and_a_loss_for_the_other_with_no_tiebreak_terms() -> None:
    table = standings(
        [1, 2, 3],
        [GameResult(2, 3, 40)],
        forfeits=[Forfeit(winner=1, loser=2), Forfeit(winner=None, loser=3)],
    )
    by_number = {row.number: row for row in table}
    assert (by_number[1].points, by_number[1].won, by_number[1].played) == (2, 1, 0)
    assert (by_number[2].points, by_number[2].won, by_number[2].lost) == (2, 1, 1)
    assert (by_number[3].points, by_number[3].lost) == (0, 2)
    assert by_number[1].sonneborn_berger == 0
    # 1 and 2 have 2 points; 2's board difference of 40 puts it first.
    assert [row.number for row in table] == [2, 1, 3]


@pytest.mark.parametrize("swiss", [False, True])
def test_equal_rows_are_ordered_by_pairing_number(swiss: bool) -> None:
    assert [row.number for row in standings([3, 1, 2], [], swiss=swiss)] == [1, 2, 3]
