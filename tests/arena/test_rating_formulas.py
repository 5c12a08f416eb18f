"""Elo, Bradley-Terry and SPRT against worked examples (TOURNAMENTS.md, "Ratings")."""

from __future__ import annotations

import math

import pytest

from arena.ratings import (
    K_ESTABLISHED,
    K_PROVISIONAL,
    PROVISIONAL_MATCHES,
    Result,
    bradley_terry,
    bradley_terry_intervals,
    elo_expected,
    elo_update,
    k_factor,
    sprt,
)


def test_elo_expected_scores_match_the_textbook_table() -> None:
    # The classic example (Elo's system as usually taught): a player rated 1613 meets
    # 1609, 1477, 1388, 1586 and 1720; the expected scores are 0.51, 0.69, 0.79, 0.54, 0.35.
    opponents = [1609, 1477, 1388, 1586, 1720]
    expected = [elo_expected(1613, opponent) for opponent in opponents]
    assert [round(e, 2) for e in expected] == [0.51, 0.69, 0.79, 0.54, 0.35]
    # Scoring 2.5 with K = 32 gives 1613 + 32 (2.5 - 2.867) = 1601.
    new = 1613 + 32 * (2.5 - sum(expected))
    assert round(new) == 1601


def test_an_elo_update_moves_both_sides_by_the_same_amount_at_equal_k() -> None:
    after_a = elo_update(1500, 1500, 0.75, 20)
    after_b = elo_update(1500, 1500, 0.25, 20)
    assert after_a == pytest.approx(1505)
    assert after_a + after_b == pytest.approx(3000)


def test_k_is_higher_while_provisional() -> None:
    assert k_factor(0) == K_PROVISIONAL
    assert k_factor(PROVISIONAL_MATCHES - 1) == K_PROVISIONAL
    assert k_factor(PROVISIONAL_MATCHES) == K_ESTABLISHED < K_PROVISIONAL


def test_bradley_terry_gives_the_exact_answer_of_the_three_player_example() -> None:
    # A scores 75% against B, B 75% against C, A 90% against C, equal numbers of games:
    # the maximum-likelihood ratings are +-400 log10(3) around B.
    results = [Result("A", "B", 0.75), Result("B", "C", 0.75), Result("A", "C", 0.9)] * 4
    ratings = bradley_terry(results)
    spread = 400 * math.log10(3)
    assert spread == pytest.approx(190.85, abs=0.01)
    assert ratings["A"] - ratings["B"] == pytest.approx(spread, abs=1e-6)
    assert ratings["B"] - ratings["C"] == pytest.approx(spread, abs=1e-6)


def test_bootstrap_intervals_contain_the_fit_and_shrink_with_more_matches() -> None:
    few = [Result("A", "B", 0.7), Result("B", "A", 0.4), Result("A", "B", 0.6)]
    many = few * 30
    narrow = bradley_terry_intervals(many, samples=100, seed=1)
    wide = bradley_terry_intervals(few, samples=100, seed=1)
    for intervals in (narrow, wide):
        for interval in intervals.values():
            assert interval.low <= interval.rating <= interval.high
    width = lambda i: i["A"].high - i["A"].low  # noqa: E731
    assert width(narrow) < width(wide)


def test_sprt_bounds_and_a_hand_computed_log_likelihood_ratio() -> None:
    # alpha = beta = 0.05: bounds log(0.05/0.95) and log(0.95/0.05) = -+2.944.
    # W=60 D=20 L=20: s = 0.7, var = (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16;
    # s0 = 0.5 (elo0 0), s1 = 1/(1+10^(-10/400)) = 0.514387;
    # LLR = 100 * 0.014387 * (1.4 - 0.5 - 0.514387) / (2 * 0.16) = 1.7337.
    outcome = sprt(60, 20, 20, elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert outcome.lower_bound == pytest.approx(-2.944, abs=1e-3)
    assert outcome.upper_bound == pytest.approx(2.944, abs=1e-3)
    assert outcome.llr == pytest.approx(1.7337, abs=1e-3)
    assert outcome.verdict == "continue"
    assert sprt(600, 200, 200, elo0=0, elo1=10, alpha=0.05, beta=0.05).verdict == "H1"
    assert sprt(200, 200, 600, elo0=0, elo1=10, alpha=0.05, beta=0.05).verdict == "H0"


def test_sprt_refuses_meaningless_hypotheses() -> None:
    with pytest.raises(ValueError, match="elo1 must be greater"):
        sprt(1, 1, 1, elo0=5, elo1=5, alpha=0.05, beta=0.05)
    with pytest.raises(ValueError, match="alpha and beta"):
        sprt(1, 1, 1, elo0=0, elo1=5, alpha=0, beta=0.05)
