"""What the three pinochle games share: one base class for their hand states.

A hand of four-hand, three-hand (cutthroat) or two-hand pinochle is dealt, may go
through an auction (RULES.md 2.2), a trump (2.3), a meld shown (3) and tricks (4), and
is scored (5). ``TrickTakingState`` holds that flow once; a game's state class names its
seats and sides, its phases' handlers, and overrides the steps where its rules differ
(the partner's pass, the widow and bury, the two-hand stock).

The steps of every card and call (``apply``, the legal actions, the phase) are the
hand's core (``engine.handcore``), in C when the kernel is built; trick legality is
``engine.tricks``' and hand scoring ``engine.scoring``'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, Final, Self

from engine.actions import (
    PLAY_ON,
    PLAYS,
    THROW_IN,
    Action,
    Bid,
    NameTrump,
    Pass,
    PassWithHelp,
    Play,
    PlayOn,
    ThrowIn,
)
from engine.cards import CARD_NAMES, CARDS, DECKS, NUM_FACES, Card, Rank, Suit
from engine.errors import (
    CardError,
    IllegalActionError,
    NotOverError,
    RulesError,
    StateError,
    UnknownVariantError,
)
from engine.handcore import (
    CLEAR,
    CORE_FIELDS,
    NAME_TRUMP,
    PHASE_AUCTION,
    PHASE_OVER,
    PHASE_PASS_BACK,
    PHASE_PASS_TO_DECLARER,
    PHASE_PLAY_OUT,
    PHASE_TRICKS,
    PHASE_TRUMP,
    SUITS,
    HandCore,
    LegalCore,
    Phase,
    mask_of,
)
from engine.kernel import KERNEL, parsed_config, record_maker
from engine.meld import meld_items, meld_total
from engine.results import (
    MADE,
    NO_MARRIAGE,
    NO_MELD,
    SET,
    HandOutcome,
    HandResult,
    MeldShown,
    TeamResult,
)
from engine.rng import check_seed, shuffle
from engine.rules import Rules, pinochle_rules, pinochle_variants
from engine.scoring import contract_outcome, side_score
from engine.seats import check_seat, left_of
from engine.state import State, attribute_names
from engine.tricks import (
    SUIT_MASK,
    blank,
    faces_of_mask,
)

__all__ = [
    "AUCTION_HANDLERS",
    "CLEAR",
    "NAME_TRUMP",
    "PHASE_AUCTION",
    "PHASE_BURY",
    "PHASE_MELD",
    "PHASE_OVER",
    "PHASE_PASS_BACK",
    "PHASE_PASS_TO_DECLARER",
    "PHASE_PLAY_OUT",
    "PHASE_THROW_IN",
    "PHASE_TRICKS",
    "PHASE_TRUMP",
    "LegalActions",
    "Phase",
    "TrickTakingState",
    "cards_of",
    "count_submultisets",
    "deal_blocks",
    "mask_of",
    "parse_deal",
    "resolve_rules",
    "seats_of_sides",
    "shuffled_pack",
    "submultiset_at",
    "submultisets",
]


# The phases as module constants (``engine.handcore`` says why).
PHASE_BURY: Final = Phase.BURY
PHASE_THROW_IN: Final = Phase.THROW_IN
PHASE_MELD: Final = Phase.MELD

_EXPECTS = {
    PHASE_AUCTION: "a bid or a pass",
    PHASE_TRUMP: "the declarer naming trump",
    PHASE_PASS_TO_DECLARER: "the partner giving cards to the declarer",
    PHASE_PASS_BACK: "the declarer giving cards back",
    PHASE_BURY: "the declarer burying cards",
    PHASE_THROW_IN: "the declarer's throw-in or play-on",
    PHASE_TRICKS: "a card played",
    PHASE_MELD: "the trick winner's meld, dix exchange or no-meld",
    PHASE_PLAY_OUT: "a card played",
}


Handler = Callable[[Any, Action], None]
_NO_HANDLER: tuple[tuple[Phase, ...], Handler | None] = ((), None)


def seats_of_sides(sides: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The seats of each side, by side, from each seat's side (``SIDES``)."""
    return tuple(
        tuple(seat for seat, of in enumerate(sides) if of == side) for side in range(max(sides) + 1)
    )


def _cards_of(counts: Sequence[int]) -> tuple[Card, ...]:
    """The cards of a count vector, in face order."""
    cards: list[Card] = []
    for face, count in enumerate(counts):
        if count:
            cards += (CARDS[face],) * count
    return tuple(cards)


cards_of: Callable[[Sequence[int]], tuple[Card, ...]] = (
    _cards_of if KERNEL is None else KERNEL.cards_of
)
"""The cards of a count vector, in face order (the C kernel's where it is built)."""


def _with_copies(ways: list[int], copies: int) -> list[int]:
    """``ways[k]`` (the multisets of k cards among some faces) with a face of ``copies``
    more: the multisets taking 0 to ``copies`` of it."""
    more = ways[:]
    size = len(ways) - 1
    for taken in range(1, copies + 1):
        for k in range(taken, size + 1):
            more[k] += ways[k - taken]
    return more


def count_submultisets(counts: Sequence[int], size: int) -> int:
    """How many distinct multisets of ``size`` cards the count vector holds."""
    ways = [1] + [0] * size
    for count in counts:
        if count:
            ways = _with_copies(ways, count)
    return ways[size]


def submultisets(counts: list[int], size: int, start: int = 0) -> Iterator[tuple[Card, ...]]:
    """Every multiset of ``size`` cards of ``counts``, in face order (``counts`` is
    restored when the iteration ends)."""
    if size == 0:
        yield ()
        return
    for face in range(start, NUM_FACES):
        if counts[face]:
            counts[face] -= 1
            for rest in submultisets(counts, size - 1, face):
                yield (CARDS[face], *rest)
            counts[face] += 1


def submultiset_at(counts: Sequence[int], size: int, index: int) -> tuple[Card, ...]:
    """The multiset at ``index`` in ``submultisets(counts, size)``'s order, found without
    the ones before it (``legal_actions[i]`` of a pass or a bury: hundreds of them)."""
    faces = len(counts)
    # ways[face][k]: the multisets of k cards among ``face`` and the faces above it.
    ways = [[1] + [0] * size] * (faces + 1)
    for face in range(faces - 1, -1, -1):
        copies = counts[face]
        ways[face] = _with_copies(ways[face + 1], copies) if copies else ways[face + 1]
    cards: list[Card] = []
    face = taken = 0
    while len(cards) < size:
        if face >= faces:
            raise IndexError("no multiset at this index")
        left, more = counts[face] - taken, size - len(cards) - 1
        if left > 0:
            # The multisets whose next card is this face: the rest from its other copies
            # and the faces above.
            above = ways[face + 1]
            starting = 0
            for rest in range(more - min(left - 1, more), more + 1):
                starting += above[rest]
            if index < starting:
                cards.append(CARDS[face])
                taken += 1
                continue
            index -= starting
        face += 1
        taken = 0
    if index:
        raise IndexError("no multiset at this index")
    return tuple(cards)


def resolve_rules(
    variant: str, rules: Rules | None, *, game: str, label: str, dealer: object
) -> Rules:
    """The rules of a hand of ``game``: the preset unless a league's ``rules`` are given."""
    rules = pinochle_rules(variant) if rules is None else rules
    if rules.name != variant:
        raise RulesError("name", f"the rules are for {rules.name!r}, not {variant!r}")
    # The presets include every pinochle game, and each has a state of its own.
    if rules.game != game:
        raise UnknownVariantError(variant, pinochle_variants(game), label)
    check_seat(dealer, rules.players, "dealer")
    return rules


def shuffled_pack(deck: str, seed: int) -> Sequence[int]:
    """The faces of the ``deck`` pack (``Deck.cards()``) shuffled by ``splitmix64-fy-v1``
    from ``seed``: by the C kernel where it is built (the same shuffle, tested against
    ``engine.rng.shuffle``), else in Python. The shuffle is the largest part of a deal."""
    if KERNEL is not None:
        faces: Sequence[int] = KERNEL.shuffled_pack(deck == "double", seed)
        return faces
    return shuffle(list(_PACKS[deck]), seed)


def deal_blocks(pack: Sequence[int], rules: Rules, dealer: int) -> list[list[int]]:
    """The hands' count vectors of a shuffled pack dealt in consecutive blocks of
    ``hand_size``, the first to the seat left of the dealer (what is left over is the
    widow or the stock)."""
    players, size = rules.players, rules.hand_size
    hands = [[0] * NUM_FACES for _ in range(players)]
    for block in range(players):
        counts = hands[left_of(dealer, players, 1 + block)]
        for face in pack[block * size : (block + 1) * size]:
            counts[face] += 1
    return hands


_NUMBERS = {2: "two", 3: "three", 4: "four"}

# A result is built at the end of every hand, playouts included: without running the
# frozen dataclasses' ``__init__`` where the kernel is built (``record_maker``).
_team_result = record_maker(TeamResult)
_hand_result = record_maker(HandResult)


def parse_deal(
    rules: Rules, deal: Sequence[Sequence[int | str] | str], rest: tuple[str, int] | None
) -> list[list[Card]]:
    """Explicit hands by seat, then (``rest``: its name and size) the widow or the stock,
    each as cards, card names or space-separated text; checked against the pack."""
    players = rules.players
    parts = players + (rest is not None)
    if len(deal) != parts:
        needed = f"{_NUMBERS[players]} hands"
        got = f"{len(deal)}"
        if rest is not None:
            needed, got = f"{needed} and {rest[0]}", f"{got} parts"
        raise CardError(f"{needed} are needed, got {got}")
    cards_by_part: list[list[Card]] = []
    for index, part in enumerate(deal):
        tokens = part.split() if isinstance(part, str) else list(part)
        cards = [Card.parse(token) if isinstance(token, str) else Card(token) for token in tokens]
        where, expected = (f"seat {index}", rules.hand_size) if index < players else rest or ("", 0)
        if len(cards) != expected:
            raise CardError(f"{where} has {len(cards)} cards; {rules.name} deals {expected}")
        cards_by_part.append(cards)
    # The parts together against the pack: no card more often than it exists.
    DECKS[rules.deck].counts([card for cards in cards_by_part for card in cards])
    return cards_by_part


class TrickTakingState(HandCore, State[Phase, "LegalActions"]):
    """A pinochle hand from the deal to the score. Subclasses set the class attributes
    ``num_players``, ``SIDES`` (each seat's side: its team, or itself) and ``handlers``
    (action type to the phases that take it and its method), and start a hand with
    ``_start``.
    """

    # Beside the core's fields (``engine.handcore.CORE_FIELDS``).
    __slots__ = (
        "_bid",
        "_dealt",
        "_meld_hands",
        "_meld_json",
        "_melds",
        "_outcome",
        "_result",
        "dealer",
        "rules",
        "seed",
    )
    _CORE_FIELDS: ClassVar[tuple[str, ...]] = CORE_FIELDS
    _FAST: ClassVar[bool] = True
    """Whether the core's own steps play this game's cards and calls (see ``_fast``)."""

    OVER = PHASE_OVER
    num_players: int
    GAME: ClassVar[str]
    """The game of ``Rules.game`` this state plays, and its name in messages."""
    LABEL: ClassVar[str]
    REST: ClassVar[str | None] = None
    """What the pack holds beyond the hands (``the widow``, ``the stock``), if anything."""
    SIDES: ClassVar[tuple[int, ...]]
    _SIDE_SEATS: ClassVar[tuple[tuple[int, ...], ...]]
    """Each seat's side: the index of its team in the result and in ``counters_taken``."""
    handlers: ClassVar[dict[type, tuple[tuple[Phase, ...], Handler | None]]] = {}
    _SEATING: ClassVar[tuple[int, tuple[int, ...], int, bool]]
    """What the core reads of the class (``HandCore._setup``): the seats, each seat's
    side, the number of sides and ``_FAST``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "SIDES" in vars(cls) or "_FAST" in vars(cls):
            cls._SEATING = (cls.num_players, cls.SIDES, max(cls.SIDES) + 1, cls._FAST)

    # ``rules: Rules``: declared ``Any`` by ``State``, which every game shares.
    dealer: int
    seed: int | None

    # ---------------------------------------------------------------- dealing

    # Checked arguments are typed ``object``: what a caller passes is checked, not trusted.

    @classmethod
    def new(
        cls, variant: str, *, seed: object, dealer: object = 0, rules: Rules | None = None
    ) -> Self:
        """Deal a hand of ``variant`` from ``seed`` with generator ``splitmix64-fy-v1``: the
        shuffled pack in blocks of ``hand_size``, the first to the seat left of the
        dealer, the rest (a widow or the stock) last. ``rules`` (a league's rules for
        this variant) replaces the preset."""
        seed = check_seed(seed)
        rules = cls._resolve(variant, rules, dealer)
        dealer = check_seat(dealer, rules.players, "dealer")
        if KERNEL is not None:
            # The same shuffle and blocks, and the core set up, in one call (tested against
            # the Python deal).
            state = blank(cls)
            state._start_fields(rules, dealer, seed)
            state._dealt, left = state._deal(
                parsed_config(rules), seed, dealer, rules._tables.core, cls._SEATING
            )
            state._view = LegalActions(state)
            state._begin(cls._rest_order(left, dealt=True))
            return state
        pack = shuffled_pack(rules.deck, seed)
        rest = cls._rest_order(list(pack[rules.players * rules.hand_size :]), dealt=True)
        return cls._from_deal(rules, deal_blocks(pack, rules, dealer), rest, dealer, seed)

    @classmethod
    def from_cards(
        cls,
        variant: str,
        deal: Sequence[Sequence[int | str] | str],
        *,
        dealer: object = 0,
        rules: Rules | None = None,
    ) -> Self:
        """Start from explicit cards: the hands by seat, then the rest of the pack if the
        game has one (cards, card names or space-separated text)."""
        rules = cls._resolve(variant, rules, dealer)
        dealer = check_seat(dealer, rules.players, "dealer")
        rest = None if cls.REST is None else (cls.REST, cls._rest_size(rules))
        parts = parse_deal(rules, deal, rest)
        deck = DECKS[rules.deck]
        hands = [deck.counts(cards) for cards in parts[: rules.players]]
        left = [int(card) for card in parts[rules.players]] if rest is not None else []
        return cls._from_deal(rules, hands, cls._rest_order(left, dealt=False), dealer, None)

    @classmethod
    def _resolve(cls, variant: str, rules: Rules | None, dealer: object) -> Rules:
        return resolve_rules(variant, rules, game=cls.GAME, label=cls.LABEL, dealer=dealer)

    @classmethod
    def _rest_size(cls, rules: Rules) -> int:
        return DECKS[rules.deck].size - rules.players * rules.hand_size

    @staticmethod
    def _rest_order(rest: list[int], *, dealt: bool) -> list[int]:
        """The rest of the pack in the order the state keeps it."""
        return rest

    @classmethod
    def _from_deal(
        cls, rules: Rules, hands: list[list[int]], rest: list[int], dealer: int, seed: int | None
    ) -> Self:
        return cls(rules, hands, rest, dealer=dealer, seed=seed)

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        rest: Sequence[int] = (),
        *,
        dealer: int,
        seed: int | None,
    ) -> None:
        """Start from the hands' count vectors and the rest of the pack's faces, if the
        game has one (use ``new`` or ``from_cards``)."""
        self._start(rules, [list(counts) for counts in hands], dealer, seed)
        self._begin(rest)

    def _begin(self, rest: Sequence[int]) -> None:
        """What a game sets up beyond the shared state (its widow, its stock)."""

    def _start(self, rules: Rules, hands: list[list[int]], dealer: int, seed: int | None) -> None:
        self._start_fields(rules, dealer, seed)
        # The core's fields at once (in C when the kernel is built): what play reads of
        # the rules is kept as fields of the state, as a read of the rules object costs
        # as much as the rest of a step.
        self._dealt = self._setup(rules._tables.core, self._SEATING, hands, dealer)
        self._view = LegalActions(self)

    def _start_fields(self, rules: Rules, dealer: int, seed: int | None) -> None:
        """The fields of a hand just dealt beside its core's."""
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self._bid = 0
        self._meld_hands: tuple[tuple[int, ...], ...] = ()
        self._meld_json: tuple[tuple[dict[str, Any], ...], ...] | None = None
        self._melds: list[int] = []
        self._outcome: HandOutcome | None = None
        self._result: HandResult | None = None

    # ----------------------------------------------------------------- queries

    def _legal_view(self) -> LegalActions:
        return self.legal_actions

    # ``State``'s, read directly (see there why it reads by name).

    @property
    def variant(self) -> str:
        name: str = self.rules.name
        return name

    def _new_view(self) -> LegalActions:
        return LegalActions(self)

    @property
    def history(self) -> tuple[Action, ...]:
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
        return SUITS[self._trump] if self._trump >= 0 else None

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, by side."""
        return self._SIDE_SEATS

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (for the engine's owner: bots get ``observation``)."""
        return cards_of(self._hands[seat])

    def _initial_deal(self) -> tuple[tuple[Card, ...], ...]:
        """The cards as dealt, as a deal from explicit cards lists them: each seat's hand,
        then any cards dealt to nobody (``Game.initial_deal`` names them)."""
        return tuple(cards_of(counts) for counts in self._dealt)

    def copy(self) -> Self:
        """An independent copy (history included)."""
        kind = type(self)
        other = blank(kind)
        self._copy_core(other)
        for name in _own_fields(kind):
            value = getattr(self, name)
            setattr(other, name, value[:] if type(value) is list else value)
        other._view = LegalActions(other)
        return other

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        del state["_view"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._view = LegalActions(self)

    # --------------------------------------------------------------- applying

    def _apply_py(self, action: Action | str) -> None:
        """``apply`` in Python: every action the core does not take itself (a refused
        one included, whose error is raised here)."""
        phase = self._phase
        if type(action) is Play and (phase is PHASE_TRICKS or phase is PHASE_PLAY_OUT):
            face = action.card
            if not (self._legal_mask() >> face) & 1:
                raise self._illegal_play(action)
            self._play(face)
            self._actions.append(action)
            return
        if isinstance(action, str):
            self.apply(Action.parse(action))
            return
        # Keyed by action type alone: hashing an Enum member runs Python code, a type's not.
        phases, handler = self.handlers.get(type(action), _NO_HANDLER)
        if handler is None or phase not in phases:
            raise self._wrong_phase(action)
        handler(self, action)
        self._legal = -1
        self._actions.append(action)

    def _wrong_phase(self, action: Action) -> IllegalActionError:
        if self._phase is PHASE_OVER:
            return IllegalActionError(action, "hand_over", "the hand is over")
        if not isinstance(action, Action):
            return IllegalActionError(action, "not_an_action", f"{action!r} is not an action")
        expected = _EXPECTS[self._phase]
        return IllegalActionError(
            action, "phase", f"the {self._phase.value} phase expects {expected}"
        )

    # ----------------------------------------------------------------- auction
    # RULES.md 2.2: in turn from the dealer's left, each player bids higher on the
    # variant's ladder or passes for good; when all but one have passed after a bid, the
    # last bid is the contract; with nobody bidding, the dealer is stuck at the minimum
    # (or, under ``all_pass = redeal``, the hand is passed out).

    def _dealer_stuck(self) -> bool:
        return self._active == 1 and self._high_bidder < 0 and self._stuck

    # The auction's queries are asked several times a call (``len``, an index, ``apply``):
    # ``_active == 1`` is tested before ``_dealer_stuck`` is called, which it rarely is.

    def _bid_rungs(self) -> range:
        """The ladder rungs (indexes into ``rules.bids``) the current player may bid."""
        if self._active == 1 and self._dealer_stuck():
            return range(1)
        low = self._high_rung + 1
        high = self._ladder_size
        limit = self._raise_limit
        if limit >= 0 and low + limit < high:
            high = low + limit
        return range(low, high)

    def _pass_actions(self) -> tuple[Action, ...]:
        if self._active == 1 and self._dealer_stuck():
            return ()
        return self._passes

    def _apply_bid(self, action: Action) -> None:
        assert isinstance(action, Bid)
        rung = self.rules._tables.bid_index.get(action.amount)
        if rung is None:
            raise IllegalActionError(
                action, "bid_ladder", f"{action.amount} is not on the bid ladder"
            )
        rungs = self._bid_rungs()
        if rung not in rungs:
            if self._dealer_stuck():
                rule, reason = "dealer_stuck", f"the stuck dealer must bid {self.rules.min_bid}"
            elif rung < rungs.start:
                high = self.rules.bids[self._high_rung]
                rule, reason = "bid_ladder", f"a bid must be higher than {high}"
            else:
                limit = self.rules.max_raise_rungs
                rule, reason = "bid_ladder", f"a bid may rise at most {limit} steps at once"
            raise IllegalActionError(action, rule, reason)
        self._high_rung = rung
        self._high_bidder = self._turn
        self._auction.append((self._turn, action))
        self._next_bidder()

    def _apply_pass(self, action: Action) -> None:
        if self._active == 1 and self._dealer_stuck():
            raise IllegalActionError(
                action,
                "dealer_stuck",
                f"everybody else passed: the dealer must bid {self.rules.min_bid}",
            )
        if isinstance(action, PassWithHelp) and len(self._passes) == 1:
            raise IllegalActionError(action, "pass_with_help", "this variant has no pass with help")
        self._passed[self._turn] = True
        self._active -= 1
        self._auction.append((self._turn, action))
        self._next_bidder()

    def _next_bidder(self) -> None:
        if self._active == 0:
            self._finish(HandOutcome.PASSED_OUT)
            return
        if self._active == 1 and self._high_bidder >= 0:
            self._end_auction()
            return
        players = self.num_players
        seat = self._turn
        # At most a round of the table: a state whose passes were overwritten gets an
        # error, not a loop without end (the core's C twin stops the same way).
        for _ in range(players):
            seat = left_of(seat, players)
            if not self._passed[seat]:
                self._turn = seat
                return
        raise StateError("nobody is left to bid")

    # --------------------------------------------------------- trump and meld

    def _end_auction(self) -> None:
        declarer = self._declarer = self._turn = self._high_bidder
        self._bid = self.rules.bids[self._high_rung]
        self._take_widow()
        if self.rules.trump_needs_marriage and not self._trump_choices():
            self._finish(NO_MARRIAGE)
            return
        self._phase = PHASE_TRUMP
        self._turn = declarer

    def _take_widow(self) -> None:
        """What the declarer receives when the auction ends (a widow, in some games)."""

    def _check_cards(
        self, action: Action, cards: Sequence[int], count: int, rule: str, verb: str
    ) -> None:
        """Refuse ``cards`` unless they are ``count`` cards the current player holds."""
        if len(cards) != count:
            raise IllegalActionError(
                action, rule, f"exactly {count} cards are {verb}, not {len(cards)}"
            )
        seat = self._turn
        hand = self._hands[seat]
        wanted = [0] * NUM_FACES
        for face in cards:
            wanted[face] += 1
            if wanted[face] > hand[face]:
                raise IllegalActionError(
                    action,
                    "cards_not_in_hand",
                    f"seat {seat} does not hold {wanted[face]} x {CARD_NAMES[face]}",
                )

    def _marriage_suits(self, seat: int) -> tuple[Suit, ...]:
        counts = self._hands[seat]
        return tuple(
            suit for suit in SUITS if counts[suit * 6 + Rank.K] and counts[suit * 6 + Rank.Q]
        )

    def _trump_choices(self) -> tuple[Suit, ...]:
        if self.rules.trump_needs_marriage:
            return self._marriage_suits(self._declarer)
        return SUITS

    def _apply_trump(self, action: Action) -> None:
        assert isinstance(action, NameTrump)
        if action.suit not in self._trump_choices():
            raise IllegalActionError(
                action, "trump_needs_marriage", f"the declarer holds no marriage in {action.suit}"
            )
        self._trump = int(action.suit)
        self._after_trump()

    def _after_trump(self) -> None:
        """What follows the naming of trump (a pass of cards, a bury, or the meld)."""
        self._meld()

    def _meld(self) -> None:
        trump = self._trump
        self._meld_hands = tuple(map(tuple, self._hands))
        if KERNEL is not None:
            # The kernel's count of the same table (tested against ``meld_total``).
            self._melds = KERNEL.meld_totals(parsed_config(self.rules), self._hands, trump)
        else:
            values = self.rules.meld_values
            self._melds = [meld_total(counts, trump, values) for counts in self._hands]
        self._turn = self._declarer
        if self.rules.throw_in:
            self._phase = PHASE_THROW_IN
        else:
            self._start_tricks()

    def _apply_throw_in(self, action: Action) -> None:
        if isinstance(action, ThrowIn):
            self._finish(HandOutcome.THROWN_IN)
        else:
            self._start_tricks()

    def _start_tricks(self) -> None:
        self._phase = PHASE_TRICKS
        self._turn = self._declarer

    # ------------------------------------------------------------------ tricks

    def _after_trick(self) -> None:
        """What follows a trick (the core's own step, unless the class overrides it)."""
        if len(self._tricks) == self._hand_size:
            self._finish(MADE)

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

    def play_randomly(self, rng: random.Random) -> None:
        """Finish the hand with random legal actions (each game says how it chooses)."""
        raise NotImplementedError

    def _random_card(self, draw: Callable[[], float]) -> None:
        """Play a card chosen uniformly among the faces ``apply`` would accept."""
        mask = self._legal_mask()
        skip = int(draw() * mask.bit_count())
        while skip:
            mask &= mask - 1
            skip -= 1
        face = (mask & -mask).bit_length() - 1
        self._play(face)
        self._actions.append(PLAYS[face])

    # ----------------------------------------------------------------- scoring

    def _finish(self, outcome: HandOutcome) -> None:
        if outcome is MADE:
            sides = self.SIDES
            self._taken[sides[self._tricks[-1][2]]] += self.rules.last_trick_bonus
            if self._declarer >= 0:
                declared = self._side_points(sides[self._declarer])
                outcome = contract_outcome(declared=declared, bid=self._bid)
        self._outcome = outcome
        self._phase = PHASE_OVER
        self._turn = -1
        # The view refers to the state: a finished state that referred back to it would
        # be freed by the cycle collector only, which thousands of hands then keep busy.
        self._view = None

    def _side_meld(self, side: int) -> int:
        melds = self._melds
        total = 0
        if melds:
            for seat in self._SIDE_SEATS[side]:
                total += melds[seat]
        return total

    def _meld_counts(self, side: int) -> bool:
        return not (self.rules.meld_needs_trick and self._tricks and not self._won[side])

    def _extra_points(self, side: int) -> int:
        """Points a side counts beyond its meld and tricks (the buried counters)."""
        return 0

    def _side_points(self, side: int) -> int:
        meld = self._side_meld(side) if self._meld_counts(side) else 0
        return meld + self._taken[side] + self._extra_points(side)

    def _meld_shown(self, side: int) -> MeldShown:
        return MeldShown.of_seats(
            self._SIDE_SEATS[side], self._meld_hands, self._trump, self.rules.meld_values
        )

    def result(self) -> HandResult:
        """The hand's score per side with its breakdown; the hand must be over."""
        if self._result is None:
            self._result = self._score()
        return self._result

    def _score(self) -> HandResult:
        # Once at the end of every hand, playouts included: read once, summed inline.
        outcome = self._outcome
        if outcome is None:
            raise NotOverError("the hand is not over: it has no result yet")
        melds = self._melds
        shown = bool(melds) and outcome is not NO_MARRIAGE
        played = outcome is MADE or outcome is SET
        sides = self.SIDES
        rules = self.rules
        last_side = sides[self._tricks[-1][2]] if played else -1
        declarer = self._declarer
        declaring = sides[declarer] if declarer >= 0 else -1
        bid = self._bid
        taken, won = self._taken, self._won
        teams = []
        for side, seats in enumerate(self._SIDE_SEATS):
            meld = 0
            if shown:
                for seat in seats:
                    meld += melds[seat]
            counted = shown and self._meld_counts(side)
            last = rules.last_trick_bonus if side == last_side else 0
            extra = self._extra_points(side)
            total = (meld if counted else 0) + taken[side] + extra
            teams.append(
                _team_result(
                    side,
                    seats,
                    meld,
                    counted,
                    taken[side] - last + extra,
                    last,
                    won[side],
                    side_score(outcome, total=total, declaring=side == declaring, bid=bid),
                    self._meld_shown(side) if shown else NO_MELD,
                )
            )
        return _hand_result(
            outcome,
            declarer if declarer >= 0 else None,
            bid if declarer >= 0 else None,
            SUITS[self._trump] if self._trump >= 0 else None,
            tuple(teams),
        )

    # ------------------------------------------------------------- observation

    def _observation_head(self, seat: object) -> dict[str, Any]:
        """The keys every pinochle observation starts with."""
        seat = check_seat(seat, self.num_players)
        return {
            "game": self.rules.game,
            "variant": self.rules.name,
            "seat": seat,
            "team": self.SIDES[seat],
            "dealer": self.dealer,
            "phase": self._phase.value,
            "current_player": self.current_player,
            "hand": [CARD_NAMES[face] for face in self.hand(seat)],
            "hand_sizes": [sum(counts) for counts in self._hands],
        }

    def _observation_bidding(self) -> dict[str, Any]:
        """The auction, the contract and trump, as every seat sees them."""
        declarer = self._declarer
        return {
            "auction": [{"seat": s, "action": str(a)} for s, a in self._auction],
            "contract": {"declarer": declarer, "bid": self._bid} if declarer >= 0 else None,
            "trump": None if self._trump < 0 else str(Suit(self._trump)),
        }

    def _observation_melds(self) -> list[dict[str, Any]] | None:
        """Every seat's meld items once shown (``None`` before, or with no marriage)."""
        if not self._melds or self._outcome is NO_MARRIAGE:
            return None
        # Items are computed once; each observation gets its own dicts and lists.
        if self._meld_json is None:
            values = self.rules.meld_values
            self._meld_json = tuple(
                tuple(item.to_json() for item in meld_items(counts, self._trump, values))
                for counts in self._meld_hands
            )
        return [
            {
                "seat": s,
                "total": self._melds[s],
                "items": [{**item, "cards": item["cards"][:]} for item in items],
            }
            for s, items in enumerate(self._meld_json)
        ]

    def _observation_tail(self) -> dict[str, Any]:
        """The keys every pinochle observation ends with: the tricks and the score."""
        names = CARD_NAMES
        cards = self._trick_cards
        return {
            "tricks": [
                {"leader": leader, "cards": [names[face] for face in cards], "winner": winner}
                for leader, cards, winner in self._tricks
            ],
            "trick": {
                "leader": self._leader if cards else None,
                "cards": [names[face] for face in cards],
            },
            "counters_taken": list(self._taken),
            "tricks_won": list(self._won),
            "result": self.result().to_json() if self._phase is PHASE_OVER else None,
        }

    # ----------------------------------------------------------- legal actions

    def _legal_contains(self, action: object) -> bool:
        phase = self._phase
        if phase is PHASE_AUCTION:
            if isinstance(action, Bid):
                rung = self.rules._tables.bid_index.get(action.amount)
                return rung is not None and rung in self._bid_rungs()
            return action in self._pass_actions()
        if phase is PHASE_TRUMP:
            return isinstance(action, NameTrump) and action.suit in self._trump_choices()
        if phase is PHASE_THROW_IN:
            return isinstance(action, ThrowIn | PlayOn)
        return False

    def _legal_count(self) -> int:
        phase = self._phase
        if phase is PHASE_AUCTION:
            return len(self._pass_actions()) + len(self._bid_rungs())
        if phase is PHASE_TRUMP:
            return len(self._trump_choices())
        if phase is PHASE_THROW_IN:
            return 2
        return 0

    def _legal_list(self) -> Sequence[Action] | Iterator[Action]:
        phase = self._phase
        if phase is PHASE_AUCTION:
            bids = self._bid_actions
            return [*self._pass_actions(), *(bids[rung] for rung in self._bid_rungs())]
        if phase is PHASE_TRUMP:
            return [NAME_TRUMP[suit] for suit in self._trump_choices()]
        if phase is PHASE_THROW_IN:
            return [THROW_IN, PLAY_ON]
        return []

    def _legal_index(self, index: int) -> Action | None:
        if self._phase is PHASE_AUCTION:
            passes = self._pass_actions()
            if index < len(passes):
                return passes[index]
            return self._bid_actions[self._bid_rungs()[index - len(passes)]]
        return None

    def _legal_item(self, index: int) -> Action:
        """``legal_actions[index]`` outside the phases the core indexes itself."""
        size = self._legal_count()
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("legal action index out of range")
        action = self._legal_index(index)
        if action is not None:
            return action
        for position, candidate in enumerate(self._legal_list()):
            if position == index:
                return candidate
        raise IndexError("legal action index out of range")

    def _random_auction_action(self, draw: Callable[[], float]) -> None:
        passes = self._pass_actions()
        rungs = self._bid_rungs()
        choice = int(draw() * (len(passes) + len(rungs)))
        if choice < len(passes):
            self.apply(passes[choice])
        else:
            self.apply(self._bid_actions[rungs[choice - len(passes)]])


_OWN_FIELDS: dict[type, tuple[str, ...]] = {}


def _own_fields(kind: type) -> tuple[str, ...]:
    """A hand state's attributes beyond its core's (which ``_copy_core`` copies)."""
    names = _OWN_FIELDS.get(kind)
    if names is None:
        core = set(CORE_FIELDS)
        names = _OWN_FIELDS[kind] = tuple(n for n in attribute_names(kind) if n not in core)
    return names


_PACKS = {name: tuple(int(card) for card in deck.cards()) for name, deck in DECKS.items()}

AUCTION_HANDLERS: dict[type, tuple[tuple[Phase, ...], Handler | None]] = {
    Bid: ((PHASE_AUCTION,), TrickTakingState._apply_bid),
    Pass: ((PHASE_AUCTION,), TrickTakingState._apply_pass),
    PassWithHelp: ((PHASE_AUCTION,), TrickTakingState._apply_pass),
    NameTrump: ((PHASE_TRUMP,), TrickTakingState._apply_trump),
    ThrowIn: ((PHASE_THROW_IN,), TrickTakingState._apply_throw_in),
    PlayOn: ((PHASE_THROW_IN,), TrickTakingState._apply_throw_in),
}
"""The handlers of the games with an auction: bids and passes, trump, the throw-in."""

_PLAYS_OF: dict[int, tuple[Play, ...]] = {}
_PLAYS_KEPT = 1 << 16


def _plays_of(mask: int) -> tuple[Play, ...]:
    """The plays of the faces of ``mask``, in face order (the same few masks recur).

    A plain dict, not ``functools.lru_cache``: a lookup costs no call through a wrapper,
    and it is emptied when it reaches its bound.
    """
    plays = _PLAYS_OF.get(mask)
    if plays is None:
        if len(_PLAYS_OF) >= _PLAYS_KEPT:
            _PLAYS_OF.clear()
        plays = _PLAYS_OF[mask] = tuple(PLAYS[face] for face in faces_of_mask(mask))
    return plays


class LegalActions(LegalCore):
    """A live view of the current player's legal actions: ``in``, iteration, ``len``,
    indexing. Nothing is built until asked for; ``len`` and indexing are the core's
    (``engine.handcore``).
    """

    __slots__ = ()

    _state: TrickTakingState

    def __contains__(self, action: object) -> bool:
        state = self._state
        phase = state._phase
        if phase is PHASE_TRICKS or phase is PHASE_PLAY_OUT:
            return type(action) is Play and bool((state._legal_mask() >> action.card) & 1)
        return state._legal_contains(action)

    def __bool__(self) -> bool:
        return self._state._phase is not PHASE_OVER

    def __iter__(self) -> Iterator[Action]:
        state = self._state
        phase = state._phase
        if phase is PHASE_TRICKS or phase is PHASE_PLAY_OUT:
            return iter(_plays_of(state._legal_mask()))
        return iter(state._legal_list())

    def __repr__(self) -> str:
        shown = ", ".join(str(action) for action in list(self)[:12])
        more = ", ..." if len(self) > 12 else ""
        return f"<LegalActions ({len(self)}): {shown}{more}>"
