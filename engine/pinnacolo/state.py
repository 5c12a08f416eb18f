"""The state machine of one Pinnacolo hand (RULES.md sections 8 and 10).

>>> state = new_hand("pinnacolo2", seed=5)
>>> state.phase, state.current_player, state.hand_sizes, state.stock_size
(<PinnacoloPhase.DRAW: 'draw'>, 1, (13, 13), 77)
>>> [str(action) for action in state.legal_actions][:1]
['draw']
>>> state.apply("draw")
>>> state.phase
<PinnacoloPhase.PLAY: 'play'>
>>> state.apply("take 1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalActionError: illegal action 'take 1': ... (rule: turn_order)

A turn is a draw (``draw``, or ``take N``: the top N cards of the discard pile), any
melding (``meld``, ``add``, ``replace``), and one ``discard``. The deepest card taken from
the pile, and a wild taken back by ``replace``, must be in the next meld or addition of
the turn; the discard waits until it is.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine.actions import Action
from engine.errors import (
    ActionParseError,
    CardError,
    IllegalActionError,
    NotOverError,
    RulesError,
)
from engine.pinnacolo.actions import (
    DRAW,
    Add,
    Discard,
    Draw,
    Join,
    MeldCards,
    PinnacoloAction,
    Placed,
    Replace,
    Take,
    parse_action,
)
from engine.pinnacolo.cards import (
    CARD_NAMES,
    NUM_FACES,
    PACK,
    PACK_COUNTS,
    PINELLE,
    VALUES,
    is_wild,
    parse_card,
    rank_of,
    suit_of,
)
from engine.pinnacolo.melds import (
    MeldError,
    MeldKind,
    TableMeld,
    add_options,
    build_meld,
    can_lay_natural,
    extend_meld,
    meld_options,
)
from engine.pinnacolo.observation import observe
from engine.pinnacolo.results import Outcome, PinnacoloResult, SeatResult
from engine.pinnacolo.rules import (
    EmptyStock,
    NoMeldPenalty,
    PinnacoloRules,
    TakenCard,
    pinnacolo_rules,
)
from engine.rng import shuffle
from engine.seats import check_seat, left_of, partner_of
from engine.state import State

__all__ = [
    "PinnacoloHand",
    "PinnacoloLegalActions",
    "PinnacoloPhase",
    "hand_from_cards",
    "new_hand",
]


class PinnacoloPhase(enum.Enum):
    DRAW = "draw"
    """The current player draws from the stock or takes from the discard pile."""
    PLAY = "play"
    """The current player melds, adds, replaces wilds, and ends the turn with a discard."""
    OVER = "over"


Phase = PinnacoloPhase
"""A short name inside this module."""


def _cards_of(counts: Sequence[int]) -> list[int]:
    return [face for face in range(NUM_FACES) for _ in range(counts[face])]


class PinnacoloHand(State[PinnacoloPhase, "PinnacoloLegalActions"]):
    """One hand, from the deal to the score. Seats are 0 to ``num_players - 1`` clockwise;
    in pairs, partners sit opposite (side = seat % 2). Build one with ``new_hand`` or
    ``hand_from_cards``.
    """

    __slots__ = (
        "_actions",
        "_closer",
        "_counts",
        "_laid",
        "_legal",
        "_legal_at",
        "_melds",
        "_opened",
        "_outcome",
        "_pending",
        "_pending_rule",
        "_phase",
        "_pile",
        "_result",
        "_sizes",
        "_start",
        "_stock",
        "_turn",
        "dealer",
        "num_players",
        "rules",
        "seed",
    )

    OVER = Phase.OVER
    rules: PinnacoloRules

    def __init__(
        self,
        rules: PinnacoloRules,
        hands: Sequence[Sequence[int]],
        pile: Sequence[int],
        stock: Sequence[int],
        *,
        dealer: int,
        seed: int | None,
    ) -> None:
        """Start from explicit hands, pile (bottom first) and stock (next card first)."""
        self.rules = rules
        self.num_players = rules.players
        self.dealer = dealer
        self.seed = seed
        self._counts = [[0] * NUM_FACES for _ in hands]
        for seat, cards in enumerate(hands):
            for face in cards:
                self._counts[seat][face] += 1
        self._sizes = [len(cards) for cards in hands]
        self._pile = list(pile)
        self._stock = list(reversed(stock))
        self._start = (tuple(tuple(cards) for cards in hands), tuple(pile), tuple(stock))
        self._melds: list[TableMeld] = []
        self._laid = [False] * rules.players
        self._actions: list[tuple[int, PinnacoloAction]] = []
        self._phase = Phase.DRAW
        self._turn = left_of(dealer, rules.players)
        self._pending = -1
        self._pending_rule = ""
        self._opened = False
        self._outcome: Outcome | None = None
        self._closer = -1
        self._result: PinnacoloResult | None = None
        self._legal: list[PinnacoloAction] = []
        self._legal_at = -1

    # ----------------------------------------------------------------- queries

    def _legal_view(self) -> PinnacoloLegalActions:
        return PinnacoloLegalActions(self)

    @property
    def history(self) -> tuple[PinnacoloAction, ...]:
        """Every action applied so far, in order."""
        return tuple(action for _, action in self._actions)

    def _seated_history(self) -> tuple[tuple[int, PinnacoloAction], ...]:
        """Every action with the seat that took it (all public: a draw names no card):
        what the observation shows, kept as the hand goes rather than found again by
        replaying ``history`` from the deal at every observation."""
        return tuple(self._actions)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        if self.rules.pairs:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(self.num_players))

    def hand(self, seat: int) -> tuple[str, ...]:
        """The cards ``seat`` holds (for the engine's owner: bots get ``observation``)."""
        return tuple(CARD_NAMES[face] for face in _cards_of(self._counts[seat]))

    def _initial_deal(self) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
        """The deal: every hand, the pile (bottom first) and the stock (next card first)."""
        hands, pile, stock = self._start
        return (
            tuple(tuple(CARD_NAMES[face] for face in cards) for cards in hands),
            tuple(CARD_NAMES[face] for face in pile),
            tuple(CARD_NAMES[face] for face in stock),
        )

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._sizes)

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def pile(self) -> tuple[str, ...]:
        """The discard pile, bottom card first: every card is visible."""
        return tuple(CARD_NAMES[face] for face in self._pile)

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        """The melds on the table in the order laid down (copies: changing them changes
        nothing)."""
        return tuple(meld.copy() for meld in self._melds)

    def laid_down(self, seat: int) -> bool:
        """Whether ``seat`` has a meld of its own on the table."""
        return self._laid[seat]

    @property
    def must_meld(self) -> str | None:
        """The card the current player must meld before anything else, if any."""
        return CARD_NAMES[self._pending] if self._pending >= 0 else None

    def card_count(self) -> int:
        """Cards in hands, pile, stock and melds: always 104."""
        on_table = sum(len(meld.cards) for meld in self._melds)
        return sum(self._sizes) + len(self._pile) + len(self._stock) + on_table

    def copy(self) -> PinnacoloHand:
        """An independent copy (history included)."""
        other = PinnacoloHand.__new__(PinnacoloHand)
        other.rules = self.rules
        other.num_players = self.num_players
        other.dealer = self.dealer
        other.seed = self.seed
        other._counts = [counts[:] for counts in self._counts]
        other._sizes = self._sizes[:]
        other._pile = self._pile[:]
        other._stock = self._stock[:]
        other._start = self._start
        other._melds = [meld.copy() for meld in self._melds]
        other._laid = self._laid[:]
        other._actions = self._actions[:]
        other._phase = self._phase
        other._turn = self._turn
        other._pending = self._pending
        other._pending_rule = self._pending_rule
        other._opened = self._opened
        other._outcome = self._outcome
        other._closer = self._closer
        other._result = self._result
        other._legal = self._legal
        other._legal_at = self._legal_at
        return other

    def determinize(self, seat: int, rng: random.Random) -> PinnacoloHand:
        """A copy in which every card ``seat`` cannot see (the other hands and the stock)
        is dealt again at random, sizes kept: what a searching bot samples from. Cards
        another player took from the pile are dealt again too; a bot that tracks them
        from the history can keep them.
        """
        other = self.copy()
        hidden = [
            face
            for s in range(self.num_players)
            if s != seat
            for face in _cards_of(self._counts[s])
        ]
        hidden += self._stock
        rng.shuffle(hidden)
        for s in range(self.num_players):
            if s != seat:
                counts = [0] * NUM_FACES
                for face in hidden[: self._sizes[s]]:
                    counts[face] += 1
                del hidden[: self._sizes[s]]
                other._counts[s] = counts
        other._stock = hidden
        other._legal_at = -1
        return other

    # --------------------------------------------------------------- legality

    def _may_add_to(self, seat: int, meld: TableMeld) -> bool:
        if meld.owner == seat:
            return True
        return self.rules.pairs and meld.owner == partner_of(seat) and self._laid[seat]

    def _can_meld(self, seat: int, counts: Sequence[int], size: int, face: int) -> bool:
        """Whether a meld or an addition holding ``face`` can be made from ``counts``,
        keeping a card to discard."""
        limit = size - 1
        focus = -1 if is_wild(face) else face
        most = self.rules.wilds_per_meld
        if focus >= 0 and most == 1:
            if can_lay_natural(face, counts, limit):
                return True
        elif any(_holds(cards, face) for cards in meld_options(counts, limit, focus, most)):
            return True
        for meld in self._melds:
            if focus >= 0 and not _may_hold(meld, focus):
                continue
            if self._may_add_to(seat, meld) and any(
                _holds(cards, face) for cards in add_options(meld, counts, limit, most)
            ):
                return True
        return False

    def _take_obliges(self, depth: int) -> bool:
        return self.rules.taken_card is TakenCard.ALWAYS or depth > 1

    def _take_ok(self, depth: int) -> bool:
        if not self._take_obliges(depth):
            return True
        seat = self._turn
        counts = self._counts[seat][:]
        for face in self._pile[-depth:]:
            counts[face] += 1
        return self._can_meld(seat, counts, self._sizes[seat] + depth, self._pile[-depth])

    def _replace_ok(self, seat: int, index: int, card: int) -> bool:
        """Whether the wild taken back can then be melded (it must be, this turn)."""
        meld = self._melds[index]
        position = meld.wild_for(card)
        wild = meld.cards[position][0]
        if not self.rules.replaced_wild_melded:
            return True
        counts = self._counts[seat][:]
        counts[card] -= 1
        counts[wild] += 1
        saved = meld.cards[position]
        meld.cards[position] = (card, card)
        try:
            return self._can_meld(seat, counts, self._sizes[seat], wild)
        finally:
            meld.cards[position] = saved

    def _check(self, action: object) -> IllegalActionError | None:
        """The reason ``action`` is illegal now, or None when it is legal."""
        if self._phase is Phase.OVER:
            return IllegalActionError(action, "hand_over", "the hand is over")
        if not isinstance(action, PinnacoloAction):
            return IllegalActionError(
                action, "not_an_action", f"{action!r} is not a Pinnacolo action"
            )
        seat = self._turn
        if isinstance(action, Join):
            return IllegalActionError(
                action, "no_joining", "two sequences on the table are never joined"
            )
        if isinstance(action, Draw | Take):
            if self._phase is not Phase.DRAW:
                return IllegalActionError(
                    action, "turn_order", "the turn has had its draw: meld, add or discard"
                )
            if isinstance(action, Take):
                if action.depth > len(self._pile):
                    return IllegalActionError(
                        action, "pile_depth", f"the discard pile holds {len(self._pile)} cards"
                    )
                if not self._take_ok(action.depth):
                    deepest = CARD_NAMES[self._pile[-action.depth]]
                    return IllegalActionError(
                        action,
                        "meld_taken_card",
                        f"the deepest card taken, {deepest}, could not be melded this turn",
                    )
            return None
        if self._phase is not Phase.PLAY:
            return IllegalActionError(
                action, "turn_order", "a turn starts with a draw from the stock or the pile"
            )
        counts = self._counts[seat]
        if isinstance(action, Discard):
            if not counts[action.card]:
                return _not_held(action, [action.card])
            if self._pending >= 0:
                return self._pending_error(action)
            return None
        if isinstance(action, Replace):
            return self._check_replace(action, seat)
        assert isinstance(action, MeldCards | Add)
        faces = [face for face, _ in action.cards]
        if any(faces.count(face) > counts[face] for face in faces):
            return _not_held(action, faces)
        if len(faces) >= self._sizes[seat]:
            return IllegalActionError(
                action,
                "keep_one_card",
                "the turn ends with a discard: a player never melds the last card",
            )
        if self._pending >= 0 and self._pending not in faces:
            return self._pending_error(action)
        try:
            if isinstance(action, MeldCards):
                build_meld(action.cards, seat, self.rules.wilds_per_meld)
            else:
                if action.meld >= len(self._melds):
                    return IllegalActionError(
                        action, "meld_index", f"there are {len(self._melds)} melds on the table"
                    )
                meld = self._melds[action.meld]
                if not self._may_add_to(seat, meld):
                    return self._add_permission_error(action, seat, meld)
                extend_meld(meld, action.cards, seat, self.rules.wilds_per_meld)
        except MeldError as error:
            return IllegalActionError(action, error.rule, error.reason)
        return None

    def _pending_error(self, action: PinnacoloAction) -> IllegalActionError:
        card = CARD_NAMES[self._pending]
        if self._pending_rule == "meld_replaced_wild":
            reason = f"the wild taken back, {card}, must be melded first"
        else:
            reason = f"the deepest card taken from the pile, {card}, must be melded first"
        return IllegalActionError(action, self._pending_rule, reason)

    def _add_permission_error(
        self, action: PinnacoloAction, seat: int, meld: TableMeld
    ) -> IllegalActionError:
        if self.rules.pairs and meld.owner == partner_of(seat):
            return IllegalActionError(
                action,
                "partner_meld_after_own",
                "a player adds to the partner's melds only after laying a meld of their own",
            )
        return IllegalActionError(
            action, "own_melds_only", f"meld {action_meld(action)} belongs to seat {meld.owner}"
        )

    def _check_replace(self, action: Replace, seat: int) -> IllegalActionError | None:
        if not self._laid[seat]:
            return IllegalActionError(
                action, "replace_after_own_meld", "only a player who has laid a meld replaces wilds"
            )
        if self._pending >= 0:
            return self._pending_error(action)
        if action.meld >= len(self._melds):
            return IllegalActionError(
                action, "meld_index", f"there are {len(self._melds)} melds on the table"
            )
        if is_wild(action.card):
            return IllegalActionError(
                action, "no_wild_for_card", "a wild is replaced by a natural card"
            )
        if not self._counts[seat][action.card]:
            return _not_held(action, [action.card])
        meld = self._melds[action.meld]
        position = meld.wild_for(action.card)
        if meld.kind is MeldKind.WILD_TRIS or position < 0:
            return IllegalActionError(
                action,
                "no_wild_for_card",
                f"no wild stands for {CARD_NAMES[action.card]} in meld {action.meld}",
            )
        wild = meld.cards[position][0]
        side_of = self.rules.side_of
        if wild in PINELLE and side_of(meld.layers[action.card]) != side_of(seat):
            return IllegalActionError(
                action,
                "pinella_owner",
                "a pinella is taken back only by the player who laid it or their partner",
            )
        if not self._replace_ok(seat, action.meld, action.card):
            return IllegalActionError(
                action,
                "meld_replaced_wild",
                f"the {CARD_NAMES[wild]} taken back could not be melded this turn",
            )
        return None

    # --------------------------------------------------------------- applying

    def apply(self, action: Action | str) -> None:
        """Apply the current player's ``action`` (or its text form).

        Raises ``IllegalActionError`` naming the broken rule, leaving the state unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action)
        error = self._check(action)
        if error is not None:
            raise error
        assert isinstance(action, PinnacoloAction)
        self._do(action)

    def _do(self, action: PinnacoloAction) -> None:
        seat = self._turn
        self._actions.append((seat, action))
        counts = self._counts[seat]
        if isinstance(action, MeldCards | Add):
            for face, _ in action.cards:
                counts[face] -= 1
            self._sizes[seat] -= len(action.cards)
            if isinstance(action, MeldCards):
                self._melds.append(build_meld(action.cards, seat, self.rules.wilds_per_meld))
                self._laid[seat] = True
            else:
                self._melds[action.meld] = extend_meld(
                    self._melds[action.meld], action.cards, seat, self.rules.wilds_per_meld
                )
            if any(face == self._pending for face, _ in action.cards):
                self._pending = -1
        elif isinstance(action, Discard):
            counts[action.card] -= 1
            self._sizes[seat] -= 1
            self._pile.append(action.card)
            if not self._sizes[seat]:
                self._closer = seat
                self._finish(Outcome.CLOSED)
            elif not self._stock and self.rules.empty_stock is EmptyStock.LAST_CARD_ENDS:
                self._finish(Outcome.STOCK_OUT)
            else:
                self._turn = left_of(seat, self.num_players)
                self._phase = Phase.DRAW
        elif isinstance(action, Draw):
            if not self._stock:
                self._finish(Outcome.STOCK_OUT)
            else:
                counts[self._stock.pop()] += 1
                self._sizes[seat] += 1
                self._start_play(seat)
        elif isinstance(action, Take):
            taken = self._pile[-action.depth :]
            del self._pile[-action.depth :]
            for face in taken:
                counts[face] += 1
            self._sizes[seat] += len(taken)
            self._start_play(seat)
            if self._take_obliges(action.depth):
                self._pending = taken[0]
                self._pending_rule = "meld_taken_card"
        else:
            assert isinstance(action, Replace)
            meld = self._melds[action.meld]
            position = meld.wild_for(action.card)
            wild = meld.cards[position][0]
            replaced = meld.copy()
            replaced.cards[position] = (action.card, action.card)
            del replaced.layers[action.card]
            replaced.update_sesta()
            self._melds[action.meld] = replaced
            counts[action.card] -= 1
            counts[wild] += 1
            if self.rules.replaced_wild_melded:
                self._pending = wild
                self._pending_rule = "meld_replaced_wild"

    def _start_play(self, seat: int) -> None:
        self._phase = Phase.PLAY
        self._opened = self._laid[seat]
        self._pending = -1

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._phase = Phase.OVER

    # -------------------------------------------------------------- enumeration

    def _legal_list(self) -> list[PinnacoloAction]:
        if self._legal_at != len(self._actions):
            self._legal = self._enumerate()
            self._legal_at = len(self._actions)
        return self._legal

    def _enumerate(self) -> list[PinnacoloAction]:
        if self._phase is Phase.OVER:
            return []
        if self._phase is Phase.DRAW:
            return [
                DRAW,
                *(Take(depth) for depth in range(1, len(self._pile) + 1) if self._take_ok(depth)),
            ]
        seat = self._turn
        counts = self._counts[seat]
        limit = self._sizes[seat] - 1
        pending = self._pending
        legal: list[PinnacoloAction] = []
        focus = pending if pending >= 0 and not is_wild(pending) else -1
        most = self.rules.wilds_per_meld
        for cards in meld_options(counts, limit, focus, most):
            if pending < 0 or _holds(cards, pending):
                legal.append(MeldCards(cards))
        for index, meld in enumerate(self._melds):
            if self._may_add_to(seat, meld):
                for cards in add_options(meld, counts, limit, most):
                    if pending < 0 or _holds(cards, pending):
                        legal.append(Add(index, cards))
        if pending < 0:
            if self._laid[seat]:
                for index, meld in enumerate(self._melds):
                    if meld.kind is MeldKind.WILD_TRIS:
                        continue
                    for face, stands_for in meld.cards:
                        if face != stands_for and counts[stands_for]:
                            replace = Replace(index, stands_for)
                            if self._check_replace(replace, seat) is None:
                                legal.append(replace)
            legal.extend(Discard(face) for face in range(NUM_FACES) if counts[face])
        return legal

    # ----------------------------------------------------------------- scoring

    def result(self) -> PinnacoloResult:
        """Every seat's and side's score with its breakdown; the hand must be over."""
        if self._result is None:
            self._result = self._score()
        return self._result

    def _score(self) -> PinnacoloResult:
        if self._outcome is None:
            raise NotOverError("the hand is not over: it has no result yet")
        rules = self.rules
        melded = [0] * self.num_players
        for meld in self._melds:
            melded[meld.owner] += meld.points()
        one_go = self._outcome is Outcome.CLOSED and not self._opened
        seats = []
        for seat in range(self.num_players):
            in_hand = sum(VALUES[face] * n for face, n in enumerate(self._counts[seat]) if n)
            bonus = 0
            if seat == self._closer:
                bonus = rules.one_go_bonus if one_go else rules.closing_bonus
            if not self._laid[seat]:
                if rules.no_meld_penalty is NoMeldPenalty.FLAT:
                    score = -rules.no_meld_points
                else:
                    score = -2 * in_hand
            else:
                score = melded[seat] - in_hand + bonus
            seats.append(SeatResult(seat, self._laid[seat], melded[seat], in_hand, bonus, score))
        sides = [0] * rules.sides
        for entry in seats:
            sides[rules.side_of(entry.seat)] += entry.score
        return PinnacoloResult(
            self._outcome,
            self._closer if self._closer >= 0 else None,
            one_go,
            tuple(seats),
            tuple(sides),
        )

    # ------------------------------------------------------------- observation

    def observation(self, seat: int) -> dict[str, Any]:
        """Exactly what ``seat`` may know, as a JSON-able dict (see ``observation``)."""
        return observe(self, seat)

    # ---------------------------------------------------------- random playout

    def play_randomly(self, rng: random.Random) -> None:
        """Finish the hand with actions chosen uniformly among the legal ones."""
        draw = rng.random
        while self._phase is not Phase.OVER:
            legal = self._legal_list()
            self._do(legal[int(draw() * len(legal))])


def action_meld(action: PinnacoloAction) -> int:
    return action.meld if isinstance(action, Add | Replace) else -1


def _may_hold(meld: TableMeld, face: int) -> bool:
    """Whether the natural ``face`` could join ``meld``: a tris of its rank, a scala of
    its suit."""
    if meld.kind is MeldKind.TRIS:
        return meld.rank == rank_of(face)
    return meld.kind is MeldKind.SCALA and meld.suit == suit_of(face)


def _holds(cards: list[Placed], face: int) -> bool:
    return any(placed == face for placed, _ in cards)


def _not_held(action: PinnacoloAction, faces: list[int]) -> IllegalActionError:
    names = " ".join(CARD_NAMES[face] for face in faces)
    return IllegalActionError(action, "cards_in_hand", f"the hand does not hold {names}")


class PinnacoloLegalActions:
    """A live view of the current player's legal actions: ``in`` (any action or its text,
    checked by the same rules as ``apply``), iteration, ``len`` and indexing. The list is built
    when first iterated, counted or indexed, once per position.
    """

    __slots__ = ("_state",)

    def __init__(self, state: PinnacoloHand) -> None:
        self._state = state

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionParseError:
                return False
        return self._state._check(action) is None

    def __len__(self) -> int:
        return len(self._state._legal_list())

    def __bool__(self) -> bool:
        return self._state._phase is not Phase.OVER

    def __iter__(self) -> Iterator[PinnacoloAction]:
        return iter(self._state._legal_list())

    def __getitem__(self, index: int) -> PinnacoloAction:
        return self._state._legal_list()[index]

    def __repr__(self) -> str:
        legal = self._state._legal_list()
        shown = ", ".join(str(action) for action in legal[:12])
        more = ", ..." if len(legal) > 12 else ""
        return f"<PinnacoloLegalActions ({len(legal)}): {shown}{more}>"


def new_hand(
    variant: str, *, seed: int, dealer: int = 0, rules: PinnacoloRules | None = None
) -> PinnacoloHand:
    """Deal a hand of ``variant`` from ``seed`` with generator ``splitmix64-fy-v1``.

    The shuffled pack is dealt in blocks of ``hand_size``, the first to the seat left of
    the dealer; the next card starts the discard pile; the rest is the stock, drawn in
    pack order. The deal depends only on the rules, the seed and the dealer.
    """
    rules = _resolve(variant, rules)
    _check_dealer(dealer, rules)
    pack = shuffle(list(PACK), seed)
    size, players = rules.hand_size, rules.players
    hands: list[list[int]] = [[] for _ in range(players)]
    for block in range(players):
        hands[left_of(dealer, players, 1 + block)] = pack[block * size : (block + 1) * size]
    dealt = size * players
    return PinnacoloHand(
        rules, hands, pack[dealt : dealt + 1], pack[dealt + 1 :], dealer=dealer, seed=seed
    )


def hand_from_cards(
    variant: str,
    hands: Sequence[Sequence[str] | str],
    *,
    pile: Sequence[str] | str,
    stock: Sequence[str] | str | None = None,
    dealer: int = 0,
    rules: PinnacoloRules | None = None,
) -> PinnacoloHand:
    """Start a hand from explicit hands (any sizes), the pile (bottom first) and the top
    of the stock (next card first); the cards left over follow in the stock in face order,
    so that the 104 cards are all there.

    >>> state = hand_from_cards("pinnacolo2", ["5H 6H 7H 9C 9C", "3S 4S 5S 6S 8D"],
    ...                         pile="KD", stock="JK")
    >>> state.stock_size
    93
    """
    rules = _resolve(variant, rules)
    _check_dealer(dealer, rules)
    if len(hands) != rules.players:
        raise CardError(f"{rules.players} hands are needed, got {len(hands)}")
    seats = [_parse_cards(hand) for hand in hands]
    pile_cards = _parse_cards(pile)
    stock_cards = _parse_cards(stock or [])
    left = list(PACK_COUNTS)
    for face in [face for cards in seats for face in cards] + pile_cards + stock_cards:
        left[face] -= 1
        if left[face] < 0:
            raise CardError(f"more copies of {CARD_NAMES[face]} than the pack holds")
    stock_cards += [face for face in range(NUM_FACES) for _ in range(left[face])]
    return PinnacoloHand(rules, seats, pile_cards, stock_cards, dealer=dealer, seed=None)


def _parse_cards(cards: Sequence[str] | str) -> list[int]:
    tokens = cards.split() if isinstance(cards, str) else list(cards)
    return [parse_card(token) for token in tokens]


def _resolve(variant: str, rules: PinnacoloRules | None) -> PinnacoloRules:
    if rules is None:
        return pinnacolo_rules(variant)
    if rules.name != variant:
        raise RulesError("name", f"the rules are for {rules.name!r}, not {variant!r}")
    return rules


def _check_dealer(dealer: int, rules: PinnacoloRules) -> None:
    check_seat(dealer, rules.players, "dealer")
