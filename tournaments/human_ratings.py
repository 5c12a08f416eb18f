"""Human ratings: openskill's Plackett-Luce team model, shown on the Elo scale.

Human pairs play a handful of events, always with a partner, and their results arrive one
event at a time: an online Bayesian team model fits that better than a maximum-likelihood
fit over every board (which the bots get, ``arena.elo``). Each player has a skill
``mu`` with an uncertainty ``sigma``; a side's skill is its players' together, and both
partners move with their side's result, each by their own uncertainty. openskill is used
rather than TrueSkill because it is a small, maintained, permissively licensed library with
the same model family and no patent encumbrance.

Each round at a table is one meeting, ranked by the first side's share of the matchpoints
(above 1/2 it won, at 1/2 it tied). The meetings of an event are applied in round order.

Shown on the Elo scale: with ``beta`` openskill's performance noise, a skill difference d
makes the Plackett-Luce win probability of two players of no uncertainty
``1 / (1 + exp(-d / (sqrt(2) beta)))``, which is Elo's curve with
``ELO_PER_MU = (400 / ln 10) / (sqrt(2) beta)`` points per unit of mu. A new player is 1500
with a 95% interval of 1.96 sigma either side, about +-480.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
INITIAL_MU = float(MODEL.mu)
INITIAL_SIGMA = float(MODEL.sigma)
ELO_PER_MU = 400.0 / math.log(10.0) / (math.sqrt(2.0) * float(MODEL.beta))
ELO_ORIGIN = 1500.0
Z95 = 1.959963984540054

Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RatedMeeting(Generic[Player]):
    """One round at one table: the players of each side and the first side's share.

    ``share`` is the first side's matchpoints over the top on the boards of that round; at
    one table the two sides' matchpoints add up to the top, so it is a head-to-head score.
    """

    sides: tuple[tuple[Player, ...], tuple[Player, ...]]
    share: float


@dataclass(frozen=True)
class Skill:
    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA

    @property
    def rating(self) -> float:
        """The skill on the Elo scale (a new player is 1500)."""
        return ELO_ORIGIN + ELO_PER_MU * (self.mu - INITIAL_MU)

    @property
    def low(self) -> float:
        return self.rating - Z95 * ELO_PER_MU * self.sigma

    @property
    def high(self) -> float:
        return self.rating + Z95 * ELO_PER_MU * self.sigma


def event_skills(
    meetings: Sequence[RatedMeeting[Player]], skills: Mapping[Player, Skill]
) -> dict[Player, Skill]:
    """Every player's skill after the event's meetings, from their skills before it."""
    current = {player: MODEL.create_rating([s.mu, s.sigma]) for player, s in skills.items()}
    for meeting in meetings:
        teams = [[current[player] for player in side] for side in meeting.sides]
        if meeting.share > 0.5:
            ranks: list[float] = [0, 1]
        elif meeting.share < 0.5:
            ranks = [1, 0]
        else:
            ranks = [0, 0]
        rated = MODEL.rate(teams, ranks=ranks)
        for side, team in zip(meeting.sides, rated, strict=True):
            for player, rating in zip(side, team, strict=True):
                current[player] = rating
    played = {player for meeting in meetings for side in meeting.sides for player in side}
    return {
        player: Skill(float(current[player].mu), float(current[player].sigma)) for player in played
    }
