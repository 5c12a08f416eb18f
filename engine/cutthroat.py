"""Three-hand cutthroat pinochle, variant ``cutthroat3`` (RULES.md 7.2).

Three players each for themselves, 15 cards each and a widow of 3. The auction is
``auction4``'s without pass with help; the declarer shows the widow, takes it, names trump
and buries 3 cards that serve in none of its melds (their counters count for the
declarer). Everyone melds, the declarer may throw in, then 15 tricks of three cards.

>>> state = new_cutthroat_hand("cutthroat3", seed=5, dealer=2)
>>> state.phase, state.current_player
(<CutthroatPhase.AUCTION: 'auction'>, 0)
>>> [str(action) for action in state.legal_actions]
['pass', 'bid 250', 'bid 260']
>>> for text in ("bid 250", "pass", "pass"):
...     state.apply(text)
>>> state.declarer, state.phase, len(state.hand(0))
(0, <CutthroatPhase.TRUMP: 'trump'>, 18)
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

import enum
import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine.actions import (
    PLAY_ON,
    PLAYS,
    THROW_IN,
    Action,
    Bid,
    Bury,
    NameTrump,
    Pass,
    PassWithHelp,
    Play,
    PlayOn,
    ThrowIn,
)
from engine.auction import AuctionMixin
from engine.cards import CARD_NAMES, CARDS, DECKS, NUM_FACES, Card, Rank, Suit
from engine.errors import (
    CardError,
    IllegalActionError,
    NotOverError,
    RulesError,
    UnknownVariantError,
)
from engine.individual import (
    IndividualGame,
    LegalView,
    cards_of,
    count_submultisets,
    submultisets,
)
from engine.meld import meld_items, meld_total
from engine.results import NO_MELD, HandOutcome, HandResult, MeldShown, TeamResult
from engine.rng import shuffle
from engine.rules import Rules, rules_for, variant_names
from engine.seats import check_seat
from engine.tricks import SUIT_MASK, faces_of_mask, legal_mask

__all__ = [
    "CutthroatGame",
    "CutthroatPhase",
    "CutthroatState",
    "cutthroat_from_cards",
    "new_cutthroat_hand",
]


class CutthroatPhase(enum.Enum):
    """The phases of a three-hand hand in which somebody acts."""

    AUCTION = "auction"
    TRUMP = "trump"
    BURY = "bury"
    THROW_IN = "throw_in"
    TRICKS = "tricks"
    OVER = "over"


_SUIT_OF = tuple(face // 6 for face in range(NUM_FACES))
_NAME_TRUMP = tuple(NameTrump(suit) for suit in Suit)


def _mask_of(counts: Sequence[int]) -> int:
    return sum(1 << face for face in range(NUM_FACES) if counts[face])


def _meld_cards(counts: Sequence[int], trump: int, rules: Rules) -> list[int]:
    """How many copies of each face the meld of ``counts`` needs: a card may serve in
    several classes, so a face needs the most copies any one item asks for."""
    needed = [0] * NUM_FACES
    for item in meld_items(counts, trump, rules.meld_values):
        for face in set(item.cards):
            needed[face] = max(needed[face], item.cards.count(face))
    return needed


class CutthroatState(AuctionMixin):
    """One three-hand hand, from the deal to the score (seats 0-2, each its own team).

    Build one with ``new_cutthroat_hand`` (from a seed) or ``cutthroat_from_cards``.
    """

    __slots__ = (
        "_actions",
        "_active",
        "_auction",
        "_bid",
        "_buried",
        "_dealt",
        "_declarer",
        "_hands",
        "_high_bidder",
        "_high_rung",
        "_leader",
        "_led",
        "_led_high",
        "_masks",
        "_meld_hands",
        "_melds",
        "_outcome",
        "_passed",
        "_phase",
        "_result",
        "_taken",
        "_trick",
        "_tricks",
        "_trump",
        "_turn",
        "_widow",
        "_win",
        "_win_seat",
        "_won",
        "dealer",
        "rules",
        "seed",
    )

    num_players = 3

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        widow: Sequence[int],
        *,
        dealer: int,
        seed: int | None,
    ) -> None:
        """Start from three count vectors and the widow's faces (use the factories)."""
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self._hands = [list(counts) for counts in hands]
        self._masks = [_mask_of(counts) for counts in self._hands]
        self._dealt = tuple(tuple(counts) for counts in self._hands)
        self._widow = tuple(sorted(CARDS[face] for face in widow))
        self._actions: list[Action] = []
        self._auction: list[tuple[int, Action]] = []
        self._passed = [False] * 3
        self._active = 3
        self._high_rung = -1
        self._high_bidder = -1
        self._declarer = -1
        self._bid = 0
        self._trump = -1
        self._buried: tuple[Card, ...] = ()
        self._meld_hands: tuple[tuple[int, ...], ...] = ()
        self._melds: list[int] = []
        self._trick: list[int] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._leader = -1
        self._led = -1
        self._win = -1
        self._win_seat = -1
        self._led_high = -1
        self._taken = [0, 0, 0]
        self._won = [0, 0, 0]
        self._outcome: HandOutcome | None = None
        self._result: HandResult | None = None
        self._phase = CutthroatPhase.AUCTION
        self._turn = (dealer + 1) % 3

    # ----------------------------------------------------------------- queries

    @property
    def variant(self) -> str:
        return self.rules.name

    @property
    def phase(self) -> CutthroatPhase:
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._phase is CutthroatPhase.OVER else self._turn

    @property
    def legal_actions(self) -> LegalView:
        """A live, lazy view of the current player's legal actions."""
        return LegalView(self)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def declarer(self) -> int | None:
        return self._declarer if self._declarer >= 0 else None

    @property
    def bid(self) -> int | None:
        """The contract once the auction is over, else the highest bid so far."""
        return self.rules.bids[self._high_rung] if self._high_rung >= 0 else None

    @property
    def trump(self) -> Suit | None:
        return Suit(self._trump) if self._trump >= 0 else None

    @property
    def buried(self) -> tuple[Card, ...]:
        """The declarer's buried cards (empty before the bury)."""
        return self._buried

    @property
    def deal(self) -> tuple[tuple[Card, ...], ...]:
        """The three hands dealt, by seat, then the widow."""
        return (*(cards_of(counts) for counts in self._dealt), self._widow)

    def is_terminal(self) -> bool:
        return self._phase is CutthroatPhase.OVER

    @staticmethod
    def team_of(seat: int) -> int:
        """Each player for themselves: a seat is its own team."""
        return seat

    @property
    def teams(self) -> tuple[tuple[int], ...]:
        return ((0,), (1,), (2,))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (for the engine's owner: bots get ``observation``)."""
        return cards_of(self._hands[seat])

    def dealt(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._dealt[seat])

    def copy(self) -> CutthroatState:
        """An independent copy (history included)."""
        other = CutthroatState.__new__(CutthroatState)
        for name in CutthroatState.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if isinstance(value, list) else value)
        other._hands = [counts[:] for counts in self._hands]
        return other

    # --------------------------------------------------------------- applying

    def apply(self, action: Action | str) -> None:
        """Apply the current player's ``action`` (or its text form).

        Raises ``IllegalActionError`` naming the broken rule, leaving the state unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        phases, handler = _HANDLERS.get(type(action), _NO_HANDLER)
        if self._phase not in phases:
            raise self._wrong_phase(action)
        handler(self, action)
        self._actions.append(action)

    def _wrong_phase(self, action: Action) -> IllegalActionError:
        if self._phase is CutthroatPhase.OVER:
            return IllegalActionError(action, "hand_over", "the hand is over")
        expected = {
            CutthroatPhase.AUCTION: "a bid or a pass",
            CutthroatPhase.TRUMP: "the declarer naming trump",
            CutthroatPhase.BURY: "the declarer burying cards",
            CutthroatPhase.THROW_IN: "the declarer's throw-in or play-on",
            CutthroatPhase.TRICKS: "a card played",
        }[self._phase]
        return IllegalActionError(
            action, "phase", f"the {self._phase.value} phase expects {expected}"
        )

    # ----------------------------------------------------------------- auction

    def _end_auction(self) -> None:
        declarer = self._declarer = self._turn = self._high_bidder
        self._bid = self.rules.bids[self._high_rung]
        hand = self._hands[declarer]
        for face in self._widow:
            hand[face] += 1
            self._masks[declarer] |= 1 << face
        if self.rules.trump_needs_marriage and not self._trump_choices():
            self._finish(HandOutcome.NO_MARRIAGE)
            return
        self._phase = CutthroatPhase.TRUMP

    def _trump_choices(self) -> tuple[Suit, ...]:
        if not self.rules.trump_needs_marriage:
            return tuple(Suit)
        counts = self._hands[self._declarer]
        return tuple(
            suit for suit in Suit if counts[suit * 6 + Rank.K] and counts[suit * 6 + Rank.Q]
        )

    def _apply_trump(self, action: Action) -> None:
        assert isinstance(action, NameTrump)
        if action.suit not in self._trump_choices():
            raise IllegalActionError(
                action, "trump_needs_marriage", f"the declarer holds no marriage in {action.suit}"
            )
        self._trump = int(action.suit)
        if self.rules.widow:
            self._phase = CutthroatPhase.BURY
        else:
            self._meld()

    # -------------------------------------------------------------------- bury

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
        count = self.rules.widow
        if len(action.cards) != count:
            raise IllegalActionError(
                action, "bury_count", f"exactly {count} cards are buried, not {len(action.cards)}"
            )
        hand = self._hands[self._declarer]
        free = self._buryable()
        for face in set(action.cards):
            wanted = action.cards.count(face)
            if wanted > hand[face]:
                raise IllegalActionError(
                    action,
                    "cards_not_in_hand",
                    f"seat {self._declarer} does not hold {wanted} x {CARD_NAMES[face]}",
                )
            if wanted > free[face]:
                raise IllegalActionError(
                    action,
                    "bury_meld_card",
                    f"{CARD_NAMES[face]} serves in the declarer's meld and may not be buried",
                )
        for face in action.cards:
            hand[face] -= 1
            if not hand[face]:
                self._masks[self._declarer] &= ~(1 << face)
        self._buried = action.cards
        self._meld()

    def _meld(self) -> None:
        values = self.rules.meld_values
        self._meld_hands = tuple(tuple(counts) for counts in self._hands)
        self._melds = [meld_total(counts, self._trump, values) for counts in self._hands]
        self._turn = self._declarer
        if self.rules.throw_in:
            self._phase = CutthroatPhase.THROW_IN
        else:
            self._start_tricks()

    def _apply_throw_in(self, action: Action) -> None:
        if isinstance(action, ThrowIn):
            self._finish(HandOutcome.THROWN_IN)
        else:
            self._start_tricks()

    def _start_tricks(self) -> None:
        self._phase = CutthroatPhase.TRICKS
        self._leader = self._turn = self._declarer

    # ------------------------------------------------------------------ tricks

    def _legal_mask(self) -> int:
        tables = self.rules._tables
        return legal_mask(
            self._masks[self._turn],
            self._led,
            self._win,
            self._led_high,
            self._trump,
            tables.head,
            tables.trump_if_winning,
            tables.overtrump,
        )

    def _apply_play(self, action: Action) -> None:
        assert isinstance(action, Play)
        face = action.card
        if not (self._legal_mask() >> face) & 1:
            raise self._illegal_play(action)
        self._play(face)

    def _play(self, face: int) -> None:
        seat = self._turn
        hand = self._hands[seat]
        hand[face] -= 1
        if not hand[face]:
            self._masks[seat] &= ~(1 << face)
        trick = self._trick
        trick.append(face)
        suit = _SUIT_OF[face]
        if self._led < 0:
            self._led = suit
            self._win = self._led_high = face
            self._win_seat = seat
        else:
            # Within a suit a lower face is a stronger rank; an identical card never wins.
            win = self._win
            if (suit == _SUIT_OF[win] and face < win) or (
                suit == self._trump and _SUIT_OF[win] != suit
            ):
                self._win = face
                self._win_seat = seat
            if suit == self._led and face < self._led_high:
                self._led_high = face
        if len(trick) < 3:
            self._turn = (seat + 1) % 3
            return
        winner = self._win_seat
        points = self.rules._tables.counter_points
        self._taken[winner] += points[trick[0]] + points[trick[1]] + points[trick[2]]
        self._won[winner] += 1
        self._tricks.append((self._leader, tuple(trick), winner))
        trick.clear()
        self._led = -1
        self._leader = self._turn = winner
        if len(self._tricks) == self.rules.hand_size:
            self._finish(HandOutcome.MADE)

    def _illegal_play(self, action: Play) -> IllegalActionError:
        face = action.card
        seat = self._turn
        hand_mask = self._masks[seat]
        if not (hand_mask >> face) & 1:
            return IllegalActionError(
                action, "card_not_in_hand", f"seat {seat} holds no {CARD_NAMES[face]}"
            )
        led = self._led
        if hand_mask & SUIT_MASK[led]:
            if face // 6 != led:
                return IllegalActionError(
                    action, "must_follow", f"{Suit(led)} was led and seat {seat} holds {Suit(led)}"
                )
            return IllegalActionError(
                action,
                "must_head",
                f"seat {seat} can beat the trick and must ({self.rules.must_head.value})",
            )
        if face // 6 != self._trump:
            return IllegalActionError(
                action, "must_trump", f"seat {seat} is void in {Suit(led)} and must trump"
            )
        return IllegalActionError(
            action, "must_overtrump", f"seat {seat} must play a trump that beats the trick"
        )

    # ----------------------------------------------------------------- scoring

    def _finish(self, outcome: HandOutcome) -> None:
        if outcome is HandOutcome.MADE:
            self._taken[self._win_seat] += self.rules.last_trick_bonus
            if self._points(self._declarer) < self._bid:
                outcome = HandOutcome.SET
        self._outcome = outcome
        self._phase = CutthroatPhase.OVER
        self._turn = -1

    def _buried_points(self) -> int:
        points = self.rules._tables.counter_points
        return sum(points[face] for face in self._buried)

    def _meld_counts(self, seat: int) -> bool:
        return not (self.rules.meld_needs_trick and self._tricks and not self._won[seat])

    def _points(self, seat: int) -> int:
        """Meld (if it counts) plus counters and last trick; the declarer's buried counters
        count once the tricks are played."""
        meld = self._melds[seat] if self._meld_counts(seat) else 0
        buried = self._buried_points() if seat == self._declarer and self._tricks else 0
        return meld + self._taken[seat] + buried

    def result(self) -> HandResult:
        """The hand's score per seat with its breakdown; the hand must be over."""
        if self._result is None:
            self._result = self._score()
        return self._result

    def _score(self) -> HandResult:
        outcome = self._outcome
        if outcome is None:
            raise NotOverError("the hand is not over: it has no result yet")
        shown = bool(self._melds) and outcome is not HandOutcome.NO_MARRIAGE
        played = outcome in (HandOutcome.MADE, HandOutcome.SET)
        last_seat = self._tricks[-1][2] if played else -1
        seats = []
        for seat in range(3):
            meld = self._melds[seat] if shown else 0
            details = (
                MeldShown([(seat, self._meld_hands[seat])], self._trump, self.rules.meld_values)
                if shown
                else NO_MELD
            )
            counted = shown and self._meld_counts(seat)
            last = self.rules.last_trick_bonus if seat == last_seat else 0
            counters = self._taken[seat] - last
            if played and seat == self._declarer:
                counters += self._buried_points()
            if outcome is HandOutcome.PASSED_OUT:
                score = 0
            elif seat == self._declarer:
                score = self._points(seat) if outcome is HandOutcome.MADE else -self._bid
            elif outcome is HandOutcome.NO_MARRIAGE:
                score = 0
            elif outcome is HandOutcome.THROWN_IN:
                score = meld
            else:
                score = self._points(seat)
            seats.append(
                TeamResult(
                    seat, (seat,), meld, counted, counters, last, self._won[seat], score, details
                )
            )
        return HandResult(
            outcome,
            self.declarer,
            self._bid if self._declarer >= 0 else None,
            self.trump,
            tuple(seats),
        )

    # ------------------------------------------------------------- observation

    def observation(self, seat: int) -> dict[str, Any]:
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
        check_seat(seat, 3)
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
        melds = None
        if self._melds and self._outcome is not HandOutcome.NO_MARRIAGE:
            values = self.rules.meld_values
            melds = [
                {
                    "seat": s,
                    "total": self._melds[s],
                    "items": [item.to_json() for item in meld_items(counts, self._trump, values)],
                }
                for s, counts in enumerate(self._meld_hands)
            ]
        return {
            "game": self.rules.game,
            "variant": self.rules.name,
            "seat": seat,
            "team": seat,
            "dealer": self.dealer,
            "phase": self._phase.value,
            "current_player": self.current_player,
            "hand": [names[face] for face in self.hand(seat)],
            "hand_sizes": [sum(counts) for counts in self._hands],
            "auction": [{"seat": s, "action": str(a)} for s, a in self._auction],
            "contract": ({"declarer": declarer, "bid": self._bid} if declarer >= 0 else None),
            "trump": None if self._trump < 0 else str(Suit(self._trump)),
            "widow": widow,
            "widow_size": self.rules.widow,
            "buried": buried,
            "melds": melds,
            "thrown_in": self._outcome is HandOutcome.THROWN_IN,
            "tricks": [
                {"leader": leader, "cards": [names[face] for face in cards], "winner": winner}
                for leader, cards, winner in self._tricks
            ],
            "trick": {
                "leader": self._leader if self._trick else None,
                "cards": [names[face] for face in self._trick],
            },
            "counters_taken": list(self._taken),
            "tricks_won": list(self._won),
            "result": self.result().to_json() if self._outcome is not None else None,
        }

    # ----------------------------------------------------------- legal actions

    def _legal_contains(self, action: object) -> bool:
        phase = self._phase
        if phase is CutthroatPhase.TRICKS:
            return type(action) is Play and bool((self._legal_mask() >> action.card) & 1)
        if phase is CutthroatPhase.AUCTION:
            if isinstance(action, Bid):
                rung = self.rules._tables.bid_index.get(action.amount)
                return rung is not None and rung in self._bid_rungs()
            return action in self._pass_actions()
        if phase is CutthroatPhase.TRUMP:
            return isinstance(action, NameTrump) and action.suit in self._trump_choices()
        if phase is CutthroatPhase.BURY:
            if not isinstance(action, Bury) or len(action.cards) != self.rules.widow:
                return False
            free = self._buryable()
            return all(action.cards.count(face) <= free[face] for face in set(action.cards))
        if phase is CutthroatPhase.THROW_IN:
            return isinstance(action, ThrowIn | PlayOn)
        return False

    def _legal_count(self) -> int:
        phase = self._phase
        if phase is CutthroatPhase.TRICKS:
            return self._legal_mask().bit_count()
        if phase is CutthroatPhase.AUCTION:
            return len(self._pass_actions()) + len(self._bid_rungs())
        if phase is CutthroatPhase.TRUMP:
            return len(self._trump_choices())
        if phase is CutthroatPhase.BURY:
            return count_submultisets(self._buryable(), self.rules.widow)
        if phase is CutthroatPhase.THROW_IN:
            return 2
        return 0

    def _legal_list(self) -> Sequence[Action] | Iterator[Action]:
        phase = self._phase
        if phase is CutthroatPhase.TRICKS:
            return [PLAYS[face] for face in faces_of_mask(self._legal_mask())]
        if phase is CutthroatPhase.AUCTION:
            bids = self.rules.bids
            return [*self._pass_actions(), *(Bid(bids[rung]) for rung in self._bid_rungs())]
        if phase is CutthroatPhase.TRUMP:
            return [_NAME_TRUMP[suit] for suit in self._trump_choices()]
        if phase is CutthroatPhase.BURY:
            free = self._buryable()
            return (Bury(cards) for cards in submultisets(free, self.rules.widow))
        if phase is CutthroatPhase.THROW_IN:
            return [THROW_IN, PLAY_ON]
        return []

    def _legal_index(self, index: int) -> Action | None:
        phase = self._phase
        if phase is CutthroatPhase.TRICKS:
            return PLAYS[faces_of_mask(self._legal_mask())[index]]
        if phase is CutthroatPhase.AUCTION:
            passes = self._pass_actions()
            if index < len(passes):
                return passes[index]
            return Bid(self.rules.bids[self._bid_rungs()[index - len(passes)]])
        return None

    # ---------------------------------------------------------- random playout

    def play_randomly(self, rng: random.Random, *, throw_in_rate: float = 0.0) -> None:
        """Finish the hand with random legal actions: uniform over the legal actions,
        except the bury (3 random cards among those that may be buried, uniform over
        copies) and the throw-in (chosen with probability ``throw_in_rate``)."""
        draw = rng.random
        while self._phase is not CutthroatPhase.OVER:
            phase = self._phase
            if phase is CutthroatPhase.TRICKS:
                mask = self._legal_mask()
                skip = int(draw() * mask.bit_count())
                while skip:
                    mask &= mask - 1
                    skip -= 1
                face = (mask & -mask).bit_length() - 1
                self._play(face)
                self._actions.append(PLAYS[face])
            elif phase is CutthroatPhase.BURY:
                free = self._buryable()
                pool = [CARDS[face] for face in range(NUM_FACES) for _ in range(free[face])]
                self.apply(Bury(rng.sample(pool, self.rules.widow)))
            elif phase is CutthroatPhase.THROW_IN:
                self.apply(THROW_IN if draw() < throw_in_rate else PLAY_ON)
            else:
                legal = self.legal_actions
                self.apply(legal[int(draw() * len(legal))])


_HANDLERS: dict[type, tuple[tuple[CutthroatPhase, ...], Any]] = {
    Play: ((CutthroatPhase.TRICKS,), CutthroatState._apply_play),
    Bid: ((CutthroatPhase.AUCTION,), CutthroatState._apply_bid),
    Pass: ((CutthroatPhase.AUCTION,), CutthroatState._apply_pass),
    PassWithHelp: ((CutthroatPhase.AUCTION,), CutthroatState._apply_pass),
    NameTrump: ((CutthroatPhase.TRUMP,), CutthroatState._apply_trump),
    Bury: ((CutthroatPhase.BURY,), CutthroatState._apply_bury),
    ThrowIn: ((CutthroatPhase.THROW_IN,), CutthroatState._apply_throw_in),
    PlayOn: ((CutthroatPhase.THROW_IN,), CutthroatState._apply_throw_in),
}
_NO_HANDLER: tuple[tuple[CutthroatPhase, ...], Any] = ((), None)


def _resolve(variant: str, rules: Rules | None, dealer: int) -> Rules:
    rules = rules_for(variant) if rules is None else rules
    if rules.name != variant:
        raise RulesError("name", f"the rules are for {rules.name!r}, not {variant!r}")
    if rules.game != "pinochle3":
        raise UnknownVariantError(variant, variant_names("pinochle3"), "three-hand")
    check_seat(dealer, 3, "dealer")
    return rules


def new_cutthroat_hand(
    variant: str, *, seed: int, dealer: int = 0, rules: Rules | None = None
) -> CutthroatState:
    """Deal a three-hand hand from ``seed`` (generator ``splitmix64-fy-v1``): the shuffled
    pack in three blocks, the first to the seat left of the dealer, then the widow."""
    rules = _resolve(variant, rules, dealer)
    pack = shuffle(DECKS[rules.deck].cards(), seed)
    size = rules.hand_size
    hands = [[0] * NUM_FACES for _ in range(3)]
    for block in range(3):
        counts = hands[(dealer + 1 + block) % 3]
        for face in pack[block * size : (block + 1) * size]:
            counts[face] += 1
    return CutthroatState(rules, hands, pack[3 * size :], dealer=dealer, seed=seed)


def cutthroat_from_cards(
    variant: str,
    deal: Sequence[Sequence[int | str] | str],
    *,
    dealer: int = 0,
    rules: Rules | None = None,
) -> CutthroatState:
    """Start from explicit cards: the three hands by seat, then the widow (cards, card
    names or space-separated text).

    >>> hands = ["AS AS TS TS KS KS QS QS JS JS 9S 9S AH AH TH",
    ...          "TH KH KH QH QH JH JH 9H 9H AD AD TD TD KD KD",
    ...          "QD QD JD JD 9D 9D AC AC TC TC KC KC QC QC JC"]
    >>> state = cutthroat_from_cards("cutthroat3", [*hands, "JC 9C 9C"])
    >>> state.deal[3]
    (Card.parse('JC'), Card.parse('9C'), Card.parse('9C'))
    """
    rules = _resolve(variant, rules, dealer)
    if len(deal) != 4:
        raise CardError(f"three hands and the widow are needed, got {len(deal)} parts")
    deck = DECKS[rules.deck]
    parts: list[list[Card]] = []
    for index, part in enumerate(deal):
        tokens = part.split() if isinstance(part, str) else list(part)
        cards = [Card.parse(token) if isinstance(token, str) else Card(token) for token in tokens]
        expected = rules.hand_size if index < 3 else rules.widow
        if len(cards) != expected:
            where = f"seat {index}" if index < 3 else "the widow"
            raise CardError(f"{where} has {len(cards)} cards; {variant} deals {expected}")
        parts.append(cards)
    deck.counts([card for cards in parts for card in cards])
    hands = [deck.counts(cards) for cards in parts[:3]]
    return CutthroatState(rules, hands, parts[3], dealer=dealer, seed=None)


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
