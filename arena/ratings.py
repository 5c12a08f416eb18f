"""Rating mathematics, free of the database (TOURNAMENTS.md, "Ratings").

Elo
    Expected score ``E_A = 1 / (1 + 10 ** ((R_B - R_A) / 400))``; after a match
    ``R_A' = R_A + K (S_A - E_A)``, where S is the share of board points won
    (bots.duplicate). New versions start at ``INITIAL_ELO``. K is ``K_PROVISIONAL`` while a
    version has played fewer than ``PROVISIONAL_MATCHES`` rated matches in the variant,
    then ``K_ESTABLISHED``.

Bradley-Terry
    Maximum likelihood over all match scores (each match one game won S to 1 - S),
    fitted by Hunter's MM algorithm; 95% intervals from a bootstrap over matches.

SPRT
    The generalised SPRT of chess-engine testing on paired duplicate boards (each board
    one win, draw or loss), with the logistic approximation of the log-likelihood ratio.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

INITIAL_ELO = 1500.0
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0
PROVISIONAL_MATCHES = 10

Player = TypeVar("Player", bound=Hashable)


def elo_expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def k_factor(rated_matches: int) -> float:
    return K_PROVISIONAL if rated_matches < PROVISIONAL_MATCHES else K_ESTABLISHED


def elo_update(rating: float, opponent: float, score: float, k: float) -> float:
    return rating + k * (score - elo_expected(rating, opponent))


@dataclass(frozen=True)
class Result(Generic[Player]):
    """One match: ``first`` scored ``score`` (0..1) against ``second``."""

    first: Player
    second: Player
    score: float


def bradley_terry(
    results: Sequence[Result[Player]],
    *,
    prior_draws: float = 0.0,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
) -> dict[Player, float]:
    """Ratings on the Elo scale, centred on 0, that maximise the likelihood of ``results``.

    ``prior_draws`` adds that many drawn games between every player and a virtual
    opponent rated 0, which keeps the ratings finite for a player who won or lost
    everything (0 for the exact maximum likelihood).

    >>> results = [Result("A", "B", 0.75), Result("B", "C", 0.75), Result("A", "C", 0.9)]
    >>> {p: round(r, 2) for p, r in bradley_terry(results).items()}
    {'A': 190.85, 'B': 0.0, 'C': -190.85}
    """
    players = sorted({r.first for r in results} | {r.second for r in results}, key=repr)
    wins: dict[Player, float] = defaultdict(float)
    games: dict[tuple[Player, Player], float] = defaultdict(float)
    for r in results:
        wins[r.first] += r.score
        wins[r.second] += 1.0 - r.score
        games[(r.first, r.second)] += 1.0
        games[(r.second, r.first)] += 1.0
    opponents: dict[Player, list[tuple[Player, float]]] = defaultdict(list)
    for (a, b), count in games.items():
        opponents[a].append((b, count))
    strength = dict.fromkeys(players, 1.0)
    for _ in range(max_iterations):
        updated: dict[Player, float] = {}
        for player in players:
            denominator = sum(
                count / (strength[player] + strength[other]) for other, count in opponents[player]
            )
            numerator = wins[player] + prior_draws / 2
            denominator += prior_draws / (strength[player] + 1.0)
            updated[player] = max(numerator, 1e-300) / denominator
        # Centre on a geometric mean of 1 so the scale has a fixed origin.
        log_mean = sum(math.log(value) for value in updated.values()) / len(updated)
        updated = {p: value / math.exp(log_mean) for p, value in updated.items()}
        change = max(abs(math.log(updated[p] / strength[p])) for p in players)
        strength = updated
        if change < tolerance:
            break
    return {p: 400.0 * math.log10(value) for p, value in strength.items()}


@dataclass(frozen=True)
class Interval:
    rating: float
    low: float
    high: float


def bradley_terry_intervals(
    results: Sequence[Result[Player]],
    *,
    samples: int = 200,
    seed: int = 0,
    prior_draws: float = 1.0,
) -> dict[Player, Interval]:
    """Bradley-Terry ratings with percentile-bootstrap 95% intervals (matches resampled)."""
    point = bradley_terry(results, prior_draws=prior_draws)
    rng = random.Random(seed)
    draws: dict[Player, list[float]] = defaultdict(list)
    for _ in range(samples):
        resample = [results[rng.randrange(len(results))] for _ in results]
        fitted = bradley_terry(resample, prior_draws=prior_draws, tolerance=1e-7)
        for player in point:
            # A player absent from a resample has no information there: skip it.
            if player in fitted:
                draws[player].append(fitted[player])
    intervals = {}
    for player, rating in point.items():
        values = sorted(draws[player]) or [rating]
        low = values[int(0.025 * (len(values) - 1))]
        high = values[math.ceil(0.975 * (len(values) - 1))]
        # Resampled fits converge to a looser tolerance; keep the point inside its interval.
        intervals[player] = Interval(rating, min(low, rating), max(high, rating))
    return intervals


@dataclass(frozen=True)
class SprtOutcome:
    llr: float
    lower_bound: float
    upper_bound: float
    verdict: str  # "H1" (elo1 accepted), "H0" (elo0 accepted) or "continue"
    wins: int
    draws: int
    losses: int


def sprt(
    wins: int, draws: int, losses: int, *, elo0: float, elo1: float, alpha: float, beta: float
) -> SprtOutcome:
    """The SPRT between H0 (elo = elo0) and H1 (elo = elo1) on paired board outcomes.

    The log-likelihood ratio uses the logistic (normal) approximation of chess-engine
    testing: ``N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``s`` the mean score per
    board, ``var`` its variance, and ``s0``, ``s1`` the expected scores at elo0, elo1.
    """
    if not 0 < alpha < 1 or not 0 < beta < 1:
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    if elo1 <= elo0:
        raise ValueError("elo1 must be greater than elo0")
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    total = wins + draws + losses
    llr = 0.0
    if total:
        score = (wins + 0.5 * draws) / total
        variance = (
            wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2
        ) / total
        if variance > 0:
            s0, s1 = elo_expected(elo0, 0.0), elo_expected(elo1, 0.0)
            llr = total * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtOutcome(llr, lower, upper, verdict, wins, draws, losses)
