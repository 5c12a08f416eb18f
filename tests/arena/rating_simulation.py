"""Simulated leagues of known strength, to measure how honest the rating intervals are.

Each league plays every pair of bots over the same number of boards. A board is won, drawn
or lost with chances whose expected score is the Elo curve of the two true ratings
(``arena.elo.expected_score``); the draw chance is ``draw_scale * sqrt(4 E (1 - E))`` (most
between equals, fewer in a lopsided pair), at most what the expected score allows. That is
not the shape the fit assumes of draws (it assumes none), so the check is not circular.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.elo import Tally, expected_score, fit_ratings


@dataclass(frozen=True)
class Scenario:
    name: str
    ratings: tuple[float, ...]
    """Each bot's true rating, in Elo."""
    boards: int
    """Boards per pair."""
    draw_scale: float
    """The drawn share of a board between equals."""


SPREAD = (-250.0, -150.0, -50.0, 50.0, 150.0, 250.0)
SCENARIOS = (
    Scenario("no draws", SPREAD, 50, 0.0),
    Scenario("17% drawn", SPREAD, 50, 0.215),
    Scenario("40% drawn", SPREAD, 50, 0.555),
    Scenario("one bot 900 behind", (-100.0, -50.0, 0.0, 50.0, 100.0, -900.0), 50, 0.0),
)
"""The scenarios of the re-measure: six bots, 50 boards a pair."""


def league(scenario: Scenario, rng: np.random.Generator) -> dict[tuple[int, int], Tally]:
    """Every pair's boards, seen from the first bot."""
    tallies = {}
    for a, b in itertools.combinations(range(len(scenario.ratings)), 2):
        score = expected_score(scenario.ratings[a] - scenario.ratings[b])
        drawn = min(
            scenario.draw_scale * math.sqrt(4 * score * (1 - score)), 2 * min(score, 1 - score)
        )
        chances = [score - drawn / 2, drawn, 1 - score - drawn / 2]
        wins, draws, losses = (int(n) for n in rng.multinomial(scenario.boards, chances))
        tallies[(a, b)] = Tally(wins, draws, losses)
    return tallies


@dataclass
class Coverage:
    """How often each bot's 95% interval held its true (centred) rating, and its errors."""

    scenario: Scenario
    leagues: int = 0
    covered: list[int] = field(default_factory=list)
    errors: list[list[float]] = field(default_factory=list)
    """Each bot's fitted rating less its true one, league by league."""
    ses: list[list[float]] = field(default_factory=list)
    arms: list[list[tuple[float, float]]] = field(default_factory=list)
    """Each bot's interval below and above its fitted rating, league by league."""
    drawn: int = 0
    boards: int = 0

    @property
    def overall(self) -> float:
        return sum(self.covered) / (self.leagues * len(self.covered))

    def per_bot(self) -> list[float]:
        return [count / self.leagues for count in self.covered]

    def bias(self, bot: int) -> float:
        return statistics.fmean(self.errors[bot])

    def mean_se(self, bot: int) -> float:
        return statistics.fmean(self.ses[bot])

    def mean_arms(self, bot: int) -> tuple[float, float]:
        below, above = zip(*self.arms[bot], strict=True)
        return statistics.fmean(below), statistics.fmean(above)

    def spread(self, bot: int) -> float:
        """The standard deviation of the fitted rating over the leagues (the real error)."""
        return statistics.stdev(self.errors[bot])


def coverage(scenario: Scenario, leagues: int, seed: int) -> Coverage:
    """Fit ``leagues`` simulated leagues and count how often each interval holds the truth."""
    rng = np.random.default_rng(seed)
    bots = len(scenario.ratings)
    centre = statistics.fmean(scenario.ratings)
    truth = [rating - centre for rating in scenario.ratings]
    found = Coverage(scenario, covered=[0] * bots)
    found.errors = [[] for _ in range(bots)]
    found.ses = [[] for _ in range(bots)]
    found.arms = [[] for _ in range(bots)]
    for _ in range(leagues):
        tallies = league(scenario, rng)
        found.drawn += sum(tally.draws for tally in tallies.values())
        found.boards += sum(tally.boards for tally in tallies.values())
        fit = fit_ratings(tallies)
        for bot in range(bots):
            estimate = fit.ratings[bot]
            found.covered[bot] += estimate.low <= truth[bot] <= estimate.high
            found.errors[bot].append(estimate.rating - truth[bot])
            found.ses[bot].append(estimate.se)
            found.arms[bot].append(
                (estimate.rating - estimate.low, estimate.high - estimate.rating)
            )
        found.leagues += 1
    return found


def report(found: Coverage, names: Sequence[str] | None = None) -> str:
    """Coverage per bot, bias, the reported against the real error and the interval's arms
    below and above the rating (1.96 errors each where it is symmetric), one line each."""
    bots = len(found.covered)
    lines = [
        f"{found.scenario.name}: {found.leagues} leagues, {found.drawn / found.boards:.1%}"
        f" boards drawn, coverage {found.overall:.1%}"
    ]
    for bot in range(bots):
        label = names[bot] if names else f"bot {bot} ({found.scenario.ratings[bot]:+.0f})"
        lines.append(
            f"  {label:>16}: coverage {found.per_bot()[bot]:6.1%}"
            f"  bias {found.bias(bot):+7.1f}  reported se {found.mean_se(bot):6.1f}"
            f"  real se {found.spread(bot):6.1f}"
            f"  bias/se {found.bias(bot) / found.spread(bot):+.2f}"
            f"  interval -{found.mean_arms(bot)[0]:.0f}/+{found.mean_arms(bot)[1]:.0f}"
        )
    return "\n".join(lines)
