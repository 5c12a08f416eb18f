"""The mean board result of a match with control variates: less noise, no bias.

A control variate is a number known for every board whose mean is known in advance (zero,
once centred): the luck of a decision whose odds are known (``bots.aivat``), or the score of
a fixed reference pairing on the same deal less that pairing's long-run mean. Subtracting
``beta * covariate`` from each board result leaves the mean unchanged and removes the part
of the noise the covariate explains.

``beta`` is fitted by least squares, but never on the board it corrects: boards are split
into folds and each fold is corrected with the coefficients fitted on the other folds
(cross-fitting). A board and the coefficients applied to it are then independent, so
``E[y - beta . z] = E[y] - E[beta] . E[z] = E[y]`` exactly, at any number of boards; fitting
``beta`` on all boards at once would bias the mean by O(1/n).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


class EstimatorError(ValueError):
    """The boards cannot support the estimate asked for (too few, or mismatched lengths)."""


@dataclass(frozen=True)
class MeanEstimate:
    mean: float
    se: float
    coefficients: tuple[tuple[float, ...], ...]
    """The fitted beta of each fold."""
    adjusted: tuple[float, ...]
    """Each board's result less its correction."""

    @property
    def ci95(self) -> float:
        return 1.959963984540054 * self.se


def plain_mean(values: Sequence[float]) -> MeanEstimate:
    """The mean with its standard error, no correction."""
    if len(values) < 2:
        raise EstimatorError("a standard error needs at least two boards")
    return MeanEstimate(
        statistics.fmean(values),
        statistics.stdev(values) / math.sqrt(len(values)),
        (),
        tuple(values),
    )


def control_variate_mean(
    values: Sequence[float],
    centred: Sequence[Sequence[float]],
    *,
    folds: int = 5,
    mean_variances: Sequence[float] | None = None,
    raw: Sequence[Sequence[float]] | None = None,
) -> MeanEstimate:
    """The mean of ``values`` corrected by covariates of known mean zero (``centred[i]`` is
    board i's), cross-fitted over ``folds`` folds (board i is in fold ``i % folds``).

    A covariate's mean is often measured rather than known (on other deals, independent of
    these): ``mean_variances`` are the variances of those measured means, which reach the
    estimate through the coefficients and are added to its standard error.

    ``raw`` are the covariates before centring, if each board was centred on a mean of its
    own (a mean per dealer): the coefficients are then fitted on them, so that the pattern
    of those means is not mistaken for something the covariate explains (it is any function
    of the other folds' boards, so the estimate stays unbiased)."""
    count = len(values)
    if count != len(centred):
        raise EstimatorError(f"{count} board results but {len(centred)} sets of covariates")
    width = len(centred[0]) if centred else 0
    if any(len(row) != width for row in centred):
        raise EstimatorError("every board needs the same number of covariates")
    if folds < 2 or count < folds * (width + 2):
        raise EstimatorError(f"{count} boards are too few for {folds} folds of {width} covariates")
    fitted = centred if raw is None else raw
    if len(fitted) != count or any(len(row) != width for row in fitted):
        raise EstimatorError("the raw covariates must match the centred ones board by board")
    coefficients = []
    adjusted = [0.0] * count
    for fold in range(folds):
        train = [i for i in range(count) if i % folds != fold]
        beta = _least_squares([values[i] for i in train], [fitted[i] for i in train])
        coefficients.append(tuple(beta))
        for i in range(fold, count, folds):
            adjusted[i] = values[i] - sum(b * z for b, z in zip(beta, centred[i], strict=True))
    variance = statistics.variance(adjusted) / count
    if mean_variances is not None:
        if len(mean_variances) != width:
            raise EstimatorError(f"{width} covariates but {len(mean_variances)} mean variances")
        betas = [statistics.fmean(column) for column in zip(*coefficients, strict=True)]
        variance += sum(b * b * v for b, v in zip(betas, mean_variances, strict=True))
    return MeanEstimate(
        statistics.fmean(adjusted), math.sqrt(variance), tuple(coefficients), tuple(adjusted)
    )


def _least_squares(values: Sequence[float], rows: Sequence[Sequence[float]]) -> list[float]:
    """The slopes of ``values`` on ``rows`` with an intercept (which is not returned)."""
    width = len(rows[0])
    if width == 0:
        return []
    mean_y = statistics.fmean(values)
    means = [statistics.fmean(row[j] for row in rows) for j in range(width)]
    # Normal equations on centred data: the intercept drops out.
    gram = [
        [sum((row[j] - means[j]) * (row[k] - means[k]) for row in rows) for k in range(width)]
        for j in range(width)
    ]
    cross = [
        sum((row[j] - means[j]) * (y - mean_y) for row, y in zip(rows, values, strict=True))
        for j in range(width)
    ]
    # A covariate that never varies on these boards (a rare event that did not happen in
    # them) explains nothing here: its coefficient is 0, not whatever rounding makes of
    # 0 / 0. A tiny ridge keeps the rest solvable.
    varying = [j for j in range(width) if gram[j][j] > 1e-9 * sum(row[j] * row[j] for row in rows)]
    beta = [0.0] * width
    if varying:
        sub = [[gram[j][k] for k in varying] for j in varying]
        for i in range(len(varying)):
            sub[i][i] += 1e-12 * (1.0 + sub[i][i])
        for j, value in zip(varying, _solve(sub, [cross[j] for j in varying]), strict=True):
            beta[j] = value
    return beta


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are a few by a few)."""
    size = len(vector)
    a = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(a[r][column]))
        a[column], a[pivot] = a[pivot], a[column]
        for r in range(column + 1, size):
            factor = a[r][column] / a[column][column]
            for c in range(column, size + 1):
                a[r][c] -= factor * a[column][c]
    result = [0.0] * size
    for r in reversed(range(size)):
        total = a[r][size] - sum(a[r][c] * result[c] for c in range(r + 1, size))
        result[r] = total / a[r][r]
    return result


def bootstrap_se_interval(
    values: Sequence[float],
    centred: Sequence[Sequence[float]] | None = None,
    *,
    samples: int = 400,
    seed: int = 0,
    folds: int = 5,
    mean_variances: Sequence[float] | None = None,
    raw: Sequence[Sequence[float]] | None = None,
) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval for the standard error of the estimate, boards
    resampled with their covariates (and the coefficients refitted on each resample)."""
    rng = random.Random(seed)
    count = len(values)
    errors = []
    for _ in range(samples):
        picks = [rng.randrange(count) for _ in range(count)]
        errors.append(_resampled_se(values, centred, picks, folds, mean_variances, raw))
    errors.sort()
    return errors[int(0.025 * (samples - 1))], errors[math.ceil(0.975 * (samples - 1))]


def _resampled_se(
    values: Sequence[float],
    centred: Sequence[Sequence[float]] | None,
    picks: Sequence[int],
    folds: int,
    mean_variances: Sequence[float] | None,
    raw: Sequence[Sequence[float]] | None,
) -> float:
    """The estimate's standard error on the boards ``picks`` (coefficients refitted)."""
    resampled = [values[i] for i in picks]
    if centred is None:
        return plain_mean(resampled).se
    return control_variate_mean(
        resampled,
        [centred[i] for i in picks],
        folds=folds,
        mean_variances=mean_variances,
        raw=None if raw is None else [raw[i] for i in picks],
    ).se


def bootstrap_ratio_interval(
    baseline: Sequence[float],
    values: Sequence[float],
    centred: Sequence[Sequence[float]] | None = None,
    *,
    samples: int = 400,
    seed: int = 0,
    folds: int = 5,
    mean_variances: Sequence[float] | None = None,
    raw: Sequence[Sequence[float]] | None = None,
) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval for the ratio of the plain standard error of
    ``baseline`` to that of the estimate from ``values`` (with ``centred`` covariates, if
    any), the two measured on the same boards: each resample draws boards once for both,
    so the interval is that of the ratio itself, not of two independent errors."""
    count = len(values)
    if len(baseline) != count:
        raise EstimatorError(f"{len(baseline)} baseline boards but {count} board results")
    rng = random.Random(seed)
    ratios = []
    for _ in range(samples):
        picks = [rng.randrange(count) for _ in range(count)]
        base = plain_mean([baseline[i] for i in picks]).se
        error = _resampled_se(values, centred, picks, folds, mean_variances, raw)
        ratios.append(base / error if error > 0 else math.inf)
    ratios.sort()
    return ratios[int(0.025 * (samples - 1))], ratios[math.ceil(0.975 * (samples - 1))]
