"""What the pinochle games' hands can still score, for a forfeit (``engine.forfeit``):
leaving never pays (RULES.md 2 to 5, 7, 9).

- With an auction (RULES.md 2, 3, 5, 7.2): a side that declared can at worst be set
  (minus its bid); during the auction, a side with a seat still bidding can at worst be
  set at the highest bid the ladder allows; a defending side never scores below zero. At
  best a side scores its meld (as shown, or before the meld the most its cards could
  meld in any trump, the cards dealt to nobody, the three-hand widow, included where it
  may still win them) plus the counters it took and every counter not yet taken, the
  last trick included (section 4's table).
- Two-hand (7.1): the meld laid and the counters taken are kept; at best a seat adds the
  most the cards it holds and the stock could still meld, the dix exchange and every
  counter not yet taken.

Late in a hand the bounds are the shown meld and the few counters left, so a fault costs
little more than the hand would have.

>>> from engine.forfeit import forfeit_scores
>>> from engine.registry import load_game
>>> state = load_game("auction4").new_initial_state(seed=3, dealer=0)
>>> for action in ("bid 250", "pass", "pass", "pass"):
...     state.apply(action)
>>> state.declarer, forfeit_scores(state, 1)[1]  # seat 1's side bid 250 and left
(1, -250)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import DECKS, NUM_FACES, Card, Rank, Suit
from engine.forfeit import ScoreBounds
from engine.rules import MeldValues, Pinochle2Rules, Rules
from engine.trickstate import Phase, TrickTakingState
from engine.twohand import TwoHandState

__all__ = ["contract_bounds", "meld_bound", "twohand_bounds", "worst_case_bounds"]


def worst_case_bounds(rules: Rules, sides: int, extras: int = 0) -> ScoreBounds:
    """Bounds that hold for any deal and any position of a hand under ``rules``, a side
    scoring at best ``extras`` beyond its meld and the counters (two-hand's dix)."""
    deck = DECKS[rules.deck].copies
    meld = max(meld_bound(deck, trump, rules.meld_values) for trump in range(4))
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


# ------------------------------------------------------- games with an auction


def contract_bounds(
    state: TrickTakingState, teams: Sequence[Sequence[int]], undealt: Sequence[Card] = ()
) -> ScoreBounds:
    """Four-hand and three-hand pinochle (RULES.md 2, 5, 7.2), the sides being ``teams``
    and ``undealt`` the cards dealt to nobody that the auction's winner takes (the widow)."""
    rules: Rules = state.rules
    view = state.observation(0)
    taken = [int(points) for points in view["counters_taken"]]
    # Every counter not yet in a side's tricks, the last trick's bonus included (a
    # cutthroat declarer's buried counters are among them).
    left = rules.total_in_tricks - sum(taken)
    declarer = state.declarer
    passed = {entry["seat"] for entry in view["auction"] if entry["action"].startswith("pass")}
    low, high = [], []
    for side, seats in enumerate(teams):
        if declarer is not None:
            low.append(-int(state.bid or 0) if declarer in seats else 0)
        elif any(seat not in passed for seat in seats):
            low.append(-max(rules.bids))
        else:
            low.append(0)
        if view["melds"] is not None:
            shown = view["melds"]
            meld = sum(int(entry["total"]) for entry in shown if entry["seat"] in seats)
        else:
            cards = [state.hand(seat) for seat in seats]
            if undealt and (declarer in seats if declarer is not None else low[side] < 0):
                # A seat that may still win the auction may still take the widow (7.2).
                cards.append(tuple(undealt))
            trumps = range(4) if state.trump is None else (int(state.trump),)
            counts = _counts(*cards)
            meld = max(meld_bound(counts, trump, rules.meld_values) for trump in trumps)
        high.append(meld + taken[side] + left)
    return ScoreBounds(tuple(low), tuple(high))


# --------------------------------------------------------------------- two-hand


def twohand_bounds(state: TwoHandState) -> ScoreBounds:
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
