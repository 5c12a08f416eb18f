"""What a Pinnacolo hand can still score, for a forfeit (``engine.forfeit``): leaving
never pays (RULES.md 8, 9).

A side at worst loses a replaced wild's value on each of its melds, the value of every
card off the table (any of them may still end in its hands: the stock is drawn, other
hands discard to the pile and the pile is taken) and the penalty of each seat with
nothing laid down; at best it melds, doubled, every card that could still reach its melds
(its melds, every card off the table and the wilds on other melds) and closes in one go.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.forfeit import ScoreBounds
from engine.pinnacolo.cards import PACK, VALUES, is_wild, parse_card
from engine.pinnacolo.rules import NoMeldPenalty, PinnacoloRules
from engine.pinnacolo.state import PinnacoloHand

__all__ = ["hand_bounds", "worst_case_bounds"]


def worst_case_bounds(rules: PinnacoloRules, sides: int) -> ScoreBounds:
    """Bounds that hold for any deal and any position of a hand under ``rules``."""
    total = sum(VALUES[face] for face in PACK)
    seats = rules.players // sides
    if rules.no_meld_penalty is NoMeldPenalty.FLAT:
        low = -total - seats * rules.no_meld_points
    else:
        low = -2 * total
    bonus = max(rules.closing_bonus, rules.one_go_bonus)
    return ScoreBounds((low,) * sides, (2 * total + bonus,) * sides)


def _value(cards: Iterable[str]) -> int:
    return sum(VALUES[parse_card(card)] for card in cards)


def hand_bounds(state: PinnacoloHand) -> ScoreBounds:
    """Melded value minus the hand, the bonuses and penalties (RULES.md 8), for each side
    of ``state.teams``."""
    rules = state.rules
    melds = state.melds
    hands = [_value(state.hand(seat)) for seat in range(state.num_players)]
    pile = _value(state.pile)
    on_table = sum(VALUES[face] for meld in melds for face, _ in meld.cards)
    # The stock is hidden from the seats but not from the referee: what the pack holds
    # beyond the hands, the pile and the table.
    stock = sum(VALUES[face] for face in PACK) - sum(hands) - pile - on_table
    bonus = max(rules.closing_bonus, rules.one_go_bonus)
    low, high = [], []
    for seats in state.teams:
        # Any card off the table may still end in this side's hands or melds: the stock
        # is drawn, and the other hands' cards may be discarded to the pile and taken.
        could_hold = sum(hands) + stock + pile
        kept = 0
        for meld in melds:
            if meld.owner in seats:
                # A meld only grows, except that a wild on it may be replaced by the
                # (cheaper) natural card it stands for.
                wilds = sum(VALUES[face] for face, _ in meld.cards if is_wild(face))
                kept += meld.points() - wilds
        idle = sum(1 for seat in seats if not state.laid_down(seat))
        if rules.no_meld_penalty is NoMeldPenalty.FLAT:
            low.append(kept - could_hold - idle * rules.no_meld_points)
        else:
            low.append(kept - 2 * could_hold)
        own = sum(VALUES[face] for meld in melds if meld.owner in seats for face, _ in meld.cards)
        others_wilds = sum(
            VALUES[face]
            for meld in melds
            if meld.owner not in seats
            for face, _ in meld.cards
            if is_wild(face)
        )
        # Every card that could end in the side's melds, each counted at most twice (a
        # poker, a sesta), and one closing bonus.
        high.append(2 * (own + could_hold + others_wilds) + bonus)
    return ScoreBounds(tuple(low), tuple(high))
