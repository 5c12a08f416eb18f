"""Robot event scoring against hand-computed matchpoints, Neuberg and cross-IMPs.

The definitions are TOURNAMENTS.md's ("Human pair events"): 2 for each result beaten, 1 for
each tie, top 2(n - 1); Neuberg MP' = (MP + 1) N / n - 1 for a board played n times where
N were expected. IMPs come from the project's scale (``tournaments.imps``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_events.standings import board_cross_imps, board_matchpoints, standings


def test_matchpoints_count_two_a_result_beaten_and_one_a_tie() -> None:
    # Four results: 150 beats three (6); the two 40s beat -20 and tie each other (2 + 1 = 3);
    # -20 beats none (0). The top is 2 (4 - 1) = 6.
    scored = board_matchpoints({"a": 150, "b": 40, "c": 40, "d": -20}, planned=4)
    assert scored == {"a": 6.0, "b": 3.0, "c": 3.0, "d": 0.0}


def test_a_board_played_fewer_times_is_scaled_by_neuberg() -> None:
    # Played twice where four results are expected: the winner has 2 MP, so
    # (2 + 1) * 4 / 2 - 1 = 5; the loser (0 + 1) * 4 / 2 - 1 = 1; the top becomes 6.
    assert board_matchpoints({"a": 90, "b": 10}, planned=4) == {"a": 5.0, "b": 1.0}


def test_a_lone_result_is_an_average_after_neuberg() -> None:
    # (0 + 1) * 3 / 1 - 1 = 2: half the top of 2 (3 - 1) = 4.
    assert board_matchpoints({"a": 300}, planned=3) == {"a": 2.0}


def test_cross_imps_average_the_imps_against_every_other_result() -> None:
    # auction4 thresholds: a 100-point swing is 10 IMPs, 30 is 3, 70 is 7.
    # a (100) v b (30): +70 -> 7; a v c (0): +100 -> 10; mean 8.5.
    # b v a: -7; b v c: +30 -> 3; mean -2. c v a: -10; c v b: -3; mean -6.5.
    scored = board_cross_imps({"a": 100, "b": 30, "c": 0}, variant="auction4")
    assert scored == {"a": 8.5, "b": -2.0, "c": -6.5}


def test_standings_rank_by_percentage_of_the_tops_of_the_boards_played() -> None:
    # Board 1, three results: ann 4, ben 2, cy 0 (top 4). Board 2, only ann and ben: ann
    # beats ben, Neuberg to 3 results: ann (2 + 1) 3/2 - 1 = 3.5, ben 0.5 (top 4).
    # ann 7.5 / 8 = 93.75 %; ben 2.5 / 8 = 31.25 %; cy 0 / 4 = 0 %.
    results = {1: {"ann": 200, "ben": 100, "cy": 0}, 2: {"ann": 50, "ben": -50}}
    lines = standings(results, scoring="mp", variant="auction4")
    assert [(x.entrant, x.rank, x.matchpoints, x.top, x.percentage) for x in lines] == [
        ("ann", 1, 7.5, 8.0, 93.75),
        ("ben", 2, 2.5, 8.0, 31.25),
        ("cy", 3, 0.0, 4.0, 0.0),
    ]


def test_equal_scores_share_a_rank() -> None:
    lines = standings({1: {"a": 10, "b": 10, "c": 0}}, scoring="mp", variant="single4")
    assert [(line.entrant, line.rank) for line in lines] == [("a", 1), ("b", 1), ("c", 3)]


def test_imp_standings_add_the_boards_cross_imps() -> None:
    # Board 1: a +100 over b -> +10 / -10; board 2: b +30 over a -> -3 / +3.
    results = {1: {"a": 100, "b": 0}, 2: {"a": 0, "b": 30}}
    lines = standings(results, scoring="imp", variant="auction4")
    assert [(line.entrant, line.imps) for line in lines] == [("a", 7.0), ("b", -7.0)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=1, max_size=8))
def test_a_full_boards_matchpoints_add_up_to_n_times_half_the_top(nets: list[int]) -> None:
    scored = board_matchpoints(dict(enumerate(nets)), planned=len(nets))
    assert sum(scored.values()) == pytest.approx(len(nets) * (len(nets) - 1))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-2000, 2000), min_size=2, max_size=8))
def test_cross_imps_sum_to_zero(nets: list[int]) -> None:
    scored = board_cross_imps(dict(enumerate(nets)), variant="double4")
    assert sum(scored.values()) == pytest.approx(0, abs=0.05)
