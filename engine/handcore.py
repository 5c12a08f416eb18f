"""The hot core of a pinochle hand: the fields every card and call reads, and the steps a
driver takes at each of them (``apply``, ``legal_actions``, ``phase``, ``is_terminal``).

A hand's state (``engine.trickstate.TrickTakingState``) derives from one of two twins of
this core: the C kernel's ``HandCore`` (``engine/_handcore.c``) when it is built, else
``PyHandCore`` below. Both keep the same fields under the same names, so the rest of the
state (the auction's rules, trump, meld, scoring, observations) is plain Python that
reads and writes them alike; the C twin takes a played card, a bid or a pass without
running any Python, which is where a driver through the public interface spends its time.
Every other action, and every refused one, goes to the state's ``_apply_py`` (its one
place of the rules' messages).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from engine.actions import PLAYS, Action, NameTrump, Play
from engine.cards import CARDS, NUM_FACES, Suit
from engine.errors import StateError
from engine.kernel import KERNEL
from engine.results import HandOutcome
from engine.tricks import STRONGER, TAKES, legal_mask

if TYPE_CHECKING:
    from engine.trickstate import LegalActions

__all__ = [
    "CLEAR",
    "CORE_FIELDS",
    "HandCore",
    "LegalCore",
    "Phase",
    "PyHandCore",
    "PyLegalCore",
]


class _PhaseType(enum.EnumType):
    """The phases' metaclass: with the kernel built, ``Phase.TRICKS`` is read as a plain
    class attribute (``engine/_enums.c``), without 3.11's ``EnumType.__getattr__`` hook,
    which a driver pays at every comparison of the phase."""


class Phase(enum.Enum, metaclass=_PhaseType):
    """The phases of a pinochle hand in which somebody acts (meld is scored automatically).

    Each game goes through some of them: four-hand through the auction, trump, the two
    passes, the throw-in and the tricks; three-hand through the auction, trump, the bury,
    the throw-in and the tricks; two-hand through the stock's tricks and melds, then the
    play-out.
    """

    AUCTION = "auction"
    TRUMP = "trump"
    PASS_TO_DECLARER = "pass_to_declarer"
    PASS_BACK = "pass_back"
    BURY = "bury"
    THROW_IN = "throw_in"
    TRICKS = "tricks"
    MELD = "meld"
    """Two-hand: the winner of a stock trick may meld one combination or exchange the dix."""
    PLAY_OUT = "play_out"
    """Two-hand: the stock is empty: follow suit, head the trick, trump."""
    OVER = "over"


# The hook finds only members missing from the class's dict (named like one of its
# properties): with every member there, plain reads find the same ones.
if KERNEL is not None and all(vars(Phase).get(name) is m for name, m in Phase.__members__.items()):
    KERNEL.plain_member_reads(_PhaseType)

# The phases as module constants, read in every step of play: a global's read costs less
# than a class attribute's, and without the kernel a member read from the enum class
# (``Phase.TRICKS``) goes through 3.11's ``EnumType.__getattr__`` hook, ten times more.
PHASE_AUCTION: Final = Phase.AUCTION
PHASE_TRUMP: Final = Phase.TRUMP
PHASE_PASS_TO_DECLARER: Final = Phase.PASS_TO_DECLARER
PHASE_PASS_BACK: Final = Phase.PASS_BACK
PHASE_TRICKS: Final = Phase.TRICKS
PHASE_PLAY_OUT: Final = Phase.PLAY_OUT
PHASE_OVER: Final = Phase.OVER

CLEAR: Final = tuple(~(1 << face) for face in range(NUM_FACES))
SUITS: Final = tuple(Suit)
"""The four suits (iterating the enum itself runs Python code each time)."""
NAME_TRUMP: Final = tuple(NameTrump(suit) for suit in SUITS)
"""The naming of each suit as trump, by suit (the legal actions hand these out)."""

CORE_FIELDS: Final = (
    "_actions",
    "_active",
    "_auction",
    "_bid_actions",
    "_declarer",
    "_fast",
    "_given",
    "_hand_size",
    "_hands",
    "_head",
    "_high_bidder",
    "_high_rung",
    "_if_winning",
    "_ladder_size",
    "_led",
    "_led_high",
    "_leader",
    "_legal",
    "_masks",
    "_nplayers",
    "_marriage",
    "_overtrump",
    "_pass_count",
    "_passed",
    "_passes",
    "_phase",
    "_points",
    "_raise_limit",
    "_sides",
    "_stuck",
    "_taken",
    "_tricks",
    "_trick_cards",
    "_trump",
    "_turn",
    "_view",
    "_win",
    "_win_seat",
    "_won",
)
"""The core's fields, in both twins (copies and pickles list them from here).

``_fast``: the state's class plays cards, calls and trump with the core's own steps (a
class that overrides ``_play`` or ``_legal_mask`` clears it, and every action then goes
through its ``_apply_py``). ``_stuck``: a dealer whom everybody passes to must bid;
``_marriage``: trump needs a marriage in the declarer's hand. ``_pass_count``: the cards a
four-hand partner and declarer give each other, which the core takes itself when more
than none (``_given``: each pass's cards). The trick in
play is ``_trick_cards`` with ``_leader``, ``_led`` (``-1`` while empty), ``_win``,
``_win_seat`` and ``_led_high``; ``_legal`` is the legal mask kept until the position
changes (``-1``: none)."""


_BIT_OF_COUNT: Final = bytes([48] + [49] * 255)
"""``bytes.translate`` table: a count to the digit of its bit, ``0`` or ``1``."""


def _mask_of(counts: Sequence[int]) -> int:
    """The face mask of a count vector."""
    # The counts as binary digits, highest face first, read by ``int``: a few calls
    # instead of a loop over the 24 faces (four hands at every deal).
    return int(bytes(counts).translate(_BIT_OF_COUNT)[::-1], 2)


mask_of: Callable[[Sequence[int]], int] = _mask_of if KERNEL is None else KERNEL.mask_of
"""The face mask of a count vector (the C kernel's where it is built)."""


class PyHandCore:
    """The core in Python: what runs when the C kernel is not built."""

    __slots__ = CORE_FIELDS

    _phase: Phase
    _turn: int
    _legal: int
    _fast: bool
    _view: LegalActions | None
    _actions: list[Action]
    _hands: list[list[int]]
    _masks: list[int]
    _trick_cards: list[int]
    _tricks: list[tuple[int, tuple[int, ...], int]]
    _taken: list[int]
    _won: list[int]
    _points: tuple[int, ...]
    _sides: tuple[int, ...]
    _auction: list[tuple[int, Action]]
    _passed: list[bool]
    _passes: tuple[Action, ...]
    _bid_actions: tuple[Action, ...]
    _active: int
    _high_rung: int
    _high_bidder: int
    _ladder_size: int
    _raise_limit: int
    _stuck: bool
    _marriage: bool
    _declarer: int
    _pass_count: int
    _given: list[tuple[Any, ...]]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._phase is PHASE_OVER else self._turn

    def is_terminal(self) -> bool:
        return self._phase is PHASE_OVER

    @property
    def legal_actions(self) -> LegalActions:
        """A live, lazy view of the current player's legal actions (one per state while
        the hand is played; an empty one, new at each call, once it is over)."""
        view = self._view
        if view is None:
            return self._new_view()
        return view

    def apply(self, action: Action | str) -> None:
        """Apply the current player's ``action`` (or its text form).

        Raises ``IllegalActionError`` naming the broken rule, leaving the state unchanged.
        """
        phase = self._phase
        if self._fast and type(action) is Play and phase is PHASE_TRICKS:
            face = action.card
            # The mask kept since ``len(legal_actions)`` asked for it, read without a call.
            mask = self._legal
            if mask < 0:
                mask = self._legal_mask()
            if (mask >> face) & 1:
                self._play(face)
                self._actions.append(action)
                return
        self._apply_py(action)

    def _legal_mask(self) -> int:
        # A driver asks len(legal_actions), then legal_actions[i], then apply(): the mask
        # is kept until the next change of the position (``-1``: none is kept).
        mask = self._legal
        if mask >= 0:
            return mask
        mask = legal_mask(
            self._masks[self._turn],
            self._led,
            self._win,
            self._led_high,
            self._trump,
            self._head,
            self._if_winning,
            self._overtrump,
        )
        self._legal = mask
        return mask

    def _play(self, face: int) -> None:
        """Play ``face`` for the current player; the caller has checked it is legal."""
        seat = self._turn
        hand = self._hands[seat]
        left = hand[face] - 1
        if left < 0:
            raise StateError(f"seat {seat} holds no card of face {face}")
        hand[face] = left
        self._legal = -1
        if not left:
            self._masks[seat] &= CLEAR[face]
        cards = self._trick_cards
        if cards:
            if TAKES[self._trump][self._win] >> face & 1:
                self._win = face
                self._win_seat = seat
            if STRONGER[self._led_high] >> face & 1:
                self._led_high = face
        else:
            self._leader = self._win_seat = seat
            self._led = face // 6
            self._win = self._led_high = face
        cards.append(face)
        players = self._nplayers
        if len(cards) < players:
            seat += 1
            self._turn = seat if seat < players else 0
            return
        self._end_trick()

    def _end_trick(self) -> None:
        cards = self._trick_cards
        points = self._points
        winner = self._win_seat
        side = self._sides[winner]
        taken = 0
        for face in cards:
            taken += points[face]
        self._taken[side] += taken
        self._won[side] += 1
        self._tricks.append((self._leader, tuple(cards), winner))
        cards.clear()
        self._led = -1
        self._turn = winner
        if self._fast:
            if len(self._tricks) == self._hand_size:
                self._finish(HandOutcome.MADE)
        else:
            self._after_trick()

    def _random_tricks(self, draw: Callable[[], float]) -> None:
        """Play random legal cards (one draw each, as ``_random_card``) to the end of the
        hand, which must be in its tricks and played by the core's own steps."""
        # ``_play`` with the trick kept in local variables: this loop is most of the time
        # of a random playout. Who takes the trick is read from the same ``TAKES`` table;
        # replaying its history through ``apply`` reproduces the same hand (tested).
        head, if_winning, overtrump = self._head, self._if_winning, self._overtrump
        points, sides, players = self._points, self._sides, self._nplayers
        hand_size = self._hand_size
        hands, masks, trump = self._hands, self._masks, self._trump
        takes = TAKES[trump]
        tricks, cards = self._tricks, self._trick_cards
        record, add_card = self._actions.append, cards.append
        clear, plays = CLEAR, PLAYS
        taken, won = self._taken, self._won
        seat = self._turn
        led, win, win_seat, led_high = self._led, self._win, self._win_seat, self._led_high
        leader = self._leader
        in_trick = len(cards)
        left_of, limit = (*range(1, players), 0), 1 << NUM_FACES
        # A hand has at most 80 cards: more plays, or a mask beyond the 24 faces, mean
        # fields overwritten, not a hand (the C twin stops the same way).
        for _ in range(96):
            mask = legal_mask(masks[seat], led, win, led_high, trump, head, if_winning, overtrump)
            if not 0 < mask < limit:
                raise StateError("the seat to play holds no card of the 24 faces")
            skip = int(draw() * mask.bit_count())
            while skip:
                mask &= mask - 1
                skip -= 1
            face = (mask & -mask).bit_length() - 1
            record(plays[face])
            hand = hands[seat]
            left = hand[face] - 1
            if left < 0:
                raise StateError(f"seat {seat} holds no card of face {face}")
            hand[face] = left
            if not left:
                masks[seat] &= clear[face]
            add_card(face)
            if in_trick:
                if takes[win] >> face & 1:
                    win = face
                    win_seat = seat
                if face // 6 == led and face < led_high:
                    led_high = face
            else:
                led = face // 6
                win = led_high = face
                win_seat = leader = seat
            in_trick += 1
            if in_trick < players:
                seat = left_of[seat]
                continue
            pot = 0
            for played in cards:
                pot += points[played]
            side = sides[win_seat]
            taken[side] += pot
            won[side] += 1
            tricks.append((leader, tuple(cards), win_seat))
            cards.clear()
            in_trick = 0
            led = -1
            seat = win_seat
            if len(tricks) == hand_size:
                break
        else:
            raise StateError("the hand does not end: its fields were changed")
        self._turn = seat
        self._legal = -1
        self._leader, self._led, self._win, self._win_seat = leader, led, win, win_seat
        self._led_high = led_high
        self._finish(HandOutcome.MADE)

    def _setup(
        self,
        core: tuple[Any, ...],
        seating: tuple[int, tuple[int, ...], int, bool],
        hands: list[list[int]],
        dealer: int,
    ) -> tuple[tuple[int, ...], ...]:
        """Set up the core of a hand just dealt: ``core`` is what it reads of the rules
        (``Rules._tables.core``), ``seating`` the class's seats, sides, number of sides
        and ``_fast``; ``hands`` (count lists) become the state's own. Returns the hands
        as dealt."""
        (
            self._head,
            self._if_winning,
            self._overtrump,
            self._points,
            self._hand_size,
            self._ladder_size,
            self._raise_limit,
            self._passes,
            self._bid_actions,
            self._stuck,
            self._marriage,
        ) = core
        players, self._sides, sides, self._fast = seating
        # The C twin's checks: a bad call gets an error, not a state without bounds.
        if not (2 <= players <= 4 and 1 <= sides <= players and 0 <= dealer < players):
            raise StateError("_setup: seats, sides, dealer or hands out of range")
        if len(hands) != players or any(len(counts) != NUM_FACES for counts in hands):
            raise StateError("_setup: seats, sides, dealer or hands out of range")
        self._nplayers = players
        self._hands = hands
        self._masks = [mask_of(counts) for counts in hands]
        self._actions = []
        self._auction = []
        self._passed = [False] * players
        self._active = players
        self._high_rung = self._high_bidder = self._declarer = self._trump = -1
        self._trick_cards = []
        self._leader = self._led = self._win = self._win_seat = self._led_high = -1
        self._tricks = []
        self._legal = -1
        self._taken = [0] * sides
        self._won = [0] * sides
        self._phase = PHASE_AUCTION
        self._turn = (dealer + 1) % players
        self._pass_count = 0
        return tuple(map(tuple, hands))

    if TYPE_CHECKING:
        # The C twin's alone: it deals through the kernel's shuffle, and ``new`` calls it
        # only when the kernel is built (the pure engine deals in Python, then ``_setup``).
        def _deal(
            self,
            config: Any,
            seed: int,
            dealer: int,
            core: tuple[Any, ...],
            seating: tuple[int, tuple[int, ...], int, bool],
        ) -> tuple[tuple[tuple[int, ...], ...], list[int]]: ...

    def _copy_core(self, other: PyHandCore) -> None:
        """Copy every core field into ``other``: lists copied (the hands' count lists
        too), the view excepted (the copy makes its own)."""
        for name in CORE_FIELDS:
            if name == "_view" or not hasattr(self, name):
                continue
            value = getattr(self, name)
            setattr(other, name, value[:] if type(value) is list else value)
        other._hands = [counts[:] for counts in self._hands]

    # The state's own (``TrickTakingState``), called from here.

    _trump: int
    _head: int
    _if_winning: bool
    _overtrump: bool
    _led: int
    _win: int
    _win_seat: int
    _led_high: int
    _leader: int
    _nplayers: int
    _hand_size: int

    def _new_view(self) -> LegalActions:
        raise NotImplementedError

    def _apply_py(self, action: Action | str) -> None:
        raise NotImplementedError

    def _finish(self, outcome: HandOutcome) -> None:
        raise NotImplementedError

    def _after_trick(self) -> None:
        raise NotImplementedError


class PyLegalCore:
    """The legal actions' view in Python: ``len`` and indexing in trick play, else the
    state's own ``_legal_count`` and ``_legal_item``."""

    __slots__ = ("_state",)

    def __init__(self, state: Any) -> None:
        self._state = state

    def __len__(self) -> int:
        state = self._state
        phase = state._phase
        if phase is PHASE_TRICKS or phase is PHASE_PLAY_OUT:
            # The mask the state keeps (a driver asks ``len``, then an index, then
            # ``apply``), read here and below without a call: a call costs as much.
            mask: int = state._legal
            if mask < 0:
                mask = state._legal_mask()
            return mask.bit_count()
        count: int = state._legal_count()
        return count

    def __getitem__(self, index: int) -> Action:
        state = self._state
        phase = state._phase
        if phase is PHASE_TRICKS or phase is PHASE_PLAY_OUT:
            kept: int = state._legal
            mask = kept if kept >= 0 else state._legal_mask()
            size = mask.bit_count()
            if index < 0:
                index += size
            if not 0 <= index < size:
                raise IndexError("legal action index out of range")
            while index:
                mask &= mask - 1
                index -= 1
            return PLAYS[(mask & -mask).bit_length() - 1]
        action: Action = state._legal_item(index)
        return action


def _bind() -> tuple[type[PyHandCore], type[PyLegalCore]]:
    """The C twins, told once which Python objects stand for what; else the Python ones."""
    if KERNEL is None:
        return PyHandCore, PyLegalCore
    from engine.actions import Bid, Give, Pass, PassWithHelp

    KERNEL.bind_hand(
        StateError,
        (Play, Bid, Pass, PassWithHelp, Give, NameTrump),
        PLAYS,
        CARDS,
        NAME_TRUMP,
        (
            PHASE_AUCTION,
            PHASE_TRUMP,
            PHASE_PASS_TO_DECLARER,
            PHASE_PASS_BACK,
            PHASE_TRICKS,
            PHASE_PLAY_OUT,
            PHASE_OVER,
        ),
        (HandOutcome.MADE, HandOutcome.PASSED_OUT),
    )
    cores: tuple[type[PyHandCore], type[PyLegalCore]] = (KERNEL.HandCore, KERNEL.LegalCore)
    return cores


if TYPE_CHECKING:
    HandCore = PyHandCore
    LegalCore = PyLegalCore
else:
    HandCore, LegalCore = _bind()
    """The core the hand states derive from: the C kernel's when it is built."""
