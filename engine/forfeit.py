"""What a hand ended by a fault or a leave scores: leaving never pays (RULES.md 5, 8, 9).

A hand that a seat abandons (a human leaving, a bot crashing, timing out or answering
illegally) is not played out, so it is scored from the position it stopped in. For every
side ``score_bounds`` gives a sound interval of the scores the side can still reach from
that position, whatever anyone plays: ``low`` at most its worst, ``high`` at least its
best. ``forfeit_scores`` then scores the leaving side at its ``low`` and every other side
at its ``high``. In the duplicate difference that matches, events and challenges compare
(a side's score minus the others'), the forfeit is therefore at most the difference of
any way the hand could have been finished: leaving is never better than playing on.

The bounds read only the rules and the position:

- pinochle (RULES.md 2, 3, 5): a side that declared can at worst be set (minus its bid);
  during the auction, a side with a seat still bidding can at worst be set at the highest
  bid the ladder allows; a defending side never scores below zero. At best a side scores
  its meld (as shown, or before the meld the most its cards could meld in any trump, the
  widow and the stock included where it may still reach them) plus the counters it took
  and every counter not yet taken, the last trick included (section 4's table).
- two-hand (7.1): the meld laid and the counters taken are kept; at best a seat adds the
  most the cards it holds and the stock could still meld, the dix exchange and every
  counter not yet taken.
- Pinnacolo (8): a side at worst loses a replaced wild's value on each of its melds, the
  value of every card off the table (any of them may still end in its hands: the stock is
  drawn, other hands discard to the pile and the pile is taken) and the penalty of each
  seat with nothing laid down; at best it melds, doubled, every card that could still
  reach its melds (its melds, every card off the table and the wilds on other melds) and
  closes in one go.

The bounds are exact for a finished hand and tighten as it goes: late in a pinochle hand
they are the shown meld and the few counters left, so a fault costs little more than the
hand would have. ``worst_case_bounds`` gives the same without a position (every card
unseen, nothing yet decided): the bound for a hand whose position is not at hand.

>>> from engine.registry import load_game
>>> state = load_game("auction4").new_initial_state(seed=3, dealer=0)
>>> for action in ("bid 250", "pass", "pass", "pass"):
...     state.apply(action)
>>> state.declarer, forfeit_scores(state, 1)[1]  # seat 1's side bid 250 and left
(1, -250)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import DECKS, NUM_FACES, Rank, Suit
from engine.cutthroat import CutthroatState
from engine.pinnacolo.cards import PACK, VALUES, is_wild, parse_card
from engine.pinnacolo.rules import NoMeldPenalty, PinnacoloRules
from engine.pinnacolo.state import PinnacoloHand
from engine.rules import MeldValues, Pinochle2Rules, Rules
from engine.trickstate import Phase, TrickTakingState
from engine.twohand import TwoHandState

__all__ = ["ScoreBounds", "forfeit_scores", "meld_bound", "score_bounds", "worst_case_bounds"]


@dataclass(frozen=True, slots=True)
class ScoreBounds:
    """For each side (team, or seat in individual games): the lowest and the highest
    score it can still reach, as sound bounds."""

    low: tuple[int, ...]
    high: tuple[int, ...]

    def forfeit(self, leaving_sides: Collection[int]) -> tuple[int, ...]:
        """The leaving sides at their lowest, every other side at its highest."""
        return tuple(
            self.low[side] if side in leaving_sides else self.high[side]
            for side in range(len(self.low))
        )


def forfeit_scores(state: Any, leavers: int | Iterable[int]) -> tuple[int, ...]:
    """Each side's score when ``leavers`` (a seat, or every seat of one competitor) leave
    the hand in ``state``: their sides at the lowest they could reach, the others at the
    highest."""
    seats = (leavers,) if isinstance(leavers, int) else tuple(leavers)
    sides = _sides(state)
    return score_bounds(state).forfeit({sides[seat] for seat in seats})


def score_bounds(state: Any) -> ScoreBounds:
    """Sound bounds of what each side can still score from ``state`` (any game's hand)."""
    if state.is_terminal():
        scores = tuple(int(score) for score in state.result().team_scores)
        return ScoreBounds(scores, scores)
    if isinstance(state, PinnacoloHand):
        return _pinnacolo_bounds(state)
    if isinstance(state, TwoHandState):
        return _twohand_bounds(state)
    if isinstance(state, TrickTakingState):
        return _contract_bounds(state)
    raise TypeError(f"no score bounds for a hand of {type(state).__name__}")


def worst_case_bounds(rules: Any, sides: int) -> ScoreBounds:
    """Bounds that hold for any deal and any position of a hand under ``rules``."""
    if isinstance(rules, PinnacoloRules):
        total = sum(VALUES[face] for face in PACK)
        seats = rules.players // sides
        if rules.no_meld_penalty is NoMeldPenalty.FLAT:
            low = -total - seats * rules.no_meld_points
        else:
            low = -2 * total
        bonus = max(rules.closing_bonus, rules.one_go_bonus)
        return ScoreBounds((low,) * sides, (2 * total + bonus,) * sides)
    assert isinstance(rules, Rules)
    deck = DECKS[rules.deck].copies
    meld = max(meld_bound(deck, trump, rules.meld_values) for trump in range(4))
    # The turned-up dix and the exchange score only where there is a stock.
    extras = rules.turned_dix + rules.dix_exchange if isinstance(rules, Pinochle2Rules) else 0
    high = meld + extras + rules.total_in_tricks
    # A declarer loses at most the highest bid; without an auction nobody loses points.
    low = -max(rules.bids) if rules.bids else 0
    return ScoreBounds((low,) * sides, (high,) * sides)


# ------------------------------------------------------------------------- meld


def _best_split(values: Sequence[int], copies: int) -> int:
    """The most ``copies`` of one combination can score, laid as any number of melds
    (``values`` by multiplicity, index 0 being none): an upper bound however the copies
    fall into hands, melds and turns."""
    best = [0] * (copies + 1)
    for count in range(1, copies + 1):
        most = best[count - 1]
        for times in range(1, min(count, len(values) - 1) + 1):
            most = max(most, best[count - times] + values[times])
        best[count] = most
    return best[copies]


def meld_bound(counts: Sequence[int], trump: int, values: MeldValues) -> int:
    """At least the meld (RULES.md 3) that the cards ``counts`` (24 face counts) can score
    with ``trump``, however they are split among hands or melds: each class of 3.2 bounded
    on its own, so the bound also covers a card serving once in each class."""
    base = trump * 6
    runs = min(counts[base + rank] for rank in (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J))
    total = _best_split(values.run, runs)
    total += min(counts[base + Rank.K], counts[base + Rank.Q]) * max(values.royal_marriage, 0)
    total += counts[base + Rank.NINE] * max(values.dix, 0)
    for suit in Suit:
        if suit != trump:
            pairs = min(counts[suit * 6 + Rank.K], counts[suit * 6 + Rank.Q])
            total += pairs * max(values.marriage, 0)
    for rank, table in (
        (Rank.A, values.aces),
        (Rank.K, values.kings),
        (Rank.Q, values.queens),
        (Rank.J, values.jacks),
    ):
        total += _best_split(table, min(counts[suit * 6 + rank] for suit in Suit))
    pinochles = min(counts[Suit.S * 6 + Rank.Q], counts[Suit.D * 6 + Rank.J])
    return total + _best_split(values.pinochle, pinochles)


def _counts(*groups: Iterable[int]) -> list[int]:
    counts = [0] * NUM_FACES
    for cards in groups:
        for face in cards:
            counts[int(face)] += 1
    return counts


def _sides(state: Any) -> tuple[int, ...]:
    """Each seat's side: the index of its team in ``state.teams``."""
    side = {seat: index for index, seats in enumerate(state.teams) for seat in seats}
    return tuple(side[seat] for seat in range(state.num_players))


# ------------------------------------------------------- games with an auction


def _contract_bounds(state: TrickTakingState) -> ScoreBounds:
    """Four-hand and three-hand pinochle (RULES.md 2, 5, 7.2)."""
    rules: Rules = state.rules
    view = state.observation(0)
    sides = _sides(state)
    count = max(sides) + 1
    seats = [[seat for seat in range(state.num_players) if sides[seat] == s] for s in range(count)]
    taken = [int(points) for points in view["counters_taken"]]
    # Every counter not yet in a side's tricks, the last trick's bonus included (a
    # cutthroat declarer's buried counters are among them).
    left = rules.total_in_tricks - sum(taken)
    declarer = state.declarer
    passed = {entry["seat"] for entry in view["auction"] if entry["action"].startswith("pass")}
    widow = state._initial_deal()[-1] if isinstance(state, CutthroatState) else ()
    low, high = [], []
    for side in range(count):
        if declarer is not None:
            low.append(-int(state.bid or 0) if sides[declarer] == side else 0)
        elif any(seat not in passed for seat in seats[side]):
            low.append(-max(rules.bids))
        else:
            low.append(0)
        if view["melds"] is not None:
            shown = view["melds"]
            meld = sum(int(entry["total"]) for entry in shown if entry["seat"] in seats[side])
        else:
            cards = [state.hand(seat) for seat in seats[side]]
            if widow and (declarer in seats[side] if declarer is not None else low[side] < 0):
                # A seat that may still win the auction may still take the widow (7.2).
                cards.append(widow)
            trumps = range(4) if state.trump is None else (int(state.trump),)
            counts = _counts(*cards)
            meld = max(meld_bound(counts, trump, rules.meld_values) for trump in trumps)
        high.append(meld + taken[side] + left)
    return ScoreBounds(tuple(low), tuple(high))


def _twohand_bounds(state: TwoHandState) -> ScoreBounds:
    """Two-hand pinochle (RULES.md 7.1): meld laid and counters taken are kept."""
    rules: Pinochle2Rules = state.rules
    view = state.observation(0)
    taken = [int(points) for points in view["counters_taken"]]
    won = [int(tricks) for tricks in view["tricks_won"]]
    laid = [int(points) for points in view["meld_scores"]]
    left = rules.total_in_tricks - sum(taken)
    # Meld is laid only while the stock lasts (its tricks and the meld after each).
    stock_phase = state.phase in (Phase.TRICKS, Phase.MELD)
    low, high = [], []
    for seat in range(2):
        kept = laid[seat] if not rules.meld_needs_trick or won[seat] else 0
        low.append(kept + taken[seat])
        future = 0
        if stock_phase:
            counts = _counts(state.hand(seat), state.stock)
            future = meld_bound(counts, int(state.trump), rules.meld_values) + rules.dix_exchange
        high.append(laid[seat] + future + taken[seat] + left)
    return ScoreBounds(tuple(low), tuple(high))


# ------------------------------------------------------------------- Pinnacolo


def _value(cards: Iterable[str]) -> int:
    return sum(VALUES[parse_card(card)] for card in cards)


def _pinnacolo_bounds(state: PinnacoloHand) -> ScoreBounds:
    """Pinnacolo (RULES.md 8): melded value minus the hand, the bonuses and penalties."""
    rules = state.rules
    sides = _sides(state)
    melds = state.melds
    hands = [_value(state.hand(seat)) for seat in range(state.num_players)]
    pile = _value(state.pile)
    on_table = sum(VALUES[face] for meld in melds for face, _ in meld.cards)
    # The stock is hidden from the seats but not from the referee: what the pack holds
    # beyond the hands, the pile and the table.
    stock = sum(VALUES[face] for face in PACK) - sum(hands) - pile - on_table
    bonus = max(rules.closing_bonus, rules.one_go_bonus)
    low, high = [], []
    for side in range(rules.sides):
        seats = [seat for seat in range(state.num_players) if sides[seat] == side]
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
