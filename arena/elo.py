"""Rating mathematics, free of the database (TOURNAMENTS.md, "Ratings").

Units
    Everything here is in the Elo units chess players know, per duplicate board: a rating
    difference D means an expected score of ``1 / (1 + 10 ** (-D / 400))`` on each board,
    so +100 is 64%. Each board is one paired observation (its tables are played with the
    same cards, TOURNAMENTS.md "Duplicate for bots"): a win, a draw or a loss by the sign
    of the board result. The point scale of a variant and the length of a match no longer
    enter a rating: a board is a board.

The fit (``fit_ratings``)
    The ratings solve the maximum-likelihood equations over every rated board of a variant,
    as Ordo does for chess engines: a win counts 1, a draw 1/2, and the expected score
    against an opponent is the logistic curve above, so each player's points equal its
    expected points. Draws are not modelled as a third outcome with a law of their own
    (Davidson's or a trinomial model): those change what a rating difference means (under
    Davidson's the expected score is no longer the Elo curve) and bias the ratings when
    the real draw rate does not follow their shape. The estimating equations above hold
    whatever the draw rate, so the ratings stay in the units every reader knows.

    Draws enter the intervals instead. A board's score with expected score E has variance
    E (1 - E) - P(draw) / 4 for any chances of win, draw and loss: a drawn board is less
    noisy than the win-or-lose coin of the logistic likelihood, whose information would
    overstate the error by 10% at 17% drawn boards and 25% at 40%. Each pool's dispersion
    (the boards' variance over the coin's, from each pair's own drawn share) scales its
    information: the quasi-likelihood of Wedderburn (1974), in which draws count exactly
    what they remove. Without draws it is 1 and the interval is the observed information.

    The prior: the plain maximum likelihood is infinite when a player won or lost every
    board (greedy against random in a four-hand game goes 1500/0/0), and biased away from
    the mean for a player far from the rest, whose few wins it over-reads. BayesElo's one
    virtual draw per pair that met (the prior used before) cured the first by worsening the
    second the other way: worth a great deal to a version that scores nearly nothing, it
    lifted a version 900 Elo behind five others by 153 Elo at 50 boards a pair, more than
    its error (its interval held the truth 53% of the time). Firth's adjustment (the
    Jeffreys prior; Kosmidis and Firth, Biometrika 2021, prove it finite for every binomial
    model) adds to each pair h / 2 virtual wins and h / 2 virtual losses, h the pair's
    leverage: one virtual drawn board per version in all instead of one per pair, placed
    where a rating is least determined, and exactly the size that cancels the first-order
    bias. In a two-version pool the only pair has leverage 1, so a sweep gets BayesElo's
    single virtual draw (1500-0 is 1391 Elo apart). A normal prior (``prior_sd``) is
    available but off: it would pull every far-behind rating towards the mean. Ratings are
    centred on 0 in each connected pool; each carries a standard error from the
    information, draws allowed for, so a version with few boards has a wide interval.

The intervals
    A rating's 95% interval is where its likelihood falls 1.96^2 / 2 below its top (Wilks),
    the penalized likelihood of the fit (Firth's, as logistf's intervals use it: Heinze and
    Schemper, Statistics in Medicine 2002) in the quasi-likelihood's units (divided by the
    dispersion, as the information is). Where the likelihood is a parabola this is the
    rating +-1.96 standard errors; where it is not, the interval leans the way the
    likelihood does. A version 900 Elo behind five others wins a board or two of its 250:
    its likelihood is nearly flat below and steep above, and the symmetric interval missed
    its true rating whenever it won four (covering 92.7% of 1000 simulated leagues), where
    this one, longer below than above, covers 95.5%. The other ratings move with the one
    bounded along the straight line of their covariance with it at the estimate, rather
    than being fitted again at each point as a full profile would: one likelihood a step
    instead of a fit, so that a pool of a hundred versions with few boards each is bounded
    in a tenth of a second, and on the simulated leagues it covers as the full profile did
    (95.5% for the bot 900 behind both ways). For two versions the two are the same, the
    likelihood-ratio interval of a binomial score. Only a version with fewer than
    ``PROFILE_BELOW`` points or lost points over its boards is bounded so; the others keep
    the symmetric interval, whose arms then differ from the likelihood's by a few
    hundredths of an error. Measured on simulated leagues
    (``tests/bench/bench_rating_coverage.py``).

The model check (``Fit.check``)
    One number per version describes a pool only if the results are transitive enough: a
    cycle (A beats B beats C beats A) has no ratings that fit it. The check compares the
    ratings with the saturated model, in which each pair has its own expected score: the
    deviance (twice the log-likelihood ratio, divided by the dispersion so that draws are
    not taken for misfit) follows a chi-square with as many degrees of freedom as there are
    pairs beyond the versions' free ratings. A p-value under ``POOR_FIT_P`` says the ratings
    do not describe the boards, and each pair whose points differ from its prediction by
    more than ``DISAGREEMENT_Z`` standard errors (of the residual, with the fit's leverage
    and the pair's draws) is named. A pair that alone links two groups of versions (a
    bridge) fixes their difference and is matched exactly: it tells nothing and is left out.

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
POOR_FIT_P = 0.01
"""Below this p-value the model check says the ratings do not describe the boards."""
DISAGREEMENT_Z = 2.0
"""A pair whose points differ from its prediction by more standard errors is named."""
MIN_DISPERSION = 0.01
"""The least share of a win-or-lose board's variance a pool's boards are taken to have."""
PROFILE_BELOW = 100.0
"""A player with fewer points, or fewer lost points, over all its boards has the interval
of its likelihood; the others the symmetric one, which that then nearly is."""
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
    low: float
    high: float


@dataclass(frozen=True)
class Disagreement(Generic[Player]):
    """A pair whose boards disagree with what the ratings predict for it."""

    first: Player
    second: Player
    boards: int
    score: float
    """The first player's points per board against the second (a draw counts one half)."""
    expected: float
    """What the two ratings predict for it."""
    residual: float
    """The points scored less the points predicted, in standard errors of that difference
    (leverage and draws included): beyond +-2 is unusual if the ratings describe the boards."""


@dataclass(frozen=True)
class ModelCheck(Generic[Player]):
    """How well one rating per player describes the boards of every pair (goodness of fit).

    ``deviance`` is the likelihood-ratio statistic of the fitted ratings against the
    saturated model (each pair its own expected score), divided by the pool's dispersion so
    that draws do not count as misfit; under the rating model it follows a chi-square of
    ``degrees_of_freedom`` (pairs less the players' free ratings, summed over the pools).
    """

    deviance: float
    degrees_of_freedom: int
    p_value: float
    disagreements: tuple[Disagreement[Player], ...]
    """The pairs beyond ``DISAGREEMENT_Z`` standard errors, the worst first."""

    @property
    def poor(self) -> bool:
        """The ratings do not describe the boards: a misfit this large has less than a
        ``POOR_FIT_P`` chance of arising by luck alone."""
        return self.degrees_of_freedom > 0 and self.p_value < POOR_FIT_P


@dataclass(frozen=True)
class Fit(Generic[Player]):
    """The ratings of every player, and what is needed to compare any two of them."""

    ratings: dict[Player, Estimate]
    pools: dict[Player, int]
    """The connected pool of each player: ratings only compare within one pool."""
    _index: dict[Player, int]
    """Each player's row in its pool's covariance."""
    _covariances: list[npt.NDArray[np.float64]]
    """Each pool's covariance of the centred ratings (natural units)."""
    _dispersions: list[float]
    """Each pool's variance of a board's score over a win-or-lose board's (draws lower it)."""
    check: ModelCheck[Player]
    """Whether the ratings describe the boards at all."""

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
        # (natural units), more by the pool's dispersion when boards are drawn, and
        # significance needs (Z95 / gap) ** 2 of it in all.
        natural_gap = gap / ELO_PER_NATURAL
        needed = (Z95 / natural_gap) ** 2 - (ELO_PER_NATURAL / se) ** 2
        p = expected_score(gap)
        per_board = p * (1.0 - p) / self._dispersions[self.pools[a]]
        return min(math.ceil(needed / per_board), SEPARATION_CAP)


@dataclass(frozen=True)
class _Pair:
    """A pair's boards, seen from the first player (sorted by repr)."""

    boards: float
    points: float
    draws: float


def fit_ratings(
    tallies: Mapping[tuple[Player, Player], Tally],
    *,
    prior_sd: float | None = None,
    bias_reduction: bool = True,
    tolerance: float = 1e-10,
    max_iterations: int = 200,
) -> Fit[Player]:
    """Ratings over board tallies, with standard errors and a check of the model.

    ``tallies[(a, b)]`` are a's boards against b; (b, a) may be given too and adds up.
    Players are ordered by ``repr``, so the result does not depend on the mapping's order.
    ``bias_reduction`` applies Firth's adjustment (module doc), which keeps every fit finite;
    without it the plain maximum likelihood has no finite answer when a player won or lost
    every board, unless ``prior_sd`` (a normal prior's standard deviation, in Elo) is given.

    >>> tallies = {("A", "B"): Tally(15, 0, 5), ("B", "C"): Tally(15, 0, 5),
    ...            ("A", "C"): Tally(18, 0, 2)}
    >>> plain = fit_ratings(tallies, bias_reduction=False)
    >>> {p: round(e.rating, 2) for p, e in plain.ratings.items()}
    {'A': 190.85, 'B': 0.0, 'C': -190.85}
    """
    if prior_sd is not None and not prior_sd > 0:
        raise RatingError("the prior's standard deviation must be positive")
    # The prior's precision on the natural scale (the log-likelihood's own units).
    precision = 0.0 if prior_sd is None else (ELO_PER_NATURAL / prior_sd) ** 2
    pairs: dict[tuple[Player, Player], _Pair] = {}
    for (a, b), tally in sorted(tallies.items(), key=lambda item: repr(item[0])):
        if a == b:
            raise RatingError(f"{a!r} cannot be rated against itself")
        if tally.boards == 0:
            continue
        # Points in halves are exact in floating point, so sums never depend on grouping.
        key, seen = ((a, b), tally) if repr(a) <= repr(b) else ((b, a), tally.flipped())
        known = pairs.get(key, _Pair(0.0, 0.0, 0.0))
        pairs[key] = _Pair(
            known.boards + seen.boards,
            known.points + seen.wins + 0.5 * seen.draws,
            known.draws + seen.draws,
        )
    ratings: dict[Player, Estimate] = {}
    pools: dict[Player, int] = {}
    index: dict[Player, int] = {}
    covariances: list[npt.NDArray[np.float64]] = []
    dispersions: list[float] = []
    checks: list[_PoolCheck[Player]] = []
    ordered_pairs = sorted(pairs.items(), key=lambda item: repr(item[0]))
    for number, members in enumerate(_pools(pairs)):
        position = {player: i for i, player in enumerate(members)}
        links = [(pair, seen) for pair, seen in ordered_pairs if pair[0] in position]
        with _BLAS.limit(limits=1, user_api="blas"):
            pool = _fit_pool(
                members,
                [(position[a], position[b], seen) for (a, b), seen in links],
                precision,
                bias_reduction,
                tolerance,
                max_iterations,
            )
            checks.append(_check_pool(members, links, pool))
        centred = ELO_PER_NATURAL * (pool.theta - pool.theta.mean())
        errors = ELO_PER_NATURAL * np.sqrt(np.maximum(np.diagonal(pool.covariance), 0.0))
        for player, i in position.items():
            pools[player] = number
            index[player] = i
            ratings[player] = Estimate(
                rating=float(centred[i]),
                se=float(errors[i]),
                low=float(ELO_PER_NATURAL * pool.bounds[i, 0]),
                high=float(ELO_PER_NATURAL * pool.bounds[i, 1]),
            )
        covariances.append(pool.covariance)
        dispersions.append(pool.dispersion)
    return Fit(ratings, pools, index, covariances, dispersions, _combine(checks))


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


@dataclass(frozen=True)
class _PoolFit:
    """One pool's fit on the natural scale, and what its check needs."""

    theta: npt.NDArray[np.float64]
    covariance: npt.NDArray[np.float64]
    """Of the centred ratings: the information scaled by the dispersion, prior added."""
    bounds: npt.NDArray[np.float64]
    """Each player's 95% interval of its centred rating (low, high), from the profile."""
    inverse_information: npt.NDArray[np.float64]
    """The inverse of the (unscaled) information the estimate solved with."""
    expected: npt.NDArray[np.float64]
    """Each link's expected score per board (first player's)."""
    variances: npt.NDArray[np.float64]
    """Each link's variance of one board's score, its draws allowed for."""
    dispersion: float


def _fit_pool(
    members: Sequence[object],
    links: Sequence[tuple[int, int, _Pair]],
    precision: float,
    bias_reduction: bool,
    tolerance: float,
    max_iterations: int,
) -> _PoolFit:
    """One connected pool's ratings: the log-likelihood of the logistic score model, plus the
    normal prior's ``-precision * sum(theta ** 2) / 2`` if any, and Firth's penalty with
    ``bias_reduction``. Without a prior player 0 is held at 0 (the likelihood only sees
    differences).

    Each pair of players appears once in ``links``, so the Hessian's off-diagonal entries
    are set, not summed, and every sum (``bincount``) runs in the fixed order of the links:
    the same tallies give the same bits in every process.
    """
    size = len(members)
    first = np.array([link[0] for link in links], dtype=np.intp)
    second = np.array([link[1] for link in links], dtype=np.intp)
    boards = np.array([link[2].boards for link in links], dtype=np.float64)
    points = np.array([link[2].points for link in links], dtype=np.float64)
    draws = np.array([link[2].draws for link in links], dtype=np.float64)
    free = slice(0, size) if precision > 0 else slice(1, size)

    def information(weight: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        matrix = np.zeros((size, size))
        matrix[first, second] = -weight
        matrix[second, first] = -weight
        diagonal = np.arange(size)
        matrix[diagonal, diagonal] = _sums(first, weight, size) + _sums(second, weight, size)
        return matrix

    def maximise(
        start: npt.NDArray[np.float64], n: npt.NDArray[np.float64], s: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """The penalized maximum likelihood of ``s`` points over ``n`` boards per link."""

        def objective(values: npt.NDArray[np.float64]) -> float:
            d = values[first] - values[second]
            # log p and log (1 - p) of the logistic, without overflow.
            likelihood = -float(np.sum(s * np.logaddexp(0.0, -d) + (n - s) * np.logaddexp(0.0, d)))
            return likelihood - 0.5 * precision * float(np.dot(values, values))

        theta = start.copy()
        current = objective(theta)
        for _ in range(max_iterations):
            p = _logistic(theta[first] - theta[second])
            residual = s - n * p
            gradient = _sums(first, residual, size) - _sums(second, residual, size)
            gradient -= precision * theta
            hessian = information(n * p * (1.0 - p)) + precision * np.eye(size)
            step = _solve(hessian[free, free], gradient[free])
            scale = 1.0
            while True:
                trial = theta.copy()
                trial[free] += scale * step
                value = objective(trial)
                if value >= current or scale < 1e-6:
                    break
                scale /= 2.0
            theta, current = trial, value
            if size == 1 or float(np.max(np.abs(scale * step))) < tolerance:
                return theta
        raise RatingError(
            "the ratings did not converge: some player won or lost every board, "
            "which has no finite maximum likelihood without a prior"
        )

    # Firth's adjusted score (Kosmidis and Firth 2021, for binomial models): the penalized
    # log-likelihood l + (phi / 2) log det I, whose score is that of the boards plus, on
    # each pair, h / 2 virtual wins and h / 2 virtual losses, h the pair's leverage (scaled
    # by the dispersion phi, as the bias it removes is). The leverages sum to the free
    # ratings, so a pool gets one virtual drawn board per version rather than one per pair,
    # where a rating is least determined. Fisher scoring with step halving, phi held at its
    # value at the start of each step.
    # The dispersion is estimated again at each step, so the steps end in rounding noise
    # (seen: 1.6e-8 back and forth, for ever) rather than under a tolerance of 1e-10; 1e-7
    # of a logistic unit is 2e-5 Elo.
    firth_tolerance = max(tolerance, 1e-7)

    eye = np.eye(size)

    def penalized(values: npt.NDArray[np.float64], phi: float) -> float:
        """The log-likelihood, less the normal prior's term, plus Firth's penalty
        ``(phi / 2) log det I`` with ``bias_reduction`` (-inf where I vanishes)."""
        d = values[first] - values[second]
        value = -float(
            np.sum(points * np.logaddexp(0.0, -d) + (boards - points) * np.logaddexp(0.0, d))
        ) - 0.5 * precision * float(np.dot(values, values))
        if not bias_reduction:
            return value
        p = _logistic(d)
        try:
            lower = _cholesky(
                information(boards * p * (1.0 - p))[free, free] + precision * eye[free, free]
            )
        except RatingError:  # a step so long that the information vanished: refused
            return -math.inf
        return value + phi * float(np.sum(np.log(np.diagonal(lower))))

    def firth() -> npt.NDArray[np.float64]:
        theta = np.zeros(size)

        for _ in range(max_iterations):
            p = _logistic(theta[first] - theta[second])
            weight = boards * p * (1.0 - p)
            matrix = information(weight) + precision * eye
            inverse = _inverse(matrix, free)
            phi = _dispersion(boards, draws, p)
            virtual = phi * weight * _difference_variances(inverse, first, second)
            residual = points + virtual / 2.0 - (boards + virtual) * p
            gradient = _sums(first, residual, size) - _sums(second, residual, size)
            gradient -= precision * theta
            step = inverse[free, free] @ gradient[free]
            current = penalized(theta, phi)
            scale = 1.0
            while True:
                trial = theta.copy()
                trial[free] += scale * step
                if penalized(trial, phi) >= current or scale < 1e-6:
                    break
                scale /= 2.0
            theta = trial
            if size == 1 or float(np.max(np.abs(scale * step))) < firth_tolerance:
                return theta
        raise RatingError("the bias-reduced ratings did not converge")

    theta = firth() if bias_reduction else maximise(np.zeros(size), boards, points)
    expected = _logistic(theta[first] - theta[second])
    weight = boards * expected * (1.0 - expected)
    variances = _board_variances(boards, draws, expected)
    dispersion = _dispersion(boards, draws, expected)
    prior = precision * np.eye(size)
    inverse_information = _inverse(information(weight) + prior, free)
    covariance = _inverse(information(weight) / dispersion + prior, free)
    # The centred ratings are a linear map of the fitted ones.
    centring = np.eye(size) - 1.0 / size
    centred_covariance = centring @ covariance @ centring
    base = penalized(theta, dispersion)

    def profile(player: int, side: float) -> float:
        """Where the penalized likelihood falls ``Z95 ** 2 / 2`` below its top (in the
        quasi-likelihood's units) on ``side`` of the centred rating of ``player`` (+1 above
        the estimate, -1 below), on the natural scale: the other ratings moving with it
        along the straight line of their covariance with it at the estimate."""
        contrast = centring[player][free]
        estimate = float(centring[player] @ theta)
        se = math.sqrt(max(float(centred_covariance[player, player]), 0.0))
        if se == 0.0:
            return estimate
        towards = inverse_information[free, free] @ contrast
        straight = towards / float(contrast @ towards)

        def signed_root(target: float) -> float:
            values = theta.copy()
            values[free] += straight * (target - estimate)
            deviance = 2.0 * (base - penalized(values, dispersion)) / dispersion
            return math.copysign(math.sqrt(max(deviance, 0.0)), target - estimate)

        goal = side * Z95
        near, near_root = estimate, 0.0
        far = estimate + side * Z95 * se
        far_root = signed_root(far)
        # The signed root is monotone and nearly straight: the secant finds its crossing in
        # a few steps, kept on the estimate's side.
        for _ in range(50):
            if abs(far_root - goal) < 1e-6 or far_root == near_root:
                break
            if math.isfinite(far_root):
                guess = far + (goal - far_root) * (far - near) / (far_root - near_root)
                near, near_root = far, far_root
            else:  # so far out that the information vanished: back half way
                guess = math.nan
            if not (guess - estimate) * side > 0:
                guess = estimate + (far - estimate) / 2.0
            far, far_root = guess, signed_root(guess)
        # A profile that never falls that far (no prior, no adjustment, a flat side) has
        # no finite bound: the symmetric one stands in.
        return far if math.isfinite(far) else estimate + side * Z95 * se

    # Each player's points and lost points over all its boards: the fewer of the two says
    # how far its likelihood is from the parabola the symmetric interval assumes.
    scored = _sums(first, points, size) + _sums(second, boards - points, size)
    played = _sums(first, boards, size) + _sums(second, boards, size)
    fewer = np.minimum(scored, played - scored)
    bounds = np.zeros((size, 2))
    for player in range(size):
        if size > 1 and fewer[player] < PROFILE_BELOW:
            bounds[player] = profile(player, -1.0), profile(player, 1.0)
        else:
            middle = float(centring[player] @ theta)
            half = Z95 * math.sqrt(max(float(centred_covariance[player, player]), 0.0))
            bounds[player] = middle - half, middle + half
    return _PoolFit(
        theta=theta,
        covariance=centred_covariance,
        bounds=bounds,
        inverse_information=inverse_information,
        expected=expected,
        variances=variances,
        dispersion=dispersion,
    )


def _board_variances(
    boards: npt.NDArray[np.float64],
    draws: npt.NDArray[np.float64],
    expected: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """Each link's variance of one board's score.

    The variance of a board's score s with expected score E is E (1 - E) - P(draw) / 4
    whatever the chances of a win, a draw and a loss: draws make a board less noisy than
    the win-or-lose coin the logistic likelihood assumes. P(draw) is the pair's drawn share
    counted over one board more than it played (ten draws in ten boards do not prove a pair
    always draws), and at most 2 min(E, 1 - E), the most a score of E allows.
    """
    drawn = np.minimum(draws / (boards + 1.0), 2.0 * np.minimum(expected, 1.0 - expected))
    return np.asarray(expected * (1.0 - expected) - drawn / 4.0, dtype=np.float64)


def _dispersion(
    boards: npt.NDArray[np.float64],
    draws: npt.NDArray[np.float64],
    expected: npt.NDArray[np.float64],
) -> float:
    """A pool's variance of a board's score over a win-or-lose board's (1 without draws)."""
    coin = float(np.sum(boards * expected * (1.0 - expected)))
    if coin <= 0:
        return 1.0
    noise = float(np.sum(boards * _board_variances(boards, draws, expected)))
    return max(noise / coin, MIN_DISPERSION)


def _inverse(matrix: npt.NDArray[np.float64], free: slice) -> npt.NDArray[np.float64]:
    """The inverse over the free players (zero in a held player's row and column)."""
    size = matrix.shape[0]
    inverse = np.zeros((size, size))
    count = len(range(size)[free])
    inverse[free, free] = _solve(matrix[free, free], np.eye(count))
    return inverse


def _sums(
    players: npt.NDArray[np.intp], values: npt.NDArray[np.float64], size: int
) -> npt.NDArray[np.float64]:
    """Each player's total of ``values``, added in the order of the links."""
    return np.asarray(np.bincount(players, values, size), dtype=np.float64)


def _logistic(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    # exp of a non-positive number only, so nothing overflows.
    z = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + z), z / (1.0 + z))


def _cholesky(matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The Cholesky factor of a positive definite matrix, or the rule it breaks."""
    try:
        return np.asarray(np.linalg.cholesky(matrix), dtype=np.float64)
    except np.linalg.LinAlgError:
        raise RatingError("the board tallies have no finite maximum likelihood") from None


def _solve(
    matrix: npt.NDArray[np.float64], right: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The solution of a positive definite system, or the rule it breaks."""
    lower = _cholesky(matrix)
    return np.asarray(np.linalg.solve(lower.T, np.linalg.solve(lower, right)), dtype=np.float64)


# The model check ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _PoolCheck(Generic[Player]):
    deviance: float
    degrees_of_freedom: int
    disagreements: list[Disagreement[Player]]


def _check_pool(
    members: Sequence[Player],
    links: Sequence[tuple[tuple[Player, Player], _Pair]],
    pool: _PoolFit,
) -> _PoolCheck[Player]:
    """The deviance and the standardized residuals of one pool's pairs.

    A pair that is a bridge of the pool (its only path between two groups of players) fixes
    a rating difference by itself: in the plain fit its boards are matched exactly, so it
    has nothing to say about the model and is left out (what the adjustment does to it, on a
    clean sweep, is not a misfit of the boards).
    """
    size = len(members)
    position = {player: i for i, player in enumerate(members)}
    first = np.array([position[a] for (a, _), _ in links], dtype=np.intp)
    second = np.array([position[b] for (_, b), _ in links], dtype=np.intp)
    boards = np.array([seen.boards for _, seen in links], dtype=np.float64)
    points = np.array([seen.points for _, seen in links], dtype=np.float64)
    expected = pool.expected
    weight = boards * expected * (1.0 - expected)
    noise = boards * pool.variances
    # The residual is (S - n E) at the fitted ratings, and the fit moved E towards S: its
    # variance is n v - 2 w n v a + w^2 q, with a = x' A^-1 x the pair's leverage per unit
    # weight and q = x' A^-1 J A^-1 x (A the information solved with, J the information the
    # boards actually carry, draws allowed for).
    carried = np.zeros((size, size))
    carried[first, second] = -noise
    carried[second, first] = -noise
    carried[np.arange(size), np.arange(size)] = _sums(first, noise, size) + _sums(
        second, noise, size
    )
    inverse = pool.inverse_information
    sandwich = inverse @ carried @ inverse
    leverage = _difference_variances(inverse, first, second)
    spread = _difference_variances(sandwich, first, second)
    residual_variance = noise - 2.0 * weight * noise * leverage + weight * weight * spread
    bridges = _bridges(size, list(zip(first.tolist(), second.tolist(), strict=True)))
    counted = np.ones(len(links), dtype=bool)
    counted[sorted(bridges)] = False
    lost = boards - points
    # Twice the log-likelihood ratio of each pair's own score against the ratings' (a term
    # with no points, or no lost points, is 0).
    terms = 2.0 * (
        np.where(points > 0, points * np.log(np.maximum(points, 1e-300) / (boards * expected)), 0.0)
        + np.where(
            lost > 0, lost * np.log(np.maximum(lost, 1e-300) / (boards * (1.0 - expected))), 0.0
        )
    )
    deviance = float(np.sum(terms[counted]))
    gap = points - boards * expected
    measurable = counted & (residual_variance > 1e-12 * np.maximum(noise, 1e-300))
    z = np.zeros(len(links))
    z[measurable] = gap[measurable] / np.sqrt(residual_variance[measurable])
    disagreements = [
        Disagreement(
            links[k][0][0],
            links[k][0][1],
            int(boards[k]),
            float(points[k] / boards[k]),
            float(expected[k]),
            float(z[k]),
        )
        for k in np.flatnonzero(np.abs(z) > DISAGREEMENT_Z).tolist()
    ]
    links_count = len(links) - len(bridges)
    freedom = links_count - (size - 1 - len(bridges))
    return _PoolCheck(deviance / pool.dispersion, max(freedom, 0), disagreements)


def _difference_variances(
    matrix: npt.NDArray[np.float64], first: npt.NDArray[np.intp], second: npt.NDArray[np.intp]
) -> npt.NDArray[np.float64]:
    """x' M x for each link's x (+1 at its first player, -1 at its second)."""
    return np.asarray(
        matrix[first, first] + matrix[second, second] - 2.0 * matrix[first, second],
        dtype=np.float64,
    )


def _bridges(size: int, edges: Sequence[tuple[int, int]]) -> set[int]:
    """The links whose removal would split the pool (Tarjan's low-link, without recursion)."""
    neighbours: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for k, (a, b) in enumerate(edges):
        neighbours[a].append((b, k))
        neighbours[b].append((a, k))
    order = [-1] * size
    low = [0] * size
    bridges: set[int] = set()
    counter = 0
    for start in range(size):
        if order[start] != -1:
            continue
        order[start] = low[start] = counter
        counter += 1
        stack: list[tuple[int, int, int]] = [(start, -1, 0)]
        while stack:
            node, via, next_index = stack[-1]
            if next_index < len(neighbours[node]):
                stack[-1] = (node, via, next_index + 1)
                other, edge = neighbours[node][next_index]
                if edge == via:
                    continue
                if order[other] == -1:
                    order[other] = low[other] = counter
                    counter += 1
                    stack.append((other, edge, 0))
                else:
                    low[node] = min(low[node], order[other])
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[node])
                    if low[node] > order[parent]:
                        bridges.add(via)
    return bridges


def _combine(checks: Sequence[_PoolCheck[Player]]) -> ModelCheck[Player]:
    deviance = sum(check.deviance for check in checks)
    freedom = sum(check.degrees_of_freedom for check in checks)
    found = [item for check in checks for item in check.disagreements]
    found.sort(key=lambda item: (-abs(item.residual), repr(item.first), repr(item.second)))
    return ModelCheck(deviance, freedom, chi_square_tail(deviance, freedom), tuple(found))


def chi_square_tail(statistic: float, degrees_of_freedom: int) -> float:
    """P(X >= statistic) for a chi-square X of ``degrees_of_freedom`` (1.0 with none)."""
    if degrees_of_freedom <= 0 or statistic <= 0:
        return 1.0
    return _upper_gamma(degrees_of_freedom / 2.0, statistic / 2.0)


def _upper_gamma(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x) (Numerical Recipes, 6.2)."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        denominator = a
        for _ in range(1000):
            denominator += 1.0
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction.
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


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
