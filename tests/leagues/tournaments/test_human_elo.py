"""Elo for human players: the pair is the mean of its partners, who share its change."""

from __future__ import annotations

import pytest

from leagues.tournaments.scoring import RatedMeeting, elo_expected, event_rating_changes


def test_expected_scores_match_the_classic_worked_example() -> None:
    # Arpad Elo's textbook example: a player rated 1613 meets 1609, 1477, 1388, 1586 and
    # 1720; the expected score is 0.506 + 0.686 + 0.785 + 0.539 + 0.351 = 2.867.
    expected = sum(elo_expected(1613, r) for r in (1609, 1477, 1388, 1586, 1720))
    assert expected == pytest.approx(2.867, abs=0.001)


def test_a_pair_is_rated_as_the_mean_of_its_partners_and_both_get_its_change() -> None:
    ratings = {"ann": 1600.0, "ben": 1400.0, "cid": 1500.0, "dot": 1500.0}
    k = dict.fromkeys(ratings, 40.0)
    meeting = RatedMeeting(sides=(("ann", "ben"), ("cid", "dot")), share=0.75)
    changes = event_rating_changes([meeting], ratings, k)
    # Both pairs average 1500, so E = 0.5 and the change is 40 * (0.75 - 0.5) = 10.
    assert changes == {"ann": 10.0, "ben": 10.0, "cid": -10.0, "dot": -10.0}


def test_an_event_moves_a_rating_by_at_most_k_however_many_rounds() -> None:
    ratings = {"a": 1500.0, "b": 1500.0, "c": 1500.0, "d": 1500.0}
    k = {"a": 40.0, "b": 40.0, "c": 20.0, "d": 20.0}
    rounds = [RatedMeeting(sides=(("a", "b"), ("c", "d")), share=1.0)] * 7
    changes = event_rating_changes(rounds, ratings, k)
    # The sides' K are 40 and 20: a perfect event is +40 * 0.5 and -20 * 0.5.
    assert changes["a"] == changes["b"] == pytest.approx(20.0)
    assert changes["c"] == changes["d"] == pytest.approx(-10.0)
