"""The state machine of one four-hand pinochle hand (RULES.md sections 2-5 and 10).

>>> state = new_hand("single4", seed=7)
>>> state.phase, state.current_player
(<Phase.AUCTION: 'auction'>, 1)
>>> Bid(16) in state.legal_actions, len(state.legal_actions)
(True, 236)
>>> state.apply(Action.parse("bid 20"))
>>> state.apply("pass")
>>> [str(action) for action in state.actions]
['bid 20', 'pass']
>>> state.apply("bid 19")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalActionError: illegal action 'bid 19': ... (rule: bid_ladder)
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
    Give,
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
from engine.meld import meld_items, meld_total
from engine.results import NO_MELD, HandOutcome, HandResult, MeldShown, TeamResult
from engine.rng import shuffle
from engine.rules import Rules, rules_for, variant_names
from engine.seats import check_seat
from engine.tricks import SUIT_MASK, faces_of_mask, legal_mask

__all__ = ["HandState", "LegalActions", "Phase", "hand_from_cards", "new_hand"]


class Phase(enum.Enum):
    """The phases of a hand in which somebody acts (meld is scored automatically)."""

    AUCTION = "auction"
    TRUMP = "trump"
    PASS_TO_DECLARER = "pass_to_declarer"
    PASS_BACK = "pass_back"
    THROW_IN = "throw_in"
    TRICKS = "tricks"
    OVER = "over"


_BIT = tuple(1 << face for face in range(NUM_FACES))
_CLEAR = tuple(~(1 << face) for face in range(NUM_FACES))
_SUIT_OF = tuple(face // 6 for face in range(NUM_FACES))
_KING = Rank.K
_QUEEN = Rank.Q


def _cards_of(counts: Sequence[int]) -> tuple[Card, ...]:
    cards: list[Card] = []
    for face, count in enumerate(counts):
        if count:
            cards += (CARDS[face],) * count
    return tuple(cards)


def _mask_of(counts: Sequence[int]) -> int:
    mask = 0
    for face in range(NUM_FACES):
        if counts[face]:
            mask |= 1 << face
    return mask


class HandState(AuctionMixin):
    """One hand, from the deal to the score.

    Seats are 0-3 clockwise; partners sit opposite (team = seat % 2). Build one with
    ``new_hand`` (from a seed) or ``hand_from_cards`` (from explicit hands).
    """

    __slots__ = (
        "_actions",
        "_active",
        "_auction",
        "_bid",
        "_dealt",
        "_declarer",
        "_given",
        "_hands",
        "_high_bidder",
        "_high_rung",
        "_leader",
        "_led",
        "_led_high",
        "_legal",
        "_legal_at",
        "_masks",
        "_meld_hands",
        "_meld_json",
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
        "_win",
        "_win_seat",
        "_won",
        "dealer",
        "rules",
        "seed",
    )

    num_players = 4

    def __init__(
        self, rules: Rules, hands: Sequence[Sequence[int]], *, dealer: int, seed: int | None
    ) -> None:
        """Start a hand from four count vectors (use ``new_hand`` or ``hand_from_cards``)."""
        counts = [list(seat_counts) for seat_counts in hands]
        self._start(rules, counts, [_mask_of(seat_counts) for seat_counts in counts], dealer, seed)

    def _start(
        self,
        rules: Rules,
        hands: list[list[int]],
        masks: list[int],
        dealer: int,
        seed: int | None,
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self._hands = hands
        self._dealt = tuple(map(tuple, hands))
        self._masks = masks
        self._actions: list[Action] = []
        self._auction: list[tuple[int, Action]] = []
        self._passed = [False] * 4
        self._active = 4
        self._high_rung = -1
        self._high_bidder = -1
        self._declarer = -1
        self._bid = 0
        self._trump = -1
        self._given: list[tuple[Card, ...]] = []
        self._meld_hands: tuple[tuple[int, ...], ...] = ()
        self._meld_json: tuple[tuple[dict[str, Any], ...], ...] | None = None
        self._melds: list[int] = []
        self._trick: list[int] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._leader = -1
        self._legal = 0
        self._legal_at = -1
        self._led = -1
        self._win = -1
        self._win_seat = -1
        self._led_high = -1
        self._taken = [0, 0]
        self._won = [0, 0]
        self._outcome: HandOutcome | None = None
        self._result: HandResult | None = None
        self._phase = Phase.AUCTION
        self._turn = (dealer + 1) % 4

    # ----------------------------------------------------------------- queries

    @property
    def variant(self) -> str:
        return self.rules.name

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._phase is Phase.OVER else self._turn

    @property
    def legal_actions(self) -> LegalActions:
        """A live, lazy view of the current player's legal actions."""
        return LegalActions(self)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
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

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    @staticmethod
    def team_of(seat: int) -> int:
        """Partners sit opposite: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return seat % 2

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return ((0, 2), (1, 3))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (for the engine's owner: bots get ``observation``)."""
        return _cards_of(self._hands[seat])

    def dealt(self, seat: int) -> tuple[Card, ...]:
        """The cards dealt to ``seat``."""
        return _cards_of(self._dealt[seat])

    def copy(self) -> HandState:
        """An independent copy (history included)."""
        # Spelled out slot by slot because searching bots copy states in their inner loop;
        # a slot left out here fails loudly (AttributeError) in the copy-and-play tests.
        other = HandState.__new__(HandState)
        other.rules = self.rules
        other.dealer = self.dealer
        other.seed = self.seed
        other._hands = [counts[:] for counts in self._hands]
        other._dealt = self._dealt
        other._masks = self._masks[:]
        other._actions = self._actions[:]
        other._auction = self._auction[:]
        other._passed = self._passed[:]
        other._active = self._active
        other._high_rung = self._high_rung
        other._high_bidder = self._high_bidder
        other._declarer = self._declarer
        other._bid = self._bid
        other._trump = self._trump
        other._given = self._given[:]
        other._meld_hands = self._meld_hands
        other._meld_json = self._meld_json
        other._melds = self._melds[:]
        other._trick = self._trick[:]
        other._tricks = self._tricks[:]
        other._leader = self._leader
        other._legal = self._legal
        other._legal_at = self._legal_at
        other._led = self._led
        other._win = self._win
        other._win_seat = self._win_seat
        other._led_high = self._led_high
        other._taken = self._taken[:]
        other._won = self._won[:]
        other._outcome = self._outcome
        other._result = self._result
        other._phase = self._phase
        other._turn = self._turn
        return other

    # --------------------------------------------------------------- applying

    def apply(self, action: Action | str) -> None:
        """Apply the current player's ``action`` (or its text form).

        Raises ``IllegalActionError`` naming the broken rule, leaving the state unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if type(action) is Play and self._phase is Phase.TRICKS:
            face = action.card
            if not (self._legal_mask() >> face) & 1:
                raise self._illegal_play(action)
            self._play(face)
            self._actions.append(action)
            return
        phases, handler = _HANDLERS.get(type(action), _NO_HANDLER)
        if self._phase not in phases:
            raise self._wrong_phase(action)
        handler(self, action)
        self._actions.append(action)

    def _wrong_phase(self, action: Action) -> IllegalActionError:
        if self._phase is Phase.OVER:
            return IllegalActionError(action, "hand_over", "the hand is over")
        if not isinstance(action, Action):
            return IllegalActionError(action, "not_an_action", f"{action!r} is not an action")
        expected = {
            Phase.AUCTION: "a bid or a pass",
            Phase.TRUMP: "the declarer naming trump",
            Phase.PASS_TO_DECLARER: "the partner giving cards to the declarer",
            Phase.PASS_BACK: "the declarer giving cards back",
            Phase.THROW_IN: "the declarer's throw-in or play-on",
            Phase.TRICKS: "a card played",
        }[self._phase]
        return IllegalActionError(
            action, "phase", f"the {self._phase.value} phase expects {expected}"
        )

    # ----------------------------------------------------------------- auction

    def _end_auction(self) -> None:
        declarer = self._high_bidder
        self._declarer = declarer
        self._bid = self.rules.bids[self._high_rung]
        if self.rules.trump_needs_marriage and not self._marriage_suits(declarer):
            self._finish(HandOutcome.NO_MARRIAGE)
            return
        self._phase = Phase.TRUMP
        self._turn = declarer

    def _marriage_suits(self, seat: int) -> tuple[Suit, ...]:
        counts = self._hands[seat]
        return tuple(
            suit for suit in Suit if counts[suit * 6 + _KING] and counts[suit * 6 + _QUEEN]
        )

    def _trump_choices(self) -> tuple[Suit, ...]:
        if self.rules.trump_needs_marriage:
            return self._marriage_suits(self._declarer)
        return tuple(Suit)

    # ------------------------------------------------------- trump and passing

    def _apply_trump(self, action: Action) -> None:
        assert isinstance(action, NameTrump)
        if action.suit not in self._trump_choices():
            raise IllegalActionError(
                action,
                "trump_needs_marriage",
                f"the declarer holds no marriage in {action.suit}",
            )
        self._trump = int(action.suit)
        if self.rules.pass_count:
            self._phase = Phase.PASS_TO_DECLARER
            self._turn = (self._declarer + 2) % 4
        else:
            self._meld()

    def _apply_give(self, action: Action) -> None:
        assert isinstance(action, Give)
        count = self.rules.pass_count
        if len(action.cards) != count:
            raise IllegalActionError(
                action, "pass_count", f"exactly {count} cards are passed, not {len(action.cards)}"
            )
        giver = self._turn
        hand = self._hands[giver]
        wanted = [0] * NUM_FACES
        for face in action.cards:
            wanted[face] += 1
            if wanted[face] > hand[face]:
                raise IllegalActionError(
                    action,
                    "cards_not_in_hand",
                    f"seat {giver} does not hold {wanted[face]} x {CARD_NAMES[face]}",
                )
        receiver = (giver + 2) % 4
        target = self._hands[receiver]
        for face in action.cards:
            hand[face] -= 1
            target[face] += 1
            if not hand[face]:
                self._masks[giver] &= _CLEAR[face]
            self._masks[receiver] |= 1 << face
        self._given.append(action.cards)
        if self._phase is Phase.PASS_TO_DECLARER:
            self._phase = Phase.PASS_BACK
            self._turn = receiver
        else:
            self._meld()

    def _meld(self) -> None:
        values = self.rules.meld_values
        trump = self._trump
        self._meld_hands = tuple(tuple(counts) for counts in self._hands)
        self._melds = [meld_total(counts, trump, values) for counts in self._hands]
        self._turn = self._declarer
        if self.rules.throw_in:
            self._phase = Phase.THROW_IN
        else:
            self._start_tricks()

    def _apply_throw_in(self, action: Action) -> None:
        if isinstance(action, ThrowIn):
            self._finish(HandOutcome.THROWN_IN)
        else:
            self._start_tricks()

    def _start_tricks(self) -> None:
        self._phase = Phase.TRICKS
        self._leader = self._turn = self._declarer

    # ------------------------------------------------------------------ tricks

    def _legal_mask(self) -> int:
        # A driver asks len(legal_actions), then legal_actions[i], then apply(): the mask
        # is kept until the next action (the history length identifies the position).
        if self._legal_at == len(self._actions):
            return self._legal
        tables = self.rules._tables
        mask = legal_mask(
            self._masks[self._turn],
            self._led,
            self._win,
            self._led_high,
            self._trump,
            tables.head,
            tables.trump_if_winning,
            tables.overtrump,
        )
        self._legal = mask
        self._legal_at = len(self._actions)
        return mask

    def _play(self, face: int) -> None:
        """Play ``face`` for the current player; the caller has checked it is legal."""
        seat = self._turn
        hand = self._hands[seat]
        left = hand[face] - 1
        hand[face] = left
        if not left:
            self._masks[seat] &= _CLEAR[face]
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
            if suit == _SUIT_OF[win]:
                if face < win:
                    self._win = face
                    self._win_seat = seat
            elif suit == self._trump:
                self._win = face
                self._win_seat = seat
            if suit == self._led and face < self._led_high:
                self._led_high = face
        if len(trick) < 4:
            self._turn = (seat + 1) % 4
            return
        winner = self._win_seat
        team = winner % 2
        points = self.rules._tables.counter_points
        self._taken[team] += (
            points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        )
        self._won[team] += 1
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
        led, trump = self._led, self._trump
        suit = face // 6
        if hand_mask & SUIT_MASK[led]:
            if suit != led:
                return IllegalActionError(
                    action, "must_follow", f"{Suit(led)} was led and seat {seat} holds {Suit(led)}"
                )
            return IllegalActionError(
                action,
                "must_head",
                f"seat {seat} can beat the trick and must ({self.rules.must_head.value})",
            )
        if suit != trump:
            return IllegalActionError(
                action, "must_trump", f"seat {seat} is void in {Suit(led)} and must trump"
            )
        return IllegalActionError(
            action, "must_overtrump", f"seat {seat} must play a trump that beats the trick"
        )

    # ----------------------------------------------------------------- scoring

    def _finish(self, outcome: HandOutcome) -> None:
        if outcome is HandOutcome.MADE:
            bonus = self.rules.last_trick_bonus
            self._taken[self._win_seat % 2] += bonus
            team = self._declarer % 2
            if self._team_points(team) < self._bid:
                outcome = HandOutcome.SET
        self._outcome = outcome
        self._phase = Phase.OVER
        self._turn = -1

    def _meld_counts(self, team: int) -> bool:
        return not (self.rules.meld_needs_trick and self._tricks and not self._won[team])

    def _team_points(self, team: int) -> int:
        meld = self._melds[team] + self._melds[team + 2] if self._melds else 0
        return (meld if self._meld_counts(team) else 0) + self._taken[team]

    def result(self) -> HandResult:
        """The hand's score per team with its breakdown; the hand must be over."""
        if self._result is None:
            self._result = self._score()
        return self._result

    def _score(self) -> HandResult:
        outcome = self._outcome
        if outcome is None:
            raise NotOverError("the hand is not over: it has no result yet")
        shown = bool(self._melds) and outcome is not HandOutcome.NO_MARRIAGE
        last_team = (
            self._tricks[-1][2] % 2
            if self._tricks and len(self._tricks) == self.rules.hand_size
            else -1
        )
        teams = []
        declaring = self._declarer % 2 if self._declarer >= 0 else -1
        for team in (0, 1):
            seats = (team, team + 2)
            meld = self._melds[team] + self._melds[team + 2] if shown else 0
            details = (
                MeldShown(
                    [(seat, self._meld_hands[seat]) for seat in seats],
                    self._trump,
                    self.rules.meld_values,
                )
                if shown
                else NO_MELD
            )
            counted = shown and self._meld_counts(team)
            last = self.rules.last_trick_bonus if team == last_team else 0
            counters = self._taken[team] - last
            total = (meld if counted else 0) + self._taken[team]
            if outcome is HandOutcome.PASSED_OUT:
                score = 0
            elif team == declaring:
                score = total if outcome is HandOutcome.MADE else -self._bid
            elif outcome is HandOutcome.NO_MARRIAGE:
                score = 0
            else:
                score = total
            teams.append(
                TeamResult(
                    team, seats, meld, counted, counters, last, self._won[team], score, details
                )
            )
        return HandResult(
            outcome,
            self.declarer,
            self._bid if self._declarer >= 0 else None,
            self.trump,
            tuple(teams),
        )

    # ------------------------------------------------------------- observation

    def observation(self, seat: int) -> dict[str, Any]:
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
        check_seat(seat, 4)
        passing = []
        for index, cards in enumerate(self._given):
            giver = (self._declarer + 2) % 4 if index == 0 else self._declarer
            receiver = (giver + 2) % 4
            entry: dict[str, Any] = {"from": giver, "to": receiver, "count": len(cards)}
            if seat in (giver, receiver):
                entry["cards"] = [CARD_NAMES[face] for face in cards]
            passing.append(entry)
        melds = None
        if self._melds and self._outcome is not HandOutcome.NO_MARRIAGE:
            # Items are computed once; each observation gets its own dicts and lists.
            if self._meld_json is None:
                values = self.rules.meld_values
                self._meld_json = tuple(
                    tuple(item.to_json() for item in meld_items(counts, self._trump, values))
                    for counts in self._meld_hands
                )
            melds = [
                {
                    "seat": s,
                    "total": self._melds[s],
                    "items": [{**item, "cards": item["cards"][:]} for item in items],
                }
                for s, items in enumerate(self._meld_json)
            ]
        names = CARD_NAMES
        return {
            "game": self.rules.game,
            "variant": self.rules.name,
            "seat": seat,
            "team": seat % 2,
            "dealer": self.dealer,
            "phase": self._phase.value,
            "current_player": self.current_player,
            "hand": [names[face] for face in self.hand(seat)],
            "hand_sizes": [sum(counts) for counts in self._hands],
            "auction": [{"seat": s, "action": str(a)} for s, a in self._auction],
            "contract": (
                {"declarer": self._declarer, "bid": self._bid} if self._declarer >= 0 else None
            ),
            "trump": None if self._trump < 0 else str(Suit(self._trump)),
            "passing": passing,
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

    # ---------------------------------------------------------- random playout

    def play_randomly(self, rng: random.Random, *, throw_in_rate: float = 0.0) -> None:
        """Finish the hand with random legal actions.

        Every choice is uniform over the legal actions, except two: a pass of cards takes
        ``pass_count`` random cards of the hand (uniform over copies), and the throw-in is
        chosen with probability ``throw_in_rate``. Cards are chosen among the faces
        allowed by the same legality function ``apply`` uses.
        """
        draw = rng.random
        while self._phase is not Phase.OVER:
            phase = self._phase
            if phase is Phase.TRICKS:
                self._random_tricks(draw)
            elif phase is Phase.PASS_TO_DECLARER or phase is Phase.PASS_BACK:
                cards = rng.sample(self.hand(self._turn), self.rules.pass_count)
                self.apply(Give(cards))
            elif phase is Phase.THROW_IN:
                self.apply(THROW_IN if draw() < throw_in_rate else PLAY_ON)
            elif phase is Phase.TRUMP:
                suits = self._trump_choices()
                self.apply(_NAME_TRUMP[suits[int(draw() * len(suits))]])
            elif phase is Phase.AUCTION:
                passes = self._pass_actions()
                rungs = self._bid_rungs()
                choice = int(draw() * (len(passes) + len(rungs)))
                if choice < len(passes):
                    self.apply(passes[choice])
                else:
                    self.apply(_bid(self.rules.bids[rungs[choice - len(passes)]]))
            else:
                legal = self.legal_actions
                self.apply(legal[int(draw() * len(legal))])

    def _random_tricks(self, draw: Any) -> None:
        # The same rules as ``_play``, with the trick kept in local variables: this loop
        # is most of the time of a random playout. Replaying its history through
        # ``apply`` reproduces the same hand (tested), which keeps the two in step.
        tables = self.rules._tables
        head, if_winning, overtrump = tables.head, tables.trump_if_winning, tables.overtrump
        points = tables.counter_points
        hand_size = tables.hand_size
        hands, masks, trump = self._hands, self._masks, self._trump
        tricks, trick = self._tricks, self._trick
        record, add_card = self._actions.append, trick.append
        suit_of, clear, plays = _SUIT_OF, _CLEAR, PLAYS
        taken, won = self._taken, self._won
        seat, leader = self._turn, self._leader
        led, win, win_seat, led_high = self._led, self._win, self._win_seat, self._led_high
        in_trick = len(trick)
        while True:
            mask = legal_mask(masks[seat], led, win, led_high, trump, head, if_winning, overtrump)
            skip = int(draw() * mask.bit_count())
            while skip:
                mask &= mask - 1
                skip -= 1
            face = (mask & -mask).bit_length() - 1
            record(plays[face])
            hand = hands[seat]
            left = hand[face] - 1
            hand[face] = left
            if not left:
                masks[seat] &= clear[face]
            add_card(face)
            suit = suit_of[face]
            if led < 0:
                led = suit
                win = led_high = face
                win_seat = seat
            else:
                if suit == suit_of[win]:
                    if face < win:
                        win = face
                        win_seat = seat
                elif suit == trump:
                    win = face
                    win_seat = seat
                if suit == led and face < led_high:
                    led_high = face
            in_trick += 1
            if in_trick < 4:
                seat = (seat + 1) % 4
                continue
            team = win_seat % 2
            taken[team] += points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
            won[team] += 1
            tricks.append((leader, tuple(trick), win_seat))
            trick.clear()
            in_trick = 0
            led = -1
            leader = seat = win_seat
            if len(tricks) == hand_size:
                break
        self._turn, self._leader = seat, leader
        self._led, self._win, self._win_seat, self._led_high = led, win, win_seat, led_high
        self._finish(HandOutcome.MADE)


_NAME_TRUMP = tuple(NameTrump(suit) for suit in Suit)
_BIDS: dict[int, Bid] = {}


def _bid(amount: int) -> Bid:
    """An interned ``Bid``: random auctions would otherwise build one per call."""
    bid = _BIDS.get(amount)
    if bid is None:
        bid = _BIDS[amount] = Bid(amount)
    return bid


# Keyed by action type alone: hashing an Enum member runs Python code, a type's does not.
_HANDLERS: dict[type, tuple[tuple[Phase, ...], Any]] = {
    Bid: ((Phase.AUCTION,), HandState._apply_bid),
    Pass: ((Phase.AUCTION,), HandState._apply_pass),
    PassWithHelp: ((Phase.AUCTION,), HandState._apply_pass),
    NameTrump: ((Phase.TRUMP,), HandState._apply_trump),
    Give: ((Phase.PASS_TO_DECLARER, Phase.PASS_BACK), HandState._apply_give),
    ThrowIn: ((Phase.THROW_IN,), HandState._apply_throw_in),
    PlayOn: ((Phase.THROW_IN,), HandState._apply_throw_in),
}
_NO_HANDLER: tuple[tuple[Phase, ...], Any] = ((), None)


class LegalActions:
    """A live view of the current player's legal actions: ``in``, iteration, ``len``,
    indexing. Nothing is built until asked for.
    """

    __slots__ = ("_state",)

    def __init__(self, state: HandState) -> None:
        self._state = state

    def __contains__(self, action: object) -> bool:
        state = self._state
        phase = state._phase
        if phase is Phase.TRICKS:
            return type(action) is Play and bool((state._legal_mask() >> action.card) & 1)
        if phase is Phase.AUCTION:
            if isinstance(action, Bid):
                rung = state.rules._tables.bid_index.get(action.amount)
                return rung is not None and rung in state._bid_rungs()
            return action in state._pass_actions()
        if phase is Phase.TRUMP:
            return isinstance(action, NameTrump) and action.suit in state._trump_choices()
        if phase is Phase.PASS_TO_DECLARER or phase is Phase.PASS_BACK:
            if not isinstance(action, Give) or len(action.cards) != state.rules.pass_count:
                return False
            hand = state._hands[state._turn]
            return all(action.cards.count(card) <= hand[card] for card in set(action.cards))
        if phase is Phase.THROW_IN:
            return isinstance(action, ThrowIn | PlayOn)
        return False

    def __len__(self) -> int:
        state = self._state
        phase = state._phase
        if phase is Phase.TRICKS:
            return state._legal_mask().bit_count()
        if phase is Phase.AUCTION:
            return len(state._pass_actions()) + len(state._bid_rungs())
        if phase is Phase.TRUMP:
            return len(state._trump_choices())
        if phase is Phase.PASS_TO_DECLARER or phase is Phase.PASS_BACK:
            return _count_submultisets(state._hands[state._turn], state.rules.pass_count)
        if phase is Phase.THROW_IN:
            return 2
        return 0

    def __bool__(self) -> bool:
        return self._state._phase is not Phase.OVER

    def __iter__(self) -> Iterator[Action]:
        state = self._state
        phase = state._phase
        if phase is Phase.TRICKS:
            mask = state._legal_mask()
            return iter([PLAYS[face] for face in range(NUM_FACES) if mask >> face & 1])
        if phase is Phase.AUCTION:
            bids = state.rules.bids
            return iter([*state._pass_actions(), *(Bid(bids[rung]) for rung in state._bid_rungs())])
        if phase is Phase.TRUMP:
            return iter([_NAME_TRUMP[suit] for suit in state._trump_choices()])
        if phase is Phase.PASS_TO_DECLARER or phase is Phase.PASS_BACK:
            hand = list(state._hands[state._turn])
            return (Give(cards) for cards in _submultisets(hand, state.rules.pass_count, 0))
        if phase is Phase.THROW_IN:
            return iter([THROW_IN, PLAY_ON])
        return iter(())

    def __getitem__(self, index: int) -> Action:
        state = self._state
        if state._phase is Phase.TRICKS:
            return PLAYS[faces_of_mask(state._legal_mask())[index]]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("legal action index out of range")
        if state._phase is Phase.AUCTION:
            passes = state._pass_actions()
            if index < len(passes):
                return passes[index]
            return _bid(state.rules.bids[state._bid_rungs()[index - len(passes)]])
        for position, action in enumerate(self):
            if position == index:
                return action
        raise IndexError("legal action index out of range")

    def __repr__(self) -> str:
        shown = ", ".join(str(action) for action in list(self)[:12])
        more = ", ..." if len(self) > 12 else ""
        return f"<LegalActions ({len(self)}): {shown}{more}>"


def _count_submultisets(counts: Sequence[int], size: int) -> int:
    ways = [1] + [0] * size
    for count in counts:
        if count:
            ways = [
                sum(ways[total - k] for k in range(min(count, total) + 1))
                for total in range(size + 1)
            ]
    return ways[size]


def _submultisets(counts: list[int], size: int, start: int) -> Iterator[tuple[Card, ...]]:
    if size == 0:
        yield ()
        return
    for face in range(start, NUM_FACES):
        if counts[face]:
            counts[face] -= 1
            for rest in _submultisets(counts, size - 1, face):
                yield (CARDS[face], *rest)
            counts[face] += 1


def new_hand(variant: str, *, seed: int, dealer: int = 0, rules: Rules | None = None) -> HandState:
    """Deal a hand of ``variant`` from ``seed`` with generator ``splitmix64-fy-v1``.

    The shuffled pack is dealt in four blocks, the first to the seat left of the dealer.
    ``rules`` (a league's rules for this variant) replaces the preset.
    """
    rules = _resolve(variant, rules)
    _check_dealer(dealer)
    pack = shuffle(list(_PACKS[rules.deck]), seed)
    size = rules.hand_size
    hands = [[0] * NUM_FACES for _ in range(4)]
    masks = [0, 0, 0, 0]
    for block in range(4):
        seat = (dealer + 1 + block) % 4
        counts = hands[seat]
        mask = 0
        for face in pack[block * size : (block + 1) * size]:
            counts[face] += 1
            mask |= _BIT[face]
        masks[seat] = mask
    # Dealing is a large share of a random playout, so the state is built without copies.
    state = HandState.__new__(HandState)
    state._start(rules, hands, masks, dealer, seed)
    return state


def hand_from_cards(
    variant: str,
    hands: Sequence[Sequence[int | str] | str],
    *,
    dealer: int = 0,
    rules: Rules | None = None,
) -> HandState:
    """Start a hand from four explicit hands (cards, card names or space-separated text).

    >>> state = hand_from_cards("single4", ["AS " * 2 + "TS TS KS KS QS QS JS JS 9S 9S"] +
    ...     ["AH AH TH TH KH KH QH QH JH JH 9H 9H", "AD AD TD TD KD KD QD QD JD JD 9D 9D",
    ...      "AC AC TC TC KC KC QC QC JC JC 9C 9C"])
    >>> state.hand(1)[:3]
    (Card.parse('AH'), Card.parse('AH'), Card.parse('TH'))
    """
    rules = _resolve(variant, rules)
    _check_dealer(dealer)
    if len(hands) != 4:
        raise CardError(f"four hands are needed, got {len(hands)}")
    deck = DECKS[rules.deck]
    seats: list[list[Card]] = []
    for seat, hand in enumerate(hands):
        tokens = hand.split() if isinstance(hand, str) else list(hand)
        faces = [Card.parse(token) if isinstance(token, str) else Card(token) for token in tokens]
        if len(faces) != rules.hand_size:
            raise CardError(
                f"seat {seat} has {len(faces)} cards; {rules.name} deals {rules.hand_size}"
            )
        seats.append(faces)
    # Checks the four hands together against the pack: no card more often than it exists.
    deck.counts([face for faces in seats for face in faces])
    return HandState(rules, [deck.counts(faces) for faces in seats], dealer=dealer, seed=None)


_PACKS = {name: tuple(deck.cards()) for name, deck in DECKS.items()}


def _resolve(variant: str, rules: Rules | None) -> Rules:
    if rules is None:
        rules = rules_for(variant)
    elif rules.name != variant:
        raise RulesError("name", f"the rules are for {rules.name!r}, not {variant!r}")
    # The presets include the three- and two-hand games, which have states of their own.
    if rules.game != "pinochle4":
        raise UnknownVariantError(variant, variant_names("pinochle4"), "four-hand")
    return rules


def _check_dealer(dealer: int) -> None:
    check_seat(dealer, 4, "dealer")
