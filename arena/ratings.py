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
    random in single4 goes 1500/0/0); against hundreds of real boards they move a rating
    by a fraction of a point. Ratings are centred on 0 in each connected pool. Each carries
    a 95% interval of 1.96 standard errors from the observed information (the inverse of
    the Hessian of the log-likelihood), so a version with few boards has a wide one.

    The fit is exact and deterministic: it depends only on the board tallies, never on the
    order in which they arrived, which is what lets a from-scratch recomputation reproduce
    the incremental ratings bit for bit. That is why it is fitted here rather than taken
    from Glicko-2, TrueSkill or openskill: those are online Bayesian filters whose answer
    depends on the order of the games and whose units are not expected scores per board.
    For human pairs, whose results come one event at a time and whose partners share a
    result, openskill's team model is the natural fit (``leagues.tournaments``).

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
from operator import mul
from typing import Generic, TypeVar

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
    _covariance: dict[tuple[Player, Player], float]

    def difference_se(self, a: Player, b: Player) -> float | None:
        """The standard error, in Elo, of the rating difference of a and b (None: no link)."""
        if self.pools[a] != self.pools[b]:
            return None
        variance = (
            self._covariance[(a, a)] + self._covariance[(b, b)] - 2.0 * self._covariance[(a, b)]
        )
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
    covariance: dict[tuple[Player, Player], float] = {}
    for number, members in enumerate(_pools(pairs)):
        index = {player: i for i, player in enumerate(members)}
        links = [
            (index[a], index[b], boards + prior_draws, points + prior_draws / 2)
            for (a, b), (boards, points) in sorted(pairs.items(), key=lambda item: repr(item[0]))
            if a in index
        ]
        theta, inverse = _fit_pool(len(members), links, tolerance, max_iterations)
        mean = sum(theta) / len(theta)
        size = len(members)
        # The covariance with the first player held at 0; centring on the pool's mean is a
        # linear map of it.
        row_means = [sum(row) / size for row in inverse]
        grand_mean = sum(row_means) / size
        for player, i in index.items():
            pools[player] = number
            variance = inverse[i][i] - 2.0 * row_means[i] + grand_mean
            ratings[player] = Estimate(
                rating=ELO_PER_NATURAL * (theta[i] - mean),
                se=ELO_PER_NATURAL * math.sqrt(max(variance, 0.0)),
            )
            for other, j in index.items():
                covariance[(player, other)] = inverse[i][j]
    return Fit(ratings, pools, covariance)


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
) -> tuple[list[float], list[list[float]]]:
    """Damped Newton on one connected pool, player 0 held at 0 (the likelihood only sees
    differences). Returns the natural-scale strengths and the inverse observed information
    (zero in row and column 0)."""
    theta = [0.0] * size

    def log_likelihood(values: Sequence[float]) -> float:
        total = 0.0
        for i, j, boards, points in links:
            d = values[i] - values[j]
            # log p and log (1 - p) of the logistic, without overflow.
            total -= points * _log1p_exp(-d) + (boards - points) * _log1p_exp(d)
        return total

    def gradient_and_hessian(values: Sequence[float]) -> tuple[list[float], list[list[float]]]:
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for i, j, boards, points in links:
            p = _logistic(values[i] - values[j])
            residual = points - boards * p
            weight = boards * p * (1.0 - p)
            gradient[i] += residual
            gradient[j] -= residual
            hessian[i][i] += weight
            hessian[j][j] += weight
            hessian[i][j] -= weight
            hessian[j][i] -= weight
        return gradient, hessian

    current = log_likelihood(theta)
    for _ in range(max_iterations):
        gradient, hessian = gradient_and_hessian(theta)
        step = _cholesky_solve([row[1:] for row in hessian[1:]], gradient[1:])
        scale = 1.0
        while True:
            trial = [
                0.0,
                *(value + scale * delta for value, delta in zip(theta[1:], step, strict=True)),
            ]
            value = log_likelihood(trial)
            if value >= current or scale < 1e-6:
                break
            scale /= 2.0
        theta, current = trial, value
        if max((abs(scale * delta) for delta in step), default=0.0) < tolerance:
            break
    else:
        raise RatingError(
            "the ratings did not converge: some player won or lost every board, "
            "which has no finite maximum likelihood without a prior"
        )
    _, hessian = gradient_and_hessian(theta)
    reduced = _cholesky_inverse([row[1:] for row in hessian[1:]])
    inverse = [[0.0] * size, *([0.0, *row] for row in reduced)]
    return theta, inverse


def _logistic(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def _log1p_exp(x: float) -> float:
    """log(1 + e^x), exact for large |x|."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _cholesky(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The lower factor L of L L^T; rows are dotted with ``sum(map(mul, ...))``, which runs
    the inner loop in C and keeps the order of the additions fixed."""
    size = len(matrix)
    lower: list[list[float]] = []
    for i in range(size):
        row: list[float] = []
        for j in range(i + 1):
            other = row if j == i else lower[j]
            total = matrix[i][j] - sum(map(mul, row[:j], other[:j]))
            if i == j:
                if total <= 0.0:
                    raise RatingError("the board tallies have no finite maximum likelihood")
                row.append(math.sqrt(total))
            else:
                row.append(total / other[j])
        lower.append(row)
    return lower


def _cholesky_solve(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    lower = _cholesky(matrix)
    return _back_substitute(_transpose(lower), _forward_substitute(lower, vector))


def _transpose(lower: Sequence[Sequence[float]]) -> list[list[float]]:
    """L^T's rows, each from its diagonal onwards."""
    size = len(lower)
    return [[lower[k][i] for k in range(i, size)] for i in range(size)]


def _forward_substitute(lower: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    result: list[float] = []
    for i, row in enumerate(lower):
        result.append((vector[i] - sum(map(mul, row[:i], result))) / row[i])
    return result


def _back_substitute(upper: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    size = len(upper)
    result = [0.0] * size
    for i in reversed(range(size)):
        row = upper[i]
        result[i] = (vector[i] - sum(map(mul, row[1:], result[i + 1 :]))) / row[0]
    return result


def _cholesky_inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    lower = _cholesky(matrix)
    upper = _transpose(lower)
    size = len(matrix)
    columns = []
    for j in range(size):
        unit = [1.0 if i == j else 0.0 for i in range(size)]
        columns.append(_back_substitute(upper, _forward_substitute(lower, unit)))
    return [[columns[j][i] for j in range(size)] for i in range(size)]


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
