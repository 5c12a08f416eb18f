"""Two-hand pinochle with a stock, variant ``twohand`` (RULES.md 7.1).

No auction: 12 cards each, the next card turned up for trump (a nine scores the dealer
10) and put under the stock. In the **stock phase** the non-dealer leads, the second
player may play any card, the winner of each trick may lay one meld (or exchange the dix
for the turned-up card) and then both draw, the winner first. When the stock is empty
the melded cards go back to the hands and the last 12 tricks follow ``auction4``'s trick
rules.

>>> state = new_twohand_hand("twohand", seed=3, dealer=0)
>>> state.phase, state.current_player, state.trump, str(state.turned_up)
(<Phase.TRICKS: 'tricks'>, 1, Suit.D, '9D')
>>> state.observation(1)["meld_scores"]  # the dealer, seat 0, turned the dix
[10, 0]
>>> len(state.legal_actions) == len(set(state.hand(1)))  # free play: any card
True
>>> state.apply("meld KS QS")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalActionError: illegal action 'meld KS QS': ... (rule: phase)

Decisions where RULES.md is silent:

- Dealing: 12 cards to the non-dealer, 12 to the dealer, the next card turned up, the
  other 23 the stock in pack order; the turned-up card is drawn last.
- A meld is one entry of table 3.1 (single or double): a run, a royal marriage, a
  marriage, the dix, a pinochle, or an around, named by its cards (``meld KS QS``).
  Marriages and dixes are melded one at a time.
- Copies of a face are indistinguishable, so the engine chooses which copy serves: a meld
  re-uses cards already on the table where the class rule allows (those melded the most
  first) and takes new cards from the hand for the rest, at least one; a card played
  leaves the table before the concealed hand. Both choices keep the hand most flexible.
- The dix exchange counts as the trick's one meld. Only a dix still in the hand (not
  melded) may be exchanged, only while the turned-up card is not itself a nine. The
  exchange's 10 and the turned-up nine's 10 appear as ``dix`` items of the meld.
- After a trick the winner is asked to meld only if some meld or the exchange is
  possible; ``no-meld`` declines.
- A hand has no declarer: the result's outcome is ``made``, ``declarer`` and ``bid`` are
  ``None``, and each seat's score is its meld plus counters plus the last trick (the meld
  only if it won a trick, under ``meld_needs_trick``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import EXCHANGE_DIX, NO_MELD, Action, ExchangeDix, MeldCards, NoMeld
from engine.cards import CARD_NAMES, CARDS, NUM_FACES, Card, Rank, Suit
from engine.declared import DeclaredMelds
from engine.errors import IllegalActionError
from engine.individual import IndividualGame
from engine.meld import MeldItem, MeldKind, arounds
from engine.results import HandOutcome, MeldShown
from engine.rules import MeldValues
from engine.trickstate import (
    CLEAR,
    PHASE_MELD,
    PHASE_OVER,
    PHASE_PLAY_OUT,
    PHASE_TRICKS,
    Phase,
    TrickTakingState,
    cards_of,
    seats_of_sides,
)

__all__ = [
    "DeclaredMelds",
    "TwoHandGame",
    "TwoHandPhase",
    "TwoHandState",
    "new_twohand_hand",
    "twohand_from_cards",
]

TwoHandPhase = Phase
"""The phases of a two-hand hand: ``TRICKS`` (the stock phase: lead and follow with any
card), ``MELD`` (the winner of a stock trick may meld one combination or exchange the
dix), ``PLAY_OUT`` (the stock is empty: follow suit, head the trick, trump), ``OVER``."""


SEQUENCE, PINOCHLE_CLASS, AROUND = 1, 2, 4
"""The meld classes of RULES.md 3.2 as bits: a card serves at most once in each."""

_CLASS_NAMES = {SEQUENCE: "I", PINOCHLE_CLASS: "II", AROUND: "III"}


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One meld a player may lay: its item and the copies of each face it needs."""

    item: MeldItem
    needs: tuple[tuple[int, int], ...]
    klass: int


@functools.cache
def _candidates(values: MeldValues, trump: int) -> dict[tuple[Card, ...], _Candidate]:
    """Every meld of table 3.1 with this trump, keyed by its sorted cards."""
    base = trump * 6
    trump_suit = Suit(trump)
    found: list[tuple[MeldKind, int, int, Suit | None, tuple[int, ...], int]] = []
    run = tuple(base + rank for rank in range(5))
    found.append((MeldKind.RUN, 1, values.run[1], trump_suit, run, SEQUENCE))
    found.append((MeldKind.RUN, 2, values.run[2], trump_suit, run * 2, SEQUENCE))
    royal = (base + Rank.K, base + Rank.Q)
    found.append((MeldKind.ROYAL_MARRIAGE, 1, values.royal_marriage, trump_suit, royal, SEQUENCE))
    for suit in Suit:
        if suit != trump:
            pair = (suit * 6 + Rank.K, suit * 6 + Rank.Q)
            found.append((MeldKind.MARRIAGE, 1, values.marriage, suit, pair, SEQUENCE))
    if values.dix:
        found.append((MeldKind.DIX, 1, values.dix, trump_suit, (base + Rank.NINE,), SEQUENCE))
    pinochle = (Suit.S * 6 + Rank.Q, Suit.D * 6 + Rank.J)
    for times in (1, 2):
        value = values.pinochle[times]
        found.append((MeldKind.PINOCHLE, times, value, None, pinochle * times, PINOCHLE_CLASS))
    for kind, rank, table in arounds(values):
        around = tuple(suit * 6 + rank for suit in Suit)
        for times in (1, 2):
            found.append((kind, times, table[times], None, around * times, AROUND))
    candidates = {}
    for kind, times, value, meld_suit, faces, klass in found:
        cards = tuple(sorted(CARDS[face] for face in faces))
        needs = tuple((face, faces.count(face)) for face in sorted(set(faces)))
        item = MeldItem(kind, times, value, meld_suit, cards)
        candidates[cards] = _Candidate(item, needs, klass)
    return candidates


def _fewest_classes_last(masks: Sequence[int]) -> list[int]:
    """Table copies ordered most-melded first (the ones to use or play first)."""
    return sorted(masks, key=lambda mask: (-mask.bit_count(), mask))


class TwoHandState(TrickTakingState):
    """One two-hand hand, from the deal to the score (seats 0 and 1, each its own team).

    Build one with ``new_twohand_hand`` (from a seed) or ``twohand_from_cards``.
    """

    __slots__ = ("_choices", "_choices_at", "_dealt_stock", "_declared", "_stock", "_table")

    num_players = 2
    GAME = "pinochle2"
    LABEL = "two-hand"
    REST = "the stock"
    SIDES = (0, 1)
    _SIDE_SEATS = seats_of_sides(SIDES)
    # Its own ``_legal_mask``, ``_play`` and ``_after_trick`` (the stock, the melds):
    # every action goes through ``_apply_py``.
    _FAST = False

    def _begin(self, rest: Sequence[int]) -> None:
        """The stock from the top, the turned-up card last."""
        stock, rules, dealer = rest, self.rules, self.dealer
        self._dealt_stock = tuple(CARDS[face] for face in stock)
        # Drawn from the end: the turned-up card, drawn last, sits at index 0.
        self._stock = [int(face) for face in reversed(stock)]
        turned = self._stock[0]
        self._trump = turned // 6
        self._table: list[list[tuple[int, ...]]] = [[() for _ in range(NUM_FACES)] for _ in "01"]
        self._declared: list[tuple[int, int, str, MeldItem]] = []
        self._melds = [0, 0]
        self._choices: tuple[MeldCards, ...] = ()
        self._choices_at = -1
        self._phase = PHASE_TRICKS
        if turned % 6 == Rank.NINE and rules.turned_dix:
            self._score_dix(dealer, rules.turned_dix, "turned_dix")

    @staticmethod
    def _rest_order(rest: list[int], *, dealt: bool) -> list[int]:
        # The card after the hands is turned up and goes under the stock: drawn last.
        return [*rest[1:], rest[0]] if dealt else rest

    # ----------------------------------------------------------------- queries

    @property
    def trump(self) -> Suit:
        return Suit(self._trump)

    @property
    def turned_up(self) -> Card | None:
        """The face-up card under the stock, until it is drawn."""
        return CARDS[self._stock[0]] if self._stock else None

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock from the top, the turned-up card last (for the engine's owner: bots
        get ``observation``)."""
        return tuple(CARDS[face] for face in reversed(self._stock))

    def _initial_deal(self) -> tuple[tuple[Card, ...], ...]:
        """The two hands dealt, by seat, then the stock from the top (turned card last)."""
        return (cards_of(self._dealt[0]), cards_of(self._dealt[1]), self._dealt_stock)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, those melded on the table included."""
        return cards_of(self._hands[seat])

    def table(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` has melded and not yet played (stock phase)."""
        return tuple(CARDS[face] for face in range(NUM_FACES) for _ in self._table[seat][face])

    def copy(self) -> TwoHandState:
        other = super().copy()
        other._table = [faces[:] for faces in self._table]
        return other

    # ------------------------------------------------------------------ tricks

    def _legal_mask(self) -> int:
        if self._phase is PHASE_TRICKS:
            return self._masks[self._turn]
        return super()._legal_mask()

    def _play(self, face: int) -> None:
        seat = self._turn
        copies = self._table[seat][face]
        if copies:
            self._table[seat][face] = tuple(_fewest_classes_last(copies)[1:])
        super()._play(face)

    def _after_trick(self) -> None:
        if self._phase is PHASE_TRICKS:
            self._phase = PHASE_MELD
            if not self._can_meld():
                self._draw()
        elif not any(self._masks):
            self._finish(HandOutcome.MADE)

    # -------------------------------------------------------------------- meld

    def _placement(
        self, seat: int, candidate: _Candidate
    ) -> tuple[str, list[tuple[int, tuple[int, ...]]]]:
        """The rule a meld breaks (``""`` if none) and the faces' table copies after it."""
        hand = self._hands[seat]
        table = self._table[seat]
        bit = candidate.klass
        plan: list[list[Any]] = []
        fresh_total = 0
        for face, need in candidate.needs:
            if hand[face] < need:
                return "cards_not_in_hand", []
            copies = table[face]
            concealed = hand[face] - len(copies)
            reusable = _fewest_classes_last([mask for mask in copies if not mask & bit])
            if need > len(reusable) + concealed:
                return "meld_class_reuse", []
            from_table = min(need, len(reusable))
            plan.append([face, from_table, need - from_table, concealed, reusable])
            fresh_total += need - from_table
        if not fresh_total:
            for entry in plan:
                if entry[3]:
                    entry[1] -= 1
                    entry[2] += 1
                    break
            else:
                return "meld_needs_new_card", []
        placed = []
        for face, from_table, fresh, _, reusable in plan:
            rest = list(table[face])
            for mask in reusable[:from_table]:
                rest.remove(mask)
            used = [mask | bit for mask in reusable[:from_table]]
            placed.append((face, tuple(sorted(rest + used + [bit] * fresh))))
        return "", placed

    def _layable(self) -> Iterator[tuple[Card, ...]]:
        """The cards of each meld the seat to play may lay now, in the candidates' order."""
        seat = self._turn
        hand = self._hands[seat]
        for cards, candidate in _candidates(self.rules.meld_values, self._trump).items():
            if (
                all(hand[face] >= need for face, need in candidate.needs)
                and not (self._placement(seat, candidate)[0])
            ):
                yield cards

    def _meld_choices(self) -> tuple[MeldCards, ...]:
        # Kept until the next action: a driver asks ``len(legal_actions)``, an index and
        # ``apply`` of one position, and each weighs every candidate meld.
        applied = len(self._actions)
        if self._choices_at != applied:
            self._choices = tuple(MeldCards(cards) for cards in self._layable())
            self._choices_at = applied
        return self._choices

    def _can_exchange(self) -> bool:
        nine = self._trump * 6 + Rank.NINE
        hand = self._hands[self._turn]
        return (
            bool(self._stock)
            and self._stock[0] != nine
            and hand[nine] > len(self._table[self._turn][nine])
        )

    def _can_meld(self) -> bool:
        # Asked after every stock trick, before the trick's card is recorded: the first
        # meld that may be laid answers, without listing the rest.
        return self._can_exchange() or next(self._layable(), None) is not None

    def _apply_meld(self, action: MeldCards) -> None:
        candidate = _candidates(self.rules.meld_values, self._trump).get(action.cards)
        if candidate is None:
            raise IllegalActionError(
                action, "not_a_meld", "these cards are not one meld of table 3.1"
            )
        seat = self._turn
        rule, placed = self._placement(seat, candidate)
        if rule == "cards_not_in_hand":
            raise IllegalActionError(action, rule, f"seat {seat} does not hold these cards")
        if rule == "meld_class_reuse":
            name = _CLASS_NAMES[candidate.klass]
            raise IllegalActionError(
                action, rule, f"a melded card may serve again only outside class {name}"
            )
        if rule:
            raise IllegalActionError(action, rule, "a meld needs a card not yet melded")
        for face, copies in placed:
            self._table[seat][face] = copies
        item = candidate.item
        self._melds[seat] += item.value
        self._declared.append((seat, len(self._tricks), "meld", item))
        self._draw()

    def _apply_exchange(self, action: Action) -> None:
        if not self._can_exchange():
            nine = self._trump * 6 + Rank.NINE
            if self._stock and self._stock[0] == nine:
                raise IllegalActionError(action, "dix_exchange", "the turned-up card is the dix")
            raise IllegalActionError(
                action, "dix_exchange", f"seat {self._turn} holds no unmelded dix"
            )
        seat = self._turn
        nine = self._trump * 6 + Rank.NINE
        turned = self._stock[0]
        hand = self._hands[seat]
        hand[nine] -= 1
        if not hand[nine]:
            self._masks[seat] &= CLEAR[nine]
        hand[turned] += 1
        self._masks[seat] |= 1 << turned
        self._stock[0] = nine
        self._score_dix(seat, self.rules.dix_exchange, "dix_exchange")
        self._draw()

    def _score_dix(self, seat: int, value: int, how: str) -> None:
        nine = CARDS[self._trump * 6 + Rank.NINE]
        item = MeldItem(MeldKind.DIX, 1, value, Suit(self._trump), (nine,))
        self._melds[seat] += value
        self._declared.append((seat, len(self._tricks), how, item))

    def _draw(self) -> None:
        """The trick winner draws first, then the other player; an empty stock ends the
        stock phase and the melded cards go back to the hands."""
        winner = self._turn
        for seat in (winner, 1 - winner):
            face = self._stock.pop()
            self._hands[seat][face] += 1
            self._masks[seat] |= 1 << face
        if self._stock:
            self._phase = PHASE_TRICKS
        else:
            self._phase = PHASE_PLAY_OUT
            self._table = [[() for _ in range(NUM_FACES)] for _ in "01"]

    # ----------------------------------------------------------------- scoring

    def _meld_shown(self, side: int) -> MeldShown:
        items = [(s, item) for s, _, _, item in self._declared if s == side]
        return DeclaredMelds(items, self._trump, self.rules.meld_values)

    # ------------------------------------------------------------- observation

    def observation(self, seat: object) -> dict[str, Any]:
        """Exactly what ``seat`` may know, as a JSON-able dict.

        Keys: ``game``, ``variant``, ``seat``, ``team`` (= seat), ``dealer``, ``phase``,
        ``current_player``; ``hand`` (this seat's cards, melded ones included) and
        ``hand_sizes``; ``trump``, ``turned_up`` (until drawn) and ``stock_size``;
        ``table`` (each seat's melded cards still on the table, during the stock phase);
        ``melds`` (every meld laid, in order: ``seat``, ``trick`` (tricks played before
        it), ``how`` (``meld``, ``dix_exchange`` or ``turned_dix``) and the item) and
        ``meld_scores``; ``tricks`` and ``trick``; ``counters_taken`` (per seat, the
        last-trick bonus included once won) and ``tricks_won``; ``result`` once over.
        """
        head = self._observation_head(seat)
        names = CARD_NAMES
        turned = self.turned_up
        return {
            **head,
            "trump": str(self.trump),
            "turned_up": None if turned is None else names[turned],
            "stock_size": len(self._stock),
            "table": [[names[face] for face in self.table(s)] for s in (0, 1)],
            "melds": [
                {"seat": s, "trick": trick, "how": how, **item.to_json()}
                for s, trick, how, item in self._declared
            ],
            "meld_scores": list(self._melds),
            **self._observation_tail(),
        }

    # ----------------------------------------------------------- legal actions

    def _legal_contains(self, action: object) -> bool:
        if self._phase is PHASE_MELD:
            if isinstance(action, NoMeld):
                return True
            if isinstance(action, ExchangeDix):
                return self._can_exchange()
            if isinstance(action, MeldCards):
                candidate = _candidates(self.rules.meld_values, self._trump).get(action.cards)
                return candidate is not None and not self._placement(self._turn, candidate)[0]
        return False

    def _legal_list(self) -> list[Action]:
        if self._phase is PHASE_MELD:
            exchange = [EXCHANGE_DIX] if self._can_exchange() else []
            return [NO_MELD, *exchange, *self._meld_choices()]
        return []

    def _legal_count(self) -> int:
        return len(self._legal_list()) if self._phase is PHASE_MELD else 0

    # ---------------------------------------------------------- random playout

    def play_randomly(self, rng: random.Random) -> None:
        """Finish the hand with actions chosen uniformly among the legal ones."""
        draw = rng.random
        while self._phase is not PHASE_OVER:
            if self._phase is PHASE_MELD:
                legal = self._legal_list()
                self.apply(legal[int(draw() * len(legal))])
            else:
                self._random_card(draw)


def _apply_meld(state: TwoHandState, action: Action) -> None:
    assert isinstance(action, MeldCards)
    state._apply_meld(action)


TwoHandState.handlers = {
    MeldCards: ((PHASE_MELD,), _apply_meld),
    ExchangeDix: ((PHASE_MELD,), TwoHandState._apply_exchange),
    NoMeld: ((PHASE_MELD,), lambda state, action: state._draw()),
}


new_twohand_hand = TwoHandState.new
"""Deal a two-hand hand from ``seed`` (``TwoHandState.new``): the shuffled pack gives the
non-dealer's cards, the dealer's, the turned-up card, then the stock."""

twohand_from_cards = TwoHandState.from_cards
"""Start from explicit cards (``TwoHandState.from_cards``): the two hands by seat, then
the stock from the top with the turned-up card last (cards, card names or
space-separated text)."""


class TwoHandGame(IndividualGame):
    """A two-hand game to ``rules.target`` (1000 in the preset), see ``IndividualGame``."""

    deal_hand = staticmethod(new_twohand_hand)
