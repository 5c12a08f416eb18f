"""Matchpoints and Neuberg against worked examples computed by hand from the definitions."""

from __future__ import annotations

import pytest

from tournaments.matchpoints import (
    board_matchpoints,
    half_scale,
    matchpoints,
    neuberg,
    percentage,
    top,
)


def test_it_gives_two_for_each_result_beaten_and_one_for_each_tie() -> None:
    # The classic five-table board: +450 beats four results (8); each +420 beats two and
    # ties one (2*2 + 1 = 5); +170 beats one (2); -50 beats none (0). Top = 2(5 - 1) = 8.
    assert matchpoints([420, 420, 450, 170, -50]) == [5, 5, 8, 2, 0]
    assert top(5) == 8


def test_the_one_and_a_half_scale_is_exactly_half() -> None:
    # On the 1 and 1/2 scale the same board reads 2.5, 2.5, 4, 1, 0 with a top of 4.
    assert [half_scale(mp) for mp in matchpoints([420, 420, 450, 170, -50])] == [
        2.5,
        2.5,
        4,
        1,
        0,
    ]


def test_all_results_equal_is_an_average_for_everyone() -> None:
    assert matchpoints([100, 100, 100, 100]) == [3, 3, 3, 3]
    assert percentage(3, top(4)) == 50.0


def test_east_west_gets_top_minus_north_souths_matchpoints() -> None:
    scored = board_matchpoints({"t1": 30, "t2": -10, "t3": 30}, planned=3)
    assert [(s.ns, s.ew) for s in scored.values()] == [(3, 1), (0, 4), (3, 1)]
    assert all(s.top == 4 for s in scored.values())


def test_neuberg_scales_a_board_played_fewer_times_than_planned() -> None:
    # Planned at 7 tables (top 12) but played at 5 (top 8). A top of 8 becomes
    # (8 + 1) * 7 / 5 - 1 = 11.6; a bottom of 0 becomes 7/5 - 1 = 0.4; an average of 4
    # becomes 5 * 7 / 5 - 1 = 6, exactly the average of the full top.
    assert neuberg(8, played=5, planned=7) == pytest.approx(11.6)
    assert neuberg(0, played=5, planned=7) == pytest.approx(0.4)
    assert neuberg(4, played=5, planned=7) == pytest.approx(6.0)


def test_neuberg_on_the_two_one_scale_agrees_with_the_half_point_formula() -> None:
    # The 1 and 1/2 scale form is MP' = (MP + 1/2) N / n - 1/2; with MP = 3 of a top of 4
    # (board played 3 times, planned 4): (3.5) * 4 / 3 - 0.5 = 4.1666...
    half_point = (3 + 0.5) * 4 / 3 - 0.5
    assert half_scale(neuberg(6, played=3, planned=4)) == pytest.approx(half_point)


def test_neuberg_leaves_a_board_played_as_planned_alone() -> None:
    assert neuberg(5, played=6, planned=6) == 5


def test_a_board_short_of_plays_is_neubergd_for_both_directions() -> None:
    scored = board_matchpoints({1: 10, 2: 0}, planned=3)
    # Two results: raw 2/0 of a top 2, scaled to a top of 4: (2+1)*3/2-1 = 3.5, 0.5.
    assert (scored[1].ns, scored[1].ew) == (pytest.approx(3.5), pytest.approx(0.5))
    assert (scored[2].ns, scored[2].ew) == (pytest.approx(0.5), pytest.approx(3.5))
    assert scored[1].top == 4


def test_neuberg_refuses_more_plays_than_planned() -> None:
    with pytest.raises(ValueError, match="1 to 3 times"):
        neuberg(2, played=4, planned=3)
