"""Rating mathematics, free of the database (TOURNAMENTS.md, "Ratings").

Units
    Everything here is in the Elo units chess players know, per duplicate board: a rating
    difference D means an expected score of ``1 / (1 + 10 ** (-D / 400))`` on each board,
    so +100 is 64%. Each board is one paired observation (its tables are played with the
    same cards, TOURNAMENTS.md "Duplicate for bots"): a win, a draw or a loss by the sign
    of the board result. The point scale of a variant and the length of a match no longer
    enter a rating: a board is a board.

The fit (``fit_ratings``)
    The maximum likelihood over every rated board of a variant, as Ordo does for chess
    engines: a win counts 1, a draw 1/2, and the probability of scoring against an
    opponent is the logistic curve above. ``prior_draws`` virtual draws per pair that met
    (BayesElo's prior) keep the fit finite when one side won every board (greedy against
    random in a four-hand game goes 1500/0/0); against hundreds of real boards they move a rating
    by a fraction of a point. Ratings are centred on 0 in each connected pool. Each carries
    a 95% interval of 1.96 standard errors from the observed information (the inverse of
    the Hessian of the log-likelihood), so a version with few boards has a wide one.

    The fit is exact and deterministic: it depends only on the board tallies, never on the
    order in which they arrived, which is what lets a from-scratch recomputation reproduce
    the incremental ratings bit for bit. That is why it is fitted here rather than taken
    from Glicko-2, TrueSkill or openskill: those are online Bayesian filters whose answer
    depends on the order of the games and whose units are not expected scores per board.
    For human pairs, whose results come one event at a time and whose partners share a
    result, openskill's team model is the natural fit (``tournaments``).

SPRT (``sprt``, ``sprt_path``)
    The exact generalised SPRT of fastchess's "logistic" model (Michel Van den Bergh,
    "Comments on Normalized Elo", proposition 1.1): for each hypothesis the maximum
    likelihood distribution of (loss, draw, win) whose expected score is that of elo0 or
    elo1, and the log-likelihood ratio of the observed counts between the two. A count of
    zero is taken as 0.001, as fastchess does, so a clean sweep concludes.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

INITIAL_ELO = 1500.0
"""Where a pool's mean rating is shown: ratings are fitted centred on 0."""
PRIOR_DRAWS = 1.0
"""Virtual drawn boards added to every pair of versions that met (BayesElo's prior)."""
SEPARATION_CAP = 1_000_000
"""The most boards ``Fit.boards_to_separate`` reports: "a million or more"."""
Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""
ELO_PER_NATURAL = 400.0 / math.log(10.0)
"""Elo points per unit of the logistic's natural scale."""
_BLAS = ThreadpoolController()
"""The fit's matrices are small: BLAS threads would only fight the match workers for the
cores (25 times slower at 200 versions on a busy machine), so the fit runs on one."""

Player = TypeVar("Player", bound=Hashable)


class RatingError(ValueError):
    """The data has no finite maximum-likelihood rating (a sweep fitted with no prior)."""


class SprtError(ValueError):
    """An SPRT was asked with meaningless hypotheses or error rates."""


def expected_score(difference: float) -> float:
    """The expected score per board of a side rated ``difference`` Elo above its opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -difference / 400.0))


def elo_from_score(score: float) -> float:
    """The rating difference whose expected score per board is ``score`` (0 < score < 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Tally:
    """Boards won, drawn and lost by the first of two versions against the second."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @classmethod
    def of(cls, results: Sequence[int]) -> Tally:
        """The tally of board results seen from X (positive: X won the board)."""
        wins = sum(1 for result in results if result > 0)
        losses = sum(1 for result in results if result < 0)
        return cls(wins, len(results) - wins - losses, losses)

    @property
    def boards(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per board, a draw counting one half (0.5 when there is no board)."""
        return (self.wins + 0.5 * self.draws) / self.boards if self.boards else 0.5

    def flipped(self) -> Tally:
        return Tally(self.losses, self.draws, self.wins)

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)


@dataclass(frozen=True)
class Estimate:
    """A fitted rating (centred on its pool's mean) and its standard error, in Elo."""

    rating: float
    se: float

    @property
    def low(self) -> float:
        return self.rating - Z95 * self.se

    @property
    def high(self) -> float:
        return self.rating + Z95 * self.se


@dataclass(frozen=True)
class Fit(Generic[Player]):
    """The ratings of every player, and what is needed to compare any two of them."""

    ratings: dict[Player, Estimate]
    pools: dict[Player, int]
    """The connected pool of each player: ratings only compare within one pool."""
    _index: dict[Player, int]
    """Each player's row in its pool's covariance."""
    _covariances: list[npt.NDArray[np.float64]]
    """Each pool's inverse observed information (natural units, its first player held at 0)."""

    def difference_se(self, a: Player, b: Player) -> float | None:
        """The standard error, in Elo, of the rating difference of a and b (None: no link)."""
        if self.pools[a] != self.pools[b]:
            return None
        covariance = self._covariances[self.pools[a]]
        i, j = self._index[a], self._index[b]
        variance = float(covariance[i, i] + covariance[j, j] - 2.0 * covariance[i, j])
        return ELO_PER_NATURAL * math.sqrt(max(variance, 0.0))

    def boards_to_separate(self, a: Player, b: Player) -> int | None:
        """How many more boards between a and b would make their difference significant
        at 95%, if it stays what it is now: 0 if it already is, at most ``SEPARATION_CAP``
        (a gap that small is not worth testing), None if they are in different pools.
        """
        se = self.difference_se(a, b)
        if se is None:
            return None
        gap = self.ratings[a].rating - self.ratings[b].rating
        if abs(gap) >= Z95 * se:
            return 0
        if gap == 0.0:
            return SEPARATION_CAP
        # Information adds up: each direct board tells p (1 - p) about the difference
        # (natural units), and significance needs (Z95 / gap) ** 2 of it in all.
        natural_gap = gap / ELO_PER_NATURAL
        needed = (Z95 / natural_gap) ** 2 - (ELO_PER_NATURAL / se) ** 2
        p = expected_score(gap)
        return min(math.ceil(needed / (p * (1.0 - p))), SEPARATION_CAP)


def fit_ratings(
    tallies: Mapping[tuple[Player, Player], Tally],
    *,
    prior_draws: float = PRIOR_DRAWS,
    tolerance: float = 1e-10,
    max_iterations: int = 200,
) -> Fit[Player]:
    """Maximum-likelihood ratings over board tallies, with standard errors.

    ``tallies[(a, b)]`` are a's boards against b; (b, a) may be given too and adds up.
    Players are ordered by ``repr``, so the result does not depend on the mapping's order.

    >>> tallies = {("A", "B"): Tally(15, 0, 5), ("B", "C"): Tally(15, 0, 5),
    ...            ("A", "C"): Tally(18, 0, 2)}
    >>> {p: round(e.rating, 2) for p, e in fit_ratings(tallies, prior_draws=0).ratings.items()}
    {'A': 190.85, 'B': 0.0, 'C': -190.85}
    """
    if prior_draws < 0:
        raise RatingError("prior_draws cannot be negative")
    pairs: dict[tuple[Player, Player], tuple[float, float]] = {}
    for (a, b), tally in sorted(tallies.items(), key=lambda item: repr(item[0])):
        if a == b:
            raise RatingError(f"{a!r} cannot be rated against itself")
        if tally.boards == 0:
            continue
        # Points in halves are exact in floating point, so sums never depend on grouping.
        key, seen = ((a, b), tally) if repr(a) <= repr(b) else ((b, a), tally.flipped())
        boards, points = pairs.get(key, (0.0, 0.0))
        pairs[key] = (boards + seen.boards, points + seen.wins + 0.5 * seen.draws)
    ratings: dict[Player, Estimate] = {}
    pools: dict[Player, int] = {}
    index: dict[Player, int] = {}
    covariances: list[npt.NDArray[np.float64]] = []
    ordered_pairs = sorted(pairs.items(), key=lambda item: repr(item[0]))
    for number, members in enumerate(_pools(pairs)):
        position = {player: i for i, player in enumerate(members)}
        links = [
            (position[a], position[b], boards + prior_draws, points + prior_draws / 2)
            for (a, b), (boards, points) in ordered_pairs
            if a in position
        ]
        with _BLAS.limit(limits=1, user_api="blas"):
            theta, inverse = _fit_pool(len(members), links, tolerance, max_iterations)
        # The covariance with the first player held at 0; centring on the pool's mean is a
        # linear map of it.
        row_means = inverse.mean(axis=1)
        variances = np.diagonal(inverse) - 2.0 * row_means + row_means.mean()
        centred = ELO_PER_NATURAL * (theta - theta.mean())
        errors = ELO_PER_NATURAL * np.sqrt(np.maximum(variances, 0.0))
        for player, i in position.items():
            pools[player] = number
            index[player] = i
            ratings[player] = Estimate(rating=float(centred[i]), se=float(errors[i]))
        covariances.append(inverse)
    return Fit(ratings, pools, index, covariances)


def _pools(pairs: Mapping[tuple[Player, Player], object]) -> list[list[Player]]:
    """The connected groups of players, each sorted by repr, in a deterministic order."""
    parent: dict[Player, Player] = {}

    def root(player: Player) -> Player:
        while parent[player] != player:
            parent[player] = parent[parent[player]]
            player = parent[player]
        return player

    for a, b in pairs:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        parent[root(a)] = root(b)
    groups: dict[Player, list[Player]] = {}
    for player in sorted(parent, key=repr):
        groups.setdefault(root(player), []).append(player)
    return sorted(groups.values(), key=lambda group: repr(group[0]))


def _fit_pool(
    size: int,
    links: Sequence[tuple[int, int, float, float]],
    tolerance: float,
    max_iterations: int,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Damped Newton on one connected pool, player 0 held at 0 (the likelihood only sees
    differences). Returns the natural-scale strengths and the inverse observed information
    (zero in row and column 0).

    Each pair of players appears once in ``links``, so the Hessian's off-diagonal entries
    are set, not summed, and every sum (``bincount``) runs in the fixed order of the links:
    the same tallies give the same bits in every process.
    """
    first = np.array([link[0] for link in links], dtype=np.intp)
    second = np.array([link[1] for link in links], dtype=np.intp)
    boards = np.array([link[2] for link in links], dtype=np.float64)
    points = np.array([link[3] for link in links], dtype=np.float64)
    theta = np.zeros(size)

    def log_likelihood(values: npt.NDArray[np.float64]) -> float:
        d = values[first] - values[second]
        # log p and log (1 - p) of the logistic, without overflow.
        return -float(
            np.sum(points * np.logaddexp(0.0, -d) + (boards - points) * np.logaddexp(0.0, d))
        )

    def gradient_and_hessian(
        values: npt.NDArray[np.float64],
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        p = _logistic(values[first] - values[second])
        residual = points - boards * p
        weight = boards * p * (1.0 - p)
        gradient = _sums(first, residual, size) - _sums(second, residual, size)
        hessian = np.zeros((size, size))
        hessian[first, second] = -weight
        hessian[second, first] = -weight
        diagonal = np.arange(size)
        hessian[diagonal, diagonal] = _sums(first, weight, size) + _sums(second, weight, size)
        return gradient, hessian

    current = log_likelihood(theta)
    for _ in range(max_iterations):
        gradient, hessian = gradient_and_hessian(theta)
        step = _solve(hessian[1:, 1:], gradient[1:])
        scale = 1.0
        while True:
            trial = theta.copy()
            trial[1:] += scale * step
            value = log_likelihood(trial)
            if value >= current or scale < 1e-6:
                break
            scale /= 2.0
        theta, current = trial, value
        if size == 1 or float(np.max(np.abs(scale * step))) < tolerance:
            break
    else:
        raise RatingError(
            "the ratings did not converge: some player won or lost every board, "
            "which has no finite maximum likelihood without a prior"
        )
    _, hessian = gradient_and_hessian(theta)
    inverse = np.zeros((size, size))
    inverse[1:, 1:] = _solve(hessian[1:, 1:], np.eye(size - 1))
    return theta, inverse


def _sums(
    players: npt.NDArray[np.intp], values: npt.NDArray[np.float64], size: int
) -> npt.NDArray[np.float64]:
    """Each player's total of ``values``, added in the order of the links."""
    return np.asarray(np.bincount(players, values, size), dtype=np.float64)


def _logistic(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    # exp of a non-positive number only, so nothing overflows.
    z = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + z), z / (1.0 + z))


def _solve(
    matrix: npt.NDArray[np.float64], right: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The solution of a positive definite system, or the rule it breaks."""
    try:
        lower = np.linalg.cholesky(matrix)
    except np.linalg.LinAlgError:
        raise RatingError("the board tallies have no finite maximum likelihood") from None
    return np.asarray(np.linalg.solve(lower.T, np.linalg.solve(lower, right)), dtype=np.float64)


# The SPRT -----------------------------------------------------------------------------------

ZERO_COUNT = 1e-3
"""What a zero count of wins, draws or losses is taken as (fastchess's regularisation)."""
_SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class SprtOutcome:
    llr: float
    lower_bound: float
    upper_bound: float
    verdict: str  # "H1" (elo1 accepted), "H0" (elo0 accepted) or "continue"
    wins: int
    draws: int
    losses: int


def sprt_bounds(*, alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: accept H0 at or below the first, H1 at or above the second."""
    if not 0 < alpha < 1 or not 0 < beta < 1:
        raise SprtError("alpha and beta must lie strictly between 0 and 1")
    if alpha + beta >= 1:
        raise SprtError("alpha + beta must be less than 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, *, elo0: float, elo1: float) -> float:
    """The exact log-likelihood ratio of H1 (elo1) against H0 (elo0) for board counts."""
    if elo1 <= elo0:
        raise SprtError("elo1 must be greater than elo0")
    if min(wins, draws, losses) < 0:
        raise SprtError("counts of boards cannot be negative")
    if wins + draws + losses == 0:
        return 0.0
    counts = [float(count) if count else ZERO_COUNT for count in (losses, draws, wins)]
    total = sum(counts)
    observed = [count / total for count in counts]
    under_h0 = _closest_distribution(observed, expected_score(elo0))
    under_h1 = _closest_distribution(observed, expected_score(elo1))
    return total * sum(
        p * (math.log(p1) - math.log(p0))
        for p, p0, p1 in zip(observed, under_h0, under_h1, strict=True)
    )


def _closest_distribution(observed: Sequence[float], score: float) -> list[float]:
    """The distribution over (loss, draw, win) of expected score ``score`` that maximises
    the likelihood of ``observed``: ``p_i = q_i / (1 + t (a_i - score))`` where t solves
    ``sum q_i (a_i - score) / (1 + t (a_i - score)) = 0`` (Van den Bergh, eq. 1.2 and 1.3).
    """
    offsets = [a - score for a in _SCORES]

    def equation(t: float) -> tuple[float, float]:
        value = slope = 0.0
        for q, offset in zip(observed, offsets, strict=True):
            denominator = 1.0 + t * offset
            value += q * offset / denominator
            slope -= q * offset * offset / (denominator * denominator)
        return value, slope

    # The equation falls from +inf to -inf between these poles; Newton's steps are kept
    # inside the bracket, falling back to bisection.
    low, high = -1.0 / offsets[-1], -1.0 / offsets[0]
    t = 0.0
    for _ in range(200):
        value, slope = equation(t)
        if value > 0:
            low = t
        else:
            high = t
        newton = t - value / slope
        candidate = newton if low < newton < high else (low + high) / 2
        if candidate == t or high - low <= 1e-15 * max(1.0, abs(t)):
            break
        t = candidate
    return [q / (1.0 + t * offset) for q, offset in zip(observed, offsets, strict=True)]


def sprt(
    wins: int, draws: int, losses: int, *, elo0: float, elo1: float, alpha: float, beta: float
) -> SprtOutcome:
    """The SPRT between H0 (elo = elo0) and H1 (elo = elo1) on board outcomes."""
    lower, upper = sprt_bounds(alpha=alpha, beta=beta)
    llr = sprt_llr(wins, draws, losses, elo0=elo0, elo1=elo1)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtOutcome(llr, lower, upper, verdict, wins, draws, losses)


@dataclass(frozen=True)
class SprtPath:
    """The LLR board by board: where the test stopped, and what it says now."""

    points: list[tuple[int, float]]
    """(boards played, LLR) at most ``max_points`` of them, the stopping board included."""
    stopped_at: int | None
    """The board at which the LLR first crossed a bound (the test's decision), if any."""
    verdict: str
    """The decision taken at ``stopped_at``, or "continue"."""
    final: SprtOutcome
    """The test over every board played (it may have gone on after the decision)."""


def sprt_path(
    outcomes: Sequence[int],
    *,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_points: int = 400,
) -> SprtPath:
    """The SPRT over boards in the order they were played (each outcome's sign counts)."""
    lower, upper = sprt_bounds(alpha=alpha, beta=beta)
    wins = draws = losses = 0
    llrs: list[float] = []
    stopped_at: int | None = None
    verdict = "continue"
    for number, outcome in enumerate(outcomes, start=1):
        wins += outcome > 0
        draws += outcome == 0
        losses += outcome < 0
        llr = sprt_llr(wins, draws, losses, elo0=elo0, elo1=elo1)
        llrs.append(llr)
        if stopped_at is None and (llr >= upper or llr <= lower):
            stopped_at, verdict = number, "H1" if llr >= upper else "H0"
    final = sprt(wins, draws, losses, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    stride = max(1, math.ceil(len(llrs) / max_points))
    kept = {*range(stride, len(llrs) + 1, stride), len(llrs)}
    if stopped_at is not None:
        kept.add(stopped_at)
    points = [(0, 0.0)] + [(number, llrs[number - 1]) for number in sorted(kept) if number]
    return SprtPath(points, stopped_at, verdict, final)
