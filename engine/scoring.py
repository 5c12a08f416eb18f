"""How a hand is scored once its points are known (RULES.md section 5).

The one place that decides made or set and what each side scores, used by every
pinochle state and by the score entry of duplicate tournaments, which works from the
totals written on a table's score card:

>>> contract_outcome(declared=310, bid=300)
<HandOutcome.MADE: 'made'>
>>> side_scores(HandOutcome.SET, totals=(240, 110), declaring=0, bid=300)
(-300, 110)
>>> side_scores(HandOutcome.MADE, totals=(120, 135), declaring=None, bid=0)
(120, 135)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.results import MADE, NO_MARRIAGE, PASSED_OUT, SET, HandOutcome

__all__ = ["contract_outcome", "side_score", "side_scores"]


def contract_outcome(*, declared: int, bid: int) -> HandOutcome:
    """A played hand is made when the declaring side's points reach the bid."""
    return MADE if declared >= bid else SET


def side_score(outcome: HandOutcome, *, total: int, declaring: bool, bid: int) -> int:
    """One side's score: ``total`` is what it counts (meld that counts plus counters; a
    thrown-in hand has meld only). The declaring side scores its total when made and
    loses the bid otherwise; a passed-out hand scores nothing, and with no marriage
    the other sides score nothing either.
    """
    if outcome is PASSED_OUT:
        return 0
    if declaring:
        return total if outcome is MADE else -bid
    if outcome is NO_MARRIAGE:
        return 0
    return total


def side_scores(
    outcome: HandOutcome, *, totals: Sequence[int], declaring: int | None, bid: int
) -> tuple[int, ...]:
    """Every side's score, by side; ``declaring`` is ``None`` in a game without a contract."""
    return tuple(
        side_score(outcome, total=total, declaring=side == declaring, bid=bid)
        for side, total in enumerate(totals)
    )
