"""Board ratings and the SPRT against worked examples (TOURNAMENTS.md, "Ratings")."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.elo import (
    ELO_PER_NATURAL,
    Z95,
    RatingError,
    SprtError,
    Tally,
    chi_square_tail,
    elo_from_score,
    expected_score,
    fit_ratings,
    sprt,
    sprt_llr,
    sprt_path,
)

PRIOR_SD = 1500.0

SPRT_0_10 = {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}


def test_a_hundred_elo_is_a_64_percent_expected_score_per_board() -> None:
    # The Elo table every chess player knows: +100 -> 0.64, +200 -> 0.76, +400 -> 0.91.
    assert expected_score(100) == pytest.approx(0.640, abs=5e-4)
    assert expected_score(200) == pytest.approx(0.760, abs=5e-4)
    assert expected_score(400) == pytest.approx(0.909, abs=5e-4)
    assert elo_from_score(expected_score(123.4)) == pytest.approx(123.4)


def test_the_board_fit_gives_the_exact_answer_of_the_three_player_example() -> None:
    # A scores 75% against B, B 75% against C, A 90% against C in equal numbers of boards:
    # the maximum-likelihood ratings are +-400 log10(3) = +-190.85 around B. Draws count
    # one half, so 15-0-5 and 10-10-0 are the same 75%.
    spread = 400 * math.log10(3)
    assert spread == pytest.approx(190.85, abs=0.01)
    for a_b in (Tally(15, 0, 5), Tally(10, 10, 0)):
        tallies = {("A", "B"): a_b, ("B", "C"): Tally(15, 0, 5), ("A", "C"): Tally(18, 0, 2)}
        ratings = fit_ratings(tallies, bias_reduction=False).ratings
        assert ratings["A"].rating - ratings["B"].rating == pytest.approx(spread, abs=1e-6)
        assert ratings["B"].rating - ratings["C"].rating == pytest.approx(spread, abs=1e-6)
        assert ratings["B"].rating == pytest.approx(0.0, abs=1e-6)  # centred on the pool


def test_the_bias_reduction_barely_moves_a_fit_over_many_boards() -> None:
    # Firth's adjustment (one virtual drawn board per free rating, spread by leverage)
    # against 600 real boards a pair: the spread stays within 1 Elo of the exact 190.85
    # (it was shrunk to 124 when a whole match counted as one game).
    tallies = {
        ("A", "B"): Tally(450, 0, 150),
        ("B", "C"): Tally(450, 0, 150),
        ("A", "C"): Tally(540, 0, 60),
    }
    ratings = fit_ratings(tallies).ratings
    assert ratings["A"].rating - ratings["B"].rating == pytest.approx(190.85, abs=1.0)


def test_the_interval_is_the_observed_information_of_a_two_player_fit() -> None:
    # Two players, n = 600 boards, 450 won and 150 lost: the gap is the Elo of the score
    # s = 0.75, and the variance of the natural-scale gap is 1 / (n s (1 - s)); each
    # player's rating is half the gap from the centre, so its standard error is half the gap's.
    # With a hundred points or more on either side (here 150 lost) the likelihood is nearly
    # a parabola and the interval is the symmetric one.
    fit = fit_ratings({("strong", "greedy"): Tally(450, 0, 150)}, bias_reduction=False)
    gap = elo_from_score(0.75)
    strong, greedy = fit.ratings["strong"], fit.ratings["greedy"]
    assert strong.rating - greedy.rating == pytest.approx(gap, abs=1e-6)
    gap_se = ELO_PER_NATURAL / math.sqrt(600 * 0.75 * 0.25)
    assert fit.difference_se("strong", "greedy") == pytest.approx(gap_se, rel=1e-9)
    assert strong.se == pytest.approx(gap_se / 2, rel=1e-9)
    assert strong.low == pytest.approx(strong.rating - Z95 * gap_se / 2)
    assert strong.high == pytest.approx(strong.rating + Z95 * gap_se / 2)


def binomial_likelihood_ratio_bounds(wins: int, boards: int) -> tuple[float, float]:
    """The 95% likelihood-ratio interval of a binomial proportion (Wilks): the two p where
    2 [k log(k / (n p)) + (n - k) log((n - k) / (n (1 - p)))] = 1.96^2, by bisection."""
    share = wins / boards

    def statistic(p: float) -> float:
        return 2 * (wins * math.log(share / p) + (boards - wins) * math.log((1 - share) / (1 - p)))

    def crossing(inside: float, outside: float) -> float:
        for _ in range(200):
            middle = (inside + outside) / 2
            inside, outside = (middle, outside) if statistic(middle) < Z95**2 else (inside, middle)
        return (inside + outside) / 2

    return crossing(share, 1e-12), crossing(share, 1 - 1e-12)


def test_few_lost_boards_give_the_likelihood_ratio_interval_of_the_score() -> None:
    # 225 won and 75 lost of 300: under a hundred lost points, the interval is where the
    # likelihood falls 1.96^2 / 2 below its top (Wilks), which for two players is the
    # likelihood-ratio interval of a binomial proportion, each rating half its gap. It leans
    # away from the middle: the likelihood of a score of 0.75 is not a parabola in Elo.
    fit = fit_ratings({("strong", "greedy"): Tally(225, 0, 75)}, bias_reduction=False)
    low, high = binomial_likelihood_ratio_bounds(225, 300)
    strong = fit.ratings["strong"]
    assert strong.low == pytest.approx(elo_from_score(low) / 2, abs=1e-3)
    assert strong.high == pytest.approx(elo_from_score(high) / 2, abs=1e-3)
    assert strong.high - strong.rating > strong.rating - strong.low


def test_draws_narrow_the_interval_by_the_variance_they_remove() -> None:
    # 225-49-26 (the strong vs greedy tally) scores s = 249.5 / 300. A board's score has
    # variance s (1 - s) - P(draw) / 4, less than the s (1 - s) of a win-or-lose board: the
    # gap's variance is the win-or-lose one times that ratio, P(draw) taken as 49 / 301.
    fit = fit_ratings({("strong", "greedy"): Tally(225, 49, 26)}, bias_reduction=False)
    s = 249.5 / 300
    gap = elo_from_score(s)
    assert gap == pytest.approx(277.5, abs=0.1)  # 541 when S was a share of board points
    assert fit.ratings["strong"].rating - fit.ratings["greedy"].rating == pytest.approx(gap)
    ratio = (s * (1 - s) - 49 / 301 / 4) / (s * (1 - s))
    gap_se = ELO_PER_NATURAL * math.sqrt(ratio / (300 * s * (1 - s)))
    se = fit.difference_se("strong", "greedy")
    assert se == pytest.approx(gap_se, rel=1e-9)
    assert se is not None and se < 0.85 * ELO_PER_NATURAL / math.sqrt(300 * s * (1 - s))


def test_a_version_with_few_boards_has_a_wide_interval() -> None:
    few = fit_ratings({("new", "old"): Tally(3, 1, 2)}).ratings["new"]
    many = fit_ratings({("new", "old"): Tally(300, 100, 200)}).ratings["new"]
    assert many.low < many.rating < many.high
    assert few.high - few.low > 8 * (many.high - many.low)


def test_a_clean_sweep_gets_a_finite_rating_and_an_honest_interval() -> None:
    # Greedy against random in single4 goes 1500-0-0.
    fit = fit_ratings({("greedy", "random"): Tally(1500, 0, 0)})
    # Firth's adjustment keeps the gap finite: the only pair of a two-player pool has
    # leverage 1, so it is fitted with one virtual drawn board (BayesElo's answer there),
    # 1500.5 points of 1501, and its interval is as wide as that leaves it.
    gap = fit.ratings["greedy"].rating - fit.ratings["random"].rating
    assert gap == pytest.approx(400 * math.log10(1500.5 / 0.5), rel=1e-6)
    assert fit.ratings["greedy"].high - fit.ratings["greedy"].low > 400
    assert not fit.check.poor
    with pytest.raises(RatingError, match="finite maximum likelihood"):
        fit_ratings({("greedy", "random"): Tally(1500, 0, 0)}, bias_reduction=False)


def test_pools_that_never_met_are_centred_apart_and_not_compared() -> None:
    fit = fit_ratings({(1, 2): Tally(30, 0, 10), (3, 4): Tally(10, 0, 30)})
    assert fit.ratings[1].rating == pytest.approx(-fit.ratings[2].rating)
    assert fit.ratings[3].rating == pytest.approx(-fit.ratings[4].rating)
    assert fit.pools[1] == fit.pools[2] != fit.pools[3] == fit.pools[4]
    assert fit.difference_se(1, 3) is None
    assert fit.boards_to_separate(1, 3) is None


def test_boards_to_separate_are_enough_to_make_the_gap_significant() -> None:
    # 12-3-9 is not significant; the figure says how many more boards at the same score
    # make it so, and one board in eight fewer does not. The tally grows in whole copies of
    # 12-3-9, so that its score and its share of draws stay exactly what they are (rounded
    # counts move the gap by about 1%, as much as the margin tested).
    tally = Tally(12, 3, 9)
    fit = fit_ratings({("a", "b"): tally})
    more = fit.boards_to_separate("a", "b")
    assert more is not None and more > 0

    def significant(copies: int) -> bool:
        grown = Tally(12 * copies, 3 * copies, 9 * copies)
        bigger = fit_ratings({("a", "b"): grown})
        gap = bigger.ratings["a"].rating - bigger.ratings["b"].rating
        se = bigger.difference_se("a", "b")
        assert se is not None
        return abs(gap) >= Z95 * se

    assert significant(math.ceil((tally.boards + more) / tally.boards))
    assert not significant(math.floor((tally.boards + int(more * 0.875)) / tally.boards))
    assert fit_ratings({("a", "b"): Tally(225, 49, 26)}).boards_to_separate("a", "b") == 0


tallies_strategy = st.dictionaries(
    st.tuples(st.integers(0, 5), st.integers(0, 5)).filter(lambda pair: pair[0] != pair[1]),
    st.builds(Tally, st.integers(0, 40), st.integers(0, 10), st.integers(0, 40)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(tallies_strategy, st.randoms(use_true_random=False))
def test_the_fit_depends_on_the_boards_only_never_on_their_order(
    tallies: dict[tuple[int, int], Tally], shuffler: random.Random
) -> None:
    # The recompute-from-scratch guarantee rests on this: the same boards, presented in
    # any order and from either side, give bit-identical ratings.
    fit = fit_ratings(tallies)
    items = list(tallies.items())
    shuffler.shuffle(items)
    turned: dict[tuple[int, int], Tally] = {}
    for (a, b), tally in items:
        key, seen = ((b, a), tally.flipped()) if shuffler.random() < 0.5 else ((a, b), tally)
        turned[key] = turned.get(key, Tally()) + seen
    assert fit_ratings(dict(items)).ratings == fit.ratings
    assert fit_ratings(turned).ratings == fit.ratings
    for pool in set(fit.pools.values()):
        members = [p for p, number in fit.pools.items() if number == pool]
        assert sum(fit.ratings[p].rating for p in members) == pytest.approx(0.0, abs=1e-6)
        assert all(fit.ratings[p].se > 0 for p in members)


@settings(max_examples=40, deadline=None)
@given(tallies_strategy)
def test_every_fitted_player_scores_what_its_ratings_expect(
    tallies: dict[tuple[int, int], Tally],
) -> None:
    # The maximum-likelihood equations (Ordo's), here with a normal prior (which keeps any
    # tallies finite without Firth's adjustment): each player's points equal its expected
    # points against every opponent it met, plus its rating (natural units, centred) over
    # the prior's variance.
    fit = fit_ratings(tallies, bias_reduction=False, prior_sd=PRIOR_SD)
    pairs: dict[tuple[int, int], Tally] = {}
    for (a, b), tally in tallies.items():
        key, seen = ((a, b), tally) if a < b else ((b, a), tally.flipped())
        pairs[key] = pairs.get(key, Tally()) + seen
    points: dict[int, float] = {}
    expected: dict[int, float] = {}
    for (a, b), tally in pairs.items():
        if tally.boards == 0:
            continue
        boards = tally.boards
        p = expected_score(fit.ratings[a].rating - fit.ratings[b].rating)
        won = tally.wins + 0.5 * tally.draws
        for player, scored, chance in ((a, won, p), (b, boards - won, 1.0 - p)):
            points[player] = points.get(player, 0.0) + scored
            expected[player] = expected.get(player, 0.0) + boards * chance
    pull = 1.0 / (PRIOR_SD / ELO_PER_NATURAL) ** 2
    for player, total in points.items():
        prior = pull * fit.ratings[player].rating / ELO_PER_NATURAL
        assert expected[player] + prior == pytest.approx(total, abs=1e-6)


def test_the_sprt_llr_matches_the_exact_logistic_values_computed_by_hand() -> None:
    # The published formula (Van den Bergh, "Comments on Normalized Elo", prop. 1.1): with
    # q the observed (loss, draw, win) frequencies and a = (0, 1/2, 1), the ML distribution
    # of expected score s is p_i = q_i / (1 + t (a_i - s)), t solving
    # sum q_i (a_i - s) / (1 + t (a_i - s)) = 0; LLR = N sum q_i log(p1_i / p0_i).
    # W=100 D=50 L=80, elo0 = 0 (s0 = 0.5), elo1 = 10 (s1 = 0.514387): t0 = -0.6956,
    # t1 = -0.9252 and the LLR is 0.614.
    assert sprt_llr(100, 50, 80, elo0=0, elo1=10) == pytest.approx(0.614, abs=1e-3)
    # 10-1-0: the normal approximation said 3.43 (and stopped); the exact value is 0.31.
    assert sprt_llr(10, 1, 0, elo0=0, elo1=10) == pytest.approx(0.312, abs=1e-3)
    outcome = sprt(100, 50, 80, **SPRT_0_10)
    assert outcome.lower_bound == pytest.approx(math.log(0.05 / 0.95))
    assert outcome.upper_bound == pytest.approx(math.log(0.95 / 0.05))
    assert outcome.verdict == "continue"


def test_a_clean_sweep_concludes_and_all_draws_lean_to_h0() -> None:
    # Zero counts are taken as 0.001 (fastchess), so the variance never vanishes.
    assert sprt(300, 0, 0, **SPRT_0_10).verdict == "H1"
    assert sprt(0, 0, 300, **SPRT_0_10).verdict == "H0"
    assert sprt(1500, 0, 0, **SPRT_0_10).verdict == "H1"
    all_draws = sprt_llr(0, 40, 0, elo0=0, elo1=10)
    assert all_draws < 0  # 40 draws: a score of exactly 0.5 favours elo0 = 0
    assert all_draws == pytest.approx(-1.1605, abs=1e-3)
    assert sprt_llr(0, 0, 0, elo0=0, elo1=10) == 0.0
    assert sprt(600, 200, 200, **SPRT_0_10).verdict == "H1"
    assert sprt(200, 200, 600, **SPRT_0_10).verdict == "H0"


def test_the_sprt_path_stops_at_the_first_crossing_of_a_bound() -> None:
    path = sprt_path([1] * 300, **SPRT_0_10)
    stop = next(n for n in range(1, 301) if sprt_llr(n, 0, 0, elo0=0, elo1=10) >= 2.9444)
    assert path.stopped_at == stop
    assert path.verdict == "H1"
    assert path.points[0] == (0, 0.0)
    assert (stop, pytest.approx(sprt_llr(stop, 0, 0, elo0=0, elo1=10))) in path.points
    assert path.points[-1][0] == 300 and path.final.wins == 300
    long = sprt_path([1, 0, -1, 0] * 1000, **SPRT_0_10, max_points=100)
    assert len(long.points) <= 102 and long.points[-1][0] == 4000
    assert long.final.draws == 2000 and long.final.verdict == long.verdict == "H0"


def test_sprt_refuses_meaningless_hypotheses() -> None:
    with pytest.raises(SprtError, match="elo1 must be greater"):
        sprt(1, 1, 1, elo0=5, elo1=5, alpha=0.05, beta=0.05)
    with pytest.raises(SprtError, match="alpha and beta"):
        sprt(1, 1, 1, elo0=0, elo1=5, alpha=0, beta=0.05)
    with pytest.raises(SprtError, match="less than 1"):
        sprt(1, 1, 1, elo0=0, elo1=5, alpha=0.6, beta=0.5)


def test_a_cycle_of_three_bots_is_flagged_as_not_described_by_ratings() -> None:
    # Strong beats greedy, greedy beats the third bot, the third bot beats strong, each 35-15
    # over 50 boards (auction4's non-transitive cycle). No ratings can say that: they are
    # fitted equal, so each pair is predicted 50% where it scored 70% or 30%. A triangle has
    # one residual degree of freedom (3 pairs less 2 free ratings); its binomial deviance is
    # 6 (35 ln(35/25) + 15 ln(15/25)) = 24.7, and each pair's residual is 10 points over the
    # sd of S - nE with leverage 2/3: sqrt(50 * 1/4 * 1/3) = 2.04, i.e. 4.9 standard errors.
    cycle = {
        ("strong", "greedy"): Tally(35, 0, 15),
        ("greedy", "third"): Tally(35, 0, 15),
        ("third", "strong"): Tally(35, 0, 15),
    }
    check = fit_ratings(cycle).check
    deviance = 6 * (35 * math.log(35 / 25) + 15 * math.log(15 / 25))
    assert check.degrees_of_freedom == 1
    assert check.deviance == pytest.approx(deviance, rel=1e-6)
    assert check.p_value == pytest.approx(math.erfc(math.sqrt(deviance / 2)), rel=1e-6)
    assert check.poor
    assert len(check.disagreements) == 3
    named = {(d.first, d.second): d for d in check.disagreements}
    worst = named[("greedy", "strong")]  # seen from the first by repr: greedy lost 15-35
    assert worst.score == pytest.approx(0.3)
    assert worst.expected == pytest.approx(0.5)
    assert worst.residual == pytest.approx(-10 / math.sqrt(50 / 4 / 3), rel=1e-3)
    assert worst.boards == 50


def test_transitive_results_are_described_by_their_ratings() -> None:
    # The same three bots with results their ratings explain (the +-190.85 example at 50
    # boards a pair, draws included): nothing to report.
    transitive = {
        ("strong", "greedy"): Tally(35, 5, 10),
        ("greedy", "third"): Tally(35, 5, 10),
        ("strong", "third"): Tally(44, 2, 4),
    }
    check = fit_ratings(transitive).check
    assert check.degrees_of_freedom == 1
    assert check.p_value > 0.5
    assert not check.poor
    assert check.disagreements == ()


def test_two_bots_or_a_chain_leave_nothing_to_check() -> None:
    # Each pair of a chain fixes one rating difference by itself: the ratings match every
    # pair's score exactly, so there is no residual degree of freedom (a sweep included).
    chain = {("a", "b"): Tally(1500, 0, 0), ("b", "c"): Tally(30, 5, 15)}
    check = fit_ratings(chain).check
    assert (check.degrees_of_freedom, check.p_value, check.disagreements) == (0, 1.0, ())
    assert not check.poor


def test_the_chi_square_tail_matches_its_table() -> None:
    assert chi_square_tail(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_tail(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-7)
    assert chi_square_tail(1.6103, 5) == pytest.approx(0.90, rel=1e-4)
    assert chi_square_tail(0.0, 3) == 1.0
