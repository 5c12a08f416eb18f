"""Three-hand cutthroat pinochle, variant ``cutthroat3`` (RULES.md 7.2).

Three players each for themselves, 15 cards each and a widow of 3. The auction is
``auction4``'s without pass with help; the declarer shows the widow, takes it, names trump
and buries 3 cards that serve in none of its melds (their counters count for the
declarer). Everyone melds, the declarer may throw in, then 15 tricks of three cards.

>>> state = new_cutthroat_hand("cutthroat3", seed=5, dealer=2)
>>> state.phase, state.current_player
(<Phase.AUCTION: 'auction'>, 0)
>>> [str(action) for action in state.legal_actions]
['pass', 'bid 250', 'bid 260']
>>> for text in ("bid 250", "pass", "pass"):
...     state.apply(text)
>>> state.declarer, state.phase, len(state.hand(0))
(0, <Phase.TRUMP: 'trump'>, 18)
>>> state.apply("bury AS AS AS")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalActionError: illegal action 'bury AS AS AS': ... (rule: phase)

Decisions where RULES.md is silent (each a parameter or documented here):

- The widow is dealt last: the pack is dealt in blocks of 15 from the seat left of the
  dealer, the last 3 cards form the widow. When the auction ends the widow goes to the
  declarer and, with ``widow_public`` (the preset), every seat sees it.
- The declarer names trump before burying, since which cards serve in the meld depends
  on trump. A card "serves in the meld" when the meld of the 18 cards needs it: the
  declarer may bury any cards beyond those (so the meld of the 15 kept equals the meld of
  the 18). With fewer than 3 such free cards, or with ``bury_meld_cards``, any 3 may be
  buried, and the meld is that of the 15 kept. The buried cards are seen only by the
  declarer until the tricks have been played; their counters are in the declarer's
  ``counters`` in the result.
- The meld is scored at scale 10, as the 250 minimum bid and the 10-point counters imply.
- The throw-in comes after the bury and the meld; a thrown-in hand scores no counters.
- ``meld_needs_trick`` (off in the preset) takes the meld of any seat that wins no trick.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine.actions import (
    PLAY_ON,
    THROW_IN,
    Action,
    Bury,
)
from engine.cards import CARD_NAMES, CARDS, NUM_FACES, Card
from engine.errors import IllegalActionError
from engine.individual import IndividualGame
from engine.meld import meld_items
from engine.results import HandOutcome
from engine.rules import Rules
from engine.trickstate import (
    AUCTION_HANDLERS,
    CLEAR,
    PHASE_BURY,
    PHASE_OVER,
    PHASE_THROW_IN,
    PHASE_TRICKS,
    Phase,
    TrickTakingState,
    cards_of,
    count_submultisets,
    seats_of_sides,
    submultiset_at,
    submultisets,
)

__all__ = [
    "CutthroatGame",
    "CutthroatPhase",
    "CutthroatState",
    "cutthroat_from_cards",
    "new_cutthroat_hand",
]

CutthroatPhase = Phase
"""The phases of a three-hand hand: those of ``Phase`` it goes through (auction, trump,
bury, throw-in, tricks)."""


def _meld_cards(counts: Sequence[int], trump: int, rules: Rules) -> list[int]:
    """How many copies of each face the meld of ``counts`` needs: a card may serve in
    several classes, so a face needs the most copies any one item asks for."""
    needed = [0] * NUM_FACES
    for item in meld_items(counts, trump, rules.meld_values):
        for face in set(item.cards):
            needed[face] = max(needed[face], item.cards.count(face))
    return needed


class CutthroatState(TrickTakingState):
    """One three-hand hand, from the deal to the score (seats 0-2, each its own team).

    Build one with ``new_cutthroat_hand`` (from a seed) or ``cutthroat_from_cards``.
    """

    __slots__ = ("_buried", "_widow")

    num_players = 3
    GAME = "pinochle3"
    LABEL = "three-hand"
    REST = "the widow"
    SIDES = (0, 1, 2)
    _SIDE_SEATS = seats_of_sides(SIDES)

    def _begin(self, rest: Sequence[int]) -> None:
        self._widow = tuple(sorted(CARDS[face] for face in rest))
        self._buried: tuple[Card, ...] = ()

    @classmethod
    def _rest_size(cls, rules: Rules) -> int:
        return rules.widow_size

    @property
    def buried(self) -> tuple[Card, ...]:
        """The declarer's buried cards (empty before the bury)."""
        return self._buried

    def _initial_deal(self) -> tuple[tuple[Card, ...], ...]:
        """The three hands dealt, by seat, then the widow."""
        return (*(cards_of(counts) for counts in self._dealt), self._widow)

    # ------------------------------------------------------------ widow, bury

    def _take_widow(self) -> None:
        declarer = self._declarer
        hand = self._hands[declarer]
        for face in self._widow:
            hand[face] += 1
            self._masks[declarer] |= 1 << face

    def _after_trump(self) -> None:
        if self.rules.widow:
            self._phase = PHASE_BURY
        else:
            self._meld()

    def _buryable(self) -> list[int]:
        """Copies of each face the declarer may bury: those its meld does not need."""
        hand = self._hands[self._declarer]
        if self.rules.bury_meld_cards:
            return hand[:]
        needed = _meld_cards(hand, self._trump, self.rules)
        free = [held - need for held, need in zip(hand, needed, strict=True)]
        return free if sum(free) >= self.rules.widow else hand[:]

    def _apply_bury(self, action: Action) -> None:
        assert isinstance(action, Bury)
        self._check_cards(action, action.cards, self.rules.widow, "bury_count", "buried")
        hand = self._hands[self._declarer]
        free = self._buryable()
        for face in set(action.cards):
            if action.cards.count(face) > free[face]:
                raise IllegalActionError(
                    action,
                    "bury_meld_card",
                    f"{CARD_NAMES[face]} serves in the declarer's meld and may not be buried",
                )
        for face in action.cards:
            hand[face] -= 1
            if not hand[face]:
                self._masks[self._declarer] &= CLEAR[face]
        self._buried = action.cards
        self._meld()

    # ----------------------------------------------------------------- scoring

    def _extra_points(self, side: int) -> int:
        # The declarer's buried counters count once the tricks are played.
        if side != self._declarer or not self._tricks:
            return 0
        points = self.rules._tables.counter_points
        return sum(points[face] for face in self._buried)

    # ------------------------------------------------------------- observation

    def observation(self, seat: object) -> dict[str, Any]:
        """Exactly what ``seat`` may know, as a JSON-able dict.

        Keys: ``game``, ``variant``, ``seat``, ``team`` (= seat), ``dealer``, ``phase``,
        ``current_player``; ``hand`` and ``hand_sizes``; ``auction``; ``contract`` and
        ``trump``; ``widow`` (its cards once the declarer takes it, to every seat with
        ``widow_public``, else to the declarer; ``None`` before) and ``widow_size``;
        ``buried`` (to the declarer once buried, to everybody once the tricks are played;
        else ``None``); ``melds`` (every seat's items once shown); ``thrown_in``;
        ``tricks`` and ``trick``; ``counters_taken`` (per seat, from tricks, the last
        trick bonus included once won) and ``tricks_won``; ``result`` once over.
        """
        head = self._observation_head(seat)
        names = CARD_NAMES
        declarer = self._declarer
        widow = None
        if declarer >= 0 and (self.rules.widow_public or seat == declarer):
            widow = [names[face] for face in self._widow]
        buried = None
        if self._buried and (
            seat == declarer or self._outcome in (HandOutcome.MADE, HandOutcome.SET)
        ):
            buried = [names[face] for face in self._buried]
        return {
            **head,
            **self._observation_bidding(),
            "widow": widow,
            "widow_size": self.rules.widow,
            "buried": buried,
            "melds": self._observation_melds(),
            "thrown_in": self._outcome is HandOutcome.THROWN_IN,
            **self._observation_tail(),
        }

    # ----------------------------------------------------------- legal actions

    def _legal_contains(self, action: object) -> bool:
        if self._phase is not PHASE_BURY:
            return super()._legal_contains(action)
        if not isinstance(action, Bury) or len(action.cards) != self.rules.widow:
            return False
        free = self._buryable()
        return all(action.cards.count(face) <= free[face] for face in set(action.cards))

    def _legal_count(self) -> int:
        if self._phase is PHASE_BURY:
            return count_submultisets(self._buryable(), self.rules.widow)
        return super()._legal_count()

    def _legal_index(self, index: int) -> Action | None:
        if self._phase is PHASE_BURY:
            return Bury(submultiset_at(self._buryable(), self.rules.widow, index))
        return super()._legal_index(index)

    def _legal_list(self) -> Sequence[Action] | Iterator[Action]:
        if self._phase is PHASE_BURY:
            free = self._buryable()
            return (Bury(cards) for cards in submultisets(free, self.rules.widow))
        return super()._legal_list()

    # ---------------------------------------------------------- random playout

    def play_randomly(self, rng: random.Random, *, throw_in_rate: float = 0.0) -> None:
        """Finish the hand with random legal actions: uniform over the legal actions,
        except the bury (3 random cards among those that may be buried, uniform over
        copies) and the throw-in (chosen with probability ``throw_in_rate``)."""
        draw = rng.random
        while self._phase is not PHASE_OVER:
            phase = self._phase
            if phase is PHASE_TRICKS:
                self._random_tricks(draw)
            elif phase is PHASE_BURY:
                free = self._buryable()
                pool = [CARDS[face] for face in range(NUM_FACES) for _ in range(free[face])]
                self.apply(Bury(rng.sample(pool, self.rules.widow)))
            elif phase is PHASE_THROW_IN:
                self.apply(THROW_IN if draw() < throw_in_rate else PLAY_ON)
            else:
                legal = self.legal_actions
                self.apply(legal[int(draw() * len(legal))])


CutthroatState.handlers = {
    **AUCTION_HANDLERS,
    Bury: ((PHASE_BURY,), CutthroatState._apply_bury),
}

new_cutthroat_hand = CutthroatState.new
"""Deal a three-hand hand from ``seed`` (``CutthroatState.new``): the shuffled pack in
three blocks, the first to the seat left of the dealer, then the widow."""

cutthroat_from_cards = CutthroatState.from_cards
"""Start from explicit cards (``CutthroatState.from_cards``): the three hands by seat,
then the widow (cards, card names or space-separated text).

>>> hands = ["AS AS TS TS KS KS QS QS JS JS 9S 9S AH AH TH",
...          "TH KH KH QH QH JH JH 9H 9H AD AD TD TD KD KD",
...          "QD QD JD JD 9D 9D AC AC TC TC KC KC QC QC JC"]
>>> state = cutthroat_from_cards("cutthroat3", [*hands, "JC 9C 9C"])
>>> state.observation(0)["widow_size"]
3
"""


class CutthroatGame(IndividualGame):
    """A three-hand game to ``rules.target`` (1500 in the preset), see ``IndividualGame``.

    >>> game = CutthroatGame("cutthroat3", seed=4, max_hands=3)
    >>> rng = random.Random(4)
    >>> while not game.is_terminal():
    ...     legal = game.legal_actions
    ...     game.apply(legal[rng.randrange(len(legal))])
    >>> len(game.results) <= 3, len(game.scores)
    (True, 3)
    """

    deal_hand = staticmethod(new_cutthroat_hand)
