"""Ladder challenges and how a round of them moves the rungs."""

from __future__ import annotations

import pytest

from leagues.scheduling import LadderChallenge, ladder_after, ladder_challenges


def test_everyone_challenges_upward_once_from_the_bottom() -> None:
    assert ladder_challenges([1, 2, 3, 4, 5], reach=1) == [
        LadderChallenge(5, 4),
        LadderChallenge(3, 2),
    ]


def test_a_challenger_reaches_past_engaged_players_within_reach() -> None:
    # 5 takes 4; 3 challenges 2; nobody is left for 1.
    assert ladder_challenges([1, 2, 3, 4, 5], reach=3) == [
        LadderChallenge(5, 4),
        LadderChallenge(3, 2),
    ]
    # 2 is engaged by 3, so 1 sits the round out.
    assert ladder_challenges([1, 2, 3], reach=2) == [LadderChallenge(3, 2)]


def test_a_winning_challenger_takes_the_defenders_rung() -> None:
    ladder = [1, 2, 3, 4, 5]
    results = {LadderChallenge(5, 3): True, LadderChallenge(2, 1): False}
    assert ladder_after(ladder, results) == [1, 2, 5, 3, 4]


def test_several_wins_apply_from_the_top_down() -> None:
    ladder = [1, 2, 3, 4]
    results = {LadderChallenge(4, 3): True, LadderChallenge(2, 1): True}
    assert ladder_after(ladder, results) == [2, 1, 4, 3]


def test_a_reach_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        ladder_challenges([1, 2], reach=0)
