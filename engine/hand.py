"""The state machine of one four-hand pinochle hand (RULES.md sections 2-5 and 10).

>>> state = new_hand("single4", seed=7)
>>> state.phase, state.current_player
(<Phase.AUCTION: 'auction'>, 1)
>>> Action.parse("bid 16") in state.legal_actions, len(state.legal_actions)
(True, 236)
>>> state.apply(Action.parse("bid 20"))
>>> state.apply("pass")
>>> [str(action) for action in state.history]
['bid 20', 'pass']
>>> state.apply("bid 19")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalActionError: illegal action 'bid 19': ... (rule: bid_ladder)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine.actions import (
    PLAY_ON,
    THROW_IN,
    Action,
    Give,
)
from engine.cards import CARD_NAMES
from engine.results import HandOutcome
from engine.rules import Rules
from engine.seats import partner_of
from engine.tricks import blank
from engine.trickstate import (
    AUCTION_HANDLERS,
    CLEAR,
    NAME_TRUMP,
    PHASE_OVER,
    PHASE_PASS_BACK,
    PHASE_PASS_TO_DECLARER,
    PHASE_THROW_IN,
    PHASE_TRICKS,
    PHASE_TRUMP,
    LegalActions,
    Phase,
    TrickTakingState,
    count_submultisets,
    seats_of_sides,
    submultiset_at,
    submultisets,
)

__all__ = ["HandState", "LegalActions", "Phase", "hand_from_cards", "new_hand", "sees_pass"]


def sees_pass(seat: int | None, giver: int) -> bool:
    """Whether ``seat`` (``None``: a spectator) sees the cards ``giver`` passes: only the
    two partners who exchange them do (RULES.md section 10)."""
    return seat is not None and seat in (giver, partner_of(giver))


class HandState(TrickTakingState):
    """One hand, from the deal to the score.

    Seats are 0-3 clockwise; partners sit opposite (team = seat % 2). Build one with
    ``new_hand`` (from a seed) or ``hand_from_cards`` (from explicit hands).
    """

    __slots__ = ()

    num_players = 4
    GAME = "pinochle4"
    LABEL = "four-hand"
    SIDES = (0, 1, 0, 1)
    _SIDE_SEATS = seats_of_sides(SIDES)

    def _begin(self, rest: Sequence[int]) -> None:
        self._given = []
        self._pass_count = self.rules.pass_count

    @classmethod
    def _from_deal(
        cls, rules: Rules, hands: list[list[int]], rest: list[int], dealer: int, seed: int | None
    ) -> HandState:
        # Dealing is a large share of a random playout, so the state is built without copies.
        state = blank(cls)
        state._start(rules, hands, dealer, seed)
        state._begin(rest)
        return state

    # ------------------------------------------------------------- passing

    def _after_trump(self) -> None:
        if self.rules.pass_count:
            self._phase = PHASE_PASS_TO_DECLARER
            self._turn = partner_of(self._declarer)
        else:
            self._meld()

    def _apply_give(self, action: Action) -> None:
        assert isinstance(action, Give)
        giver = self._turn
        self._check_cards(action, action.cards, self.rules.pass_count, "pass_count", "passed")
        hand = self._hands[giver]
        receiver = partner_of(giver)
        target = self._hands[receiver]
        for face in action.cards:
            hand[face] -= 1
            target[face] += 1
            if not hand[face]:
                self._masks[giver] &= CLEAR[face]
            self._masks[receiver] |= 1 << face
        self._given.append(action.cards)
        if self._phase is PHASE_PASS_TO_DECLARER:
            self._phase = PHASE_PASS_BACK
            self._turn = receiver
        else:
            self._meld()

    # ------------------------------------------------------------- observation

    def observation(self, seat: object) -> dict[str, Any]:
        """Exactly what ``seat`` may know (RULES.md section 10), as a JSON-able dict.

        Keys: ``game``, ``variant``, ``seat``, ``team``, ``dealer``, ``phase``,
        ``current_player``; ``hand`` (this seat's cards) and ``hand_sizes`` (everybody's
        card count); ``auction`` (every call, in order); ``contract`` (declarer and bid)
        and ``trump``; ``passing`` (each pass: from, to, count, and ``cards`` only if this
        seat gave or received them); ``melds`` (every seat's items once shown, else
        ``None``); ``thrown_in``; ``tricks`` (leader, cards, winner) and the current
        ``trick``; ``counters_taken`` (per team, the last-trick bonus included once won)
        and ``tricks_won``; ``result`` (``HandResult.to_json()`` once the hand is over).
        """
        head = self._observation_head(seat)
        passing = []
        for index, cards in enumerate(self._given):
            giver = partner_of(self._declarer) if index == 0 else self._declarer
            receiver = partner_of(giver)
            entry: dict[str, Any] = {"from": giver, "to": receiver, "count": len(cards)}
            if sees_pass(head["seat"], giver):
                entry["cards"] = [CARD_NAMES[face] for face in cards]
            passing.append(entry)
        return {
            **head,
            **self._observation_bidding(),
            "passing": passing,
            "melds": self._observation_melds(),
            "thrown_in": self._outcome is HandOutcome.THROWN_IN,
            **self._observation_tail(),
        }

    # ----------------------------------------------------------- legal actions

    def _passing(self) -> bool:
        return self._phase is PHASE_PASS_TO_DECLARER or self._phase is PHASE_PASS_BACK

    def _legal_contains(self, action: object) -> bool:
        if not self._passing():
            return super()._legal_contains(action)
        if not isinstance(action, Give) or len(action.cards) != self.rules.pass_count:
            return False
        hand = self._hands[self._turn]
        return all(action.cards.count(card) <= hand[card] for card in set(action.cards))

    def _legal_count(self) -> int:
        if self._phase is PHASE_PASS_TO_DECLARER or self._phase is PHASE_PASS_BACK:
            return count_submultisets(self._hands[self._turn], self.rules.pass_count)
        # Named, not ``super()``: asked at every call of the auction, and a ``super``
        # object is built at each call of the pure engine.
        return TrickTakingState._legal_count(self)

    def _legal_index(self, index: int) -> Action | None:
        if self._phase is PHASE_PASS_TO_DECLARER or self._phase is PHASE_PASS_BACK:
            hand = self._hands[self._turn]
            return Give(submultiset_at(hand, self.rules.pass_count, index))
        return TrickTakingState._legal_index(self, index)

    def _legal_list(self) -> Sequence[Action] | Iterator[Action]:
        if self._passing():
            hand = list(self._hands[self._turn])
            return (Give(cards) for cards in submultisets(hand, self.rules.pass_count))
        return super()._legal_list()

    # ---------------------------------------------------------- random playout

    def play_randomly(self, rng: random.Random, *, throw_in_rate: float = 0.0) -> None:
        """Finish the hand with random legal actions.

        Every choice is uniform over the legal actions, except two: a pass of cards takes
        ``pass_count`` random cards of the hand (uniform over copies), and the throw-in is
        chosen with probability ``throw_in_rate``. Cards are chosen among the faces
        allowed by the same legality function ``apply`` uses.
        """
        draw = rng.random
        while self._phase is not PHASE_OVER:
            phase = self._phase
            if phase is PHASE_TRICKS:
                self._random_tricks(draw)
            elif phase is PHASE_PASS_TO_DECLARER or phase is PHASE_PASS_BACK:
                cards = rng.sample(self.hand(self._turn), self.rules.pass_count)
                self.apply(Give(cards))
            elif phase is PHASE_THROW_IN:
                self.apply(THROW_IN if draw() < throw_in_rate else PLAY_ON)
            elif phase is PHASE_TRUMP:
                suits = self._trump_choices()
                self.apply(NAME_TRUMP[suits[int(draw() * len(suits))]])
            else:
                self._random_auction_action(draw)


HandState.handlers = {
    **AUCTION_HANDLERS,
    Give: ((PHASE_PASS_TO_DECLARER, PHASE_PASS_BACK), HandState._apply_give),
}

new_hand = HandState.new
"""Deal a hand of ``variant`` from ``seed`` (``HandState.new``).

The shuffled pack is dealt in four blocks, the first to the seat left of the dealer.
``rules`` (a league's rules for this variant) replaces the preset."""

hand_from_cards = HandState.from_cards
"""Start a hand from four explicit hands (``HandState.from_cards``): cards, card names
or space-separated text.

>>> state = hand_from_cards("single4", ["AS " * 2 + "TS TS KS KS QS QS JS JS 9S 9S"] +
...     ["AH AH TH TH KH KH QH QH JH JH 9H 9H", "AD AD TD TD KD KD QD QD JD JD 9D 9D",
...      "AC AC TC TC KC KC QC QC JC JC 9C 9C"])
>>> state.hand(1)[:3]
(Card.parse('AH'), Card.parse('AH'), Card.parse('TH'))
"""
