"""Control variates for duplicate boards: less noise, and no bias where the truth is known."""

from __future__ import annotations

import random
import statistics

import pytest

from arena.variance import (
    EstimatorError,
    bootstrap_ratio_interval,
    bootstrap_se_interval,
    control_variate_mean,
    plain_mean,
)

TRUE_ADVANTAGE = 12.0


def _boards(rng: random.Random, count: int) -> tuple[list[float], list[list[float]]]:
    """Simulated boards whose true mean is TRUE_ADVANTAGE: a reference score z (mean 0, as
    a reference pairing's score less its long-run mean), the luck u of a uniformly random
    decision valued by an imperfect value function (mean 0 by construction), and noise
    neither explains. The result also depends on z nonlinearly (mean 0 too)."""
    values, covariates = [], []
    for _ in range(count):
        z = rng.gauss(0, 40)
        actions = [rng.gauss(0, 60) for _ in range(rng.randrange(2, 8))]
        taken = rng.choice(actions)
        estimated = [a + rng.gauss(0, 15) for a in actions]  # the value function's error
        luck = estimated[actions.index(taken)] - statistics.fmean(estimated)
        truth_luck = taken - statistics.fmean(actions)
        y = TRUE_ADVANTAGE + 0.8 * z + 0.002 * (z * z - 1600) + truth_luck + rng.gauss(0, 10)
        values.append(y)
        covariates.append([z, luck])
    return values, covariates


def test_the_corrected_mean_is_unbiased_on_simulated_boards_with_a_known_truth() -> None:
    rng = random.Random(2026)
    plain, corrected = [], []
    for _ in range(400):
        values, covariates = _boards(rng, 30)
        plain.append(plain_mean(values).mean)
        corrected.append(control_variate_mean(values, covariates).mean)
    # 400 repetitions: the mean of the estimates lies within 4 Monte-Carlo standard errors
    # of the truth, for the plain mean and for the corrected one alike.
    for estimates in (plain, corrected):
        mc_se = statistics.stdev(estimates) / len(estimates) ** 0.5
        assert abs(statistics.fmean(estimates) - TRUE_ADVANTAGE) < 4 * mc_se
    # ... and the corrected one is far less noisy.
    assert statistics.stdev(corrected) < 0.5 * statistics.stdev(plain)


def test_the_standard_error_shrinks_with_the_noise_the_covariates_explain() -> None:
    values, covariates = _boards(random.Random(5), 200)
    plain = plain_mean(values)
    corrected = control_variate_mean(values, covariates)
    assert corrected.se < 0.5 * plain.se
    low, high = bootstrap_se_interval(values, covariates, samples=100)
    assert low < corrected.se < high
    plain_low, plain_high = bootstrap_se_interval(values, samples=100)
    assert plain_low < plain.se < plain_high
    # The coefficient of the decision's luck is near 1 (its value function is good) and
    # every fold had its own fit.
    assert len(corrected.coefficients) == 5
    assert all(0.7 < beta[1] < 1.3 for beta in corrected.coefficients)


def test_a_covariate_that_explains_nothing_costs_almost_nothing() -> None:
    rng = random.Random(9)
    values = [rng.gauss(5, 20) for _ in range(300)]
    unrelated = [[rng.gauss(0, 1)] for _ in values]
    assert control_variate_mean(values, unrelated).se < 1.05 * plain_mean(values).se


def test_too_few_boards_or_mismatched_covariates_are_refused() -> None:
    with pytest.raises(EstimatorError, match="too few"):
        control_variate_mean([1.0] * 9, [[0.0, 0.0]] * 9)
    with pytest.raises(EstimatorError, match="sets of covariates"):
        control_variate_mean([1.0] * 30, [[0.0]] * 29)
    with pytest.raises(EstimatorError, match="at least two"):
        plain_mean([1.0])


def test_a_mean_measured_on_other_deals_keeps_the_estimate_unbiased_and_its_error_honest() -> None:
    # The reference pairing's mean is not known: it is measured on earlier deals, which are
    # independent of the match's. Its error must show in the standard error: over many
    # simulated matches the intervals cover the truth about 95% of the time.
    rng = random.Random(77)
    reference_mean = 30.0
    estimates, covered = [], 0
    for _ in range(300):
        history = [reference_mean + rng.gauss(0, 40) for _ in range(120)]
        measured = statistics.fmean(history)
        values, rows = [], []
        for _ in range(40):
            z = reference_mean + rng.gauss(0, 40)
            values.append(TRUE_ADVANTAGE + 0.9 * (z - reference_mean) + rng.gauss(0, 15))
            rows.append([z - measured])
        estimate = control_variate_mean(
            values, rows, mean_variances=[statistics.variance(history) / len(history)]
        )
        estimates.append(estimate.mean)
        covered += abs(estimate.mean - TRUE_ADVANTAGE) <= estimate.ci95
    mc_se = statistics.stdev(estimates) / len(estimates) ** 0.5
    assert abs(statistics.fmean(estimates) - TRUE_ADVANTAGE) < 4 * mc_se
    assert 0.9 <= covered / len(estimates) <= 0.99
    # Without the measured mean's error, the intervals would be too narrow.
    narrow = control_variate_mean(values, rows)
    assert narrow.se < estimate.se
    with pytest.raises(EstimatorError, match="mean variances"):
        control_variate_mean(values, rows, mean_variances=[1.0, 2.0])


def test_a_rare_covariate_absent_from_the_fitting_boards_gets_no_coefficient() -> None:
    # The bid a reference declarer lost is 0 on most boards. When the folds that fit a
    # coefficient never saw it, that coefficient is 0: rounding must not turn 0 / 0 into a
    # large number that then multiplies the one board where it happened.
    rng = random.Random(4)
    values = [rng.gauss(10, 5) for _ in range(20)]
    rows = [[rng.gauss(0, 3), 225.0 if i == 0 else -25.0] for i in range(20)]
    estimate = control_variate_mean(values, rows)
    assert estimate.coefficients[0][1] == 0.0
    assert estimate.se < 1.5 * plain_mean(values).se


def test_the_ratio_interval_is_of_the_two_errors_on_the_same_resampled_boards() -> None:
    values, covariates = _boards(random.Random(5), 200)
    # The same boards for both: every resample gives a ratio of exactly one.
    assert bootstrap_ratio_interval(values, values, samples=50) == (1.0, 1.0)
    ratio = plain_mean(values).se / control_variate_mean(values, covariates).se
    low, high = bootstrap_ratio_interval(values, values, covariates, samples=100)
    assert 1.0 < low < ratio < high
    with pytest.raises(EstimatorError, match="199 baseline boards but 200 board results"):
        bootstrap_ratio_interval(values[:-1], values, covariates)
