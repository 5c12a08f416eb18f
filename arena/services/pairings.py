"""A pairing: the two bots of a match, whichever sits as X.

The controls and the designs are measured per variant and rules, and also per pairing
where one pair of bots has played enough boards for a measure of its own: what pays
between two bots of like strength (the skill the deal lets show) need not pay between a
strong bot and a random one (the random bot's luck), and a pooled measure would give both
the choice of whichever plays more. Bots, not versions: a pair of bots meets again as
their authors upload, and a new version rarely changes what the cards decide.
"""

from __future__ import annotations

from django.db.models import Q

from arena.models import Match

Pairing = tuple[int, int]
"""The two bots' ids, the smaller first."""


def pairing_of(match: Match) -> Pairing:
    """The pairing that plays ``match``."""
    first, second = match.version_x.bot_id, match.version_y.bot_id
    return (first, second) if first <= second else (second, first)


def pairing_q(pairing: Pairing) -> Q:
    """The matches of ``pairing``, either bot as X."""
    first, second = pairing
    return Q(version_x__bot_id=first, version_y__bot_id=second) | Q(
        version_x__bot_id=second, version_y__bot_id=first
    )
