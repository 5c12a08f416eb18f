"""Variant rules: one frozen dataclass per pinochle game, holding the parameters of
RULES.md sections 2-7 that the game has (``Rules`` is what they all have).

Presets (section 6) are found by name; a league overrides any parameter of the game:

>>> rules = pinochle_rules("auction4", {"target": 1000})
>>> rules.target, rules.pass_count, rules.must_head
(1000, 4, <MustHead.ALWAYS: 'always'>)
>>> Rules.from_json(rules.to_json()) == rules
True
>>> pinochle_rules("auction4", {"trgt": 1})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.RulesError: rule parameter 'trgt': unknown parameter (known: ...)
>>> pinochle_rules("auction4", {"widow": 3})
Traceback (most recent call last):
...
engine.errors.RulesError: rule parameter 'widow': auction4 has no such rule
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from engine.actions import PASS, PASS_WITH_HELP, Bid
from engine.cards import DECKS, NUM_FACES, Rank
from engine.errors import RulesError, UnknownVariantError

__all__ = [
    "DOUBLE_DECK_MELD",
    "PRESETS",
    "SINGLE_DECK_MELD",
    "AllPass",
    "AuctionRules",
    "BothReach",
    "MeldTable",
    "MeldValues",
    "MustHead",
    "MustTrump",
    "Pinochle2Rules",
    "Pinochle3Rules",
    "Pinochle4Rules",
    "Rules",
    "pinochle_rules",
    "pinochle_variants",
]


class MustHead(enum.Enum):
    """When a player following suit must beat the winning card (RULES.md section 4)."""

    ALWAYS = "always"
    TRUMP_LED_ONLY = "trump_led_only"
    LEAD_SUIT_EVEN_IF_TRUMPED = "lead_suit_even_if_trumped"
    NEVER = "never"


class MustTrump(enum.Enum):
    """When a player void in the led suit must play a trump (RULES.md section 4)."""

    ALWAYS = "always"
    ONLY_IF_WINNING = "only_if_winning"


class AllPass(enum.Enum):
    """What happens when nobody has bid and only the dealer is left (RULES.md section 2)."""

    DEALER_STUCK = "dealer_stuck"
    """The dealer's only action is to bid the minimum."""
    REDEAL = "redeal"
    """The dealer may pass too; if all pass the hand scores nothing and the deal moves on."""


class BothReach(enum.Enum):
    """Who wins when several players reach the target on the same hand (RULES.md 5, 7.1)."""

    DECLARER = "declarer"
    """The declaring side, if it is among them (RULES.md section 5); otherwise, in the
    individual games, the higher total."""
    HIGHER_TOTAL = "higher_total"
    """The higher total (two-hand); equal totals play another deal."""


@dataclass(frozen=True, slots=True)
class MeldTable:
    """Meld values at scale 1 (RULES.md 3.1 and 3.3).

    Tuples are indexed by multiplicity minus one: ``run[1]`` is the double run. A table
    needs an entry for every multiplicity the deck allows (2 single, 4 double).
    """

    run: tuple[int, ...]
    aces_around: tuple[int, ...]
    kings_around: tuple[int, ...]
    queens_around: tuple[int, ...]
    jacks_around: tuple[int, ...]
    pinochle: tuple[int, ...]
    royal_marriage: int
    marriage: int
    dix: int

    def to_json(self) -> dict[str, Any]:
        return {
            f.name: list(value) if isinstance(value := getattr(self, f.name), tuple) else value
            for f in dataclasses.fields(self)
        }


SINGLE_DECK_MELD = MeldTable(
    run=(15, 150),
    aces_around=(10, 100),
    kings_around=(8, 80),
    queens_around=(6, 60),
    jacks_around=(4, 40),
    pinochle=(4, 30),
    royal_marriage=4,
    marriage=2,
    dix=1,
)

DOUBLE_DECK_MELD = MeldTable(
    run=(15, 150, 225, 300),
    aces_around=(10, 100, 150, 200),
    kings_around=(8, 80, 120, 160),
    queens_around=(6, 60, 90, 120),
    jacks_around=(4, 40, 60, 80),
    pinochle=(4, 30, 60, 90),
    royal_marriage=4,
    marriage=2,
    dix=1,
)


class _Tables:
    """Per-rules lookup tables built once, so that dealing a hand costs no set-up."""

    __slots__ = (
        "bid_actions",
        "bid_index",
        "bids",
        "core",
        "counter_points",
        "dealer_stuck",
        "deck_copies",
        "hand_size",
        "head",
        "meld",
        "overtrump",
        "pass_with_help",
        "raise_limit",
        "trump_if_winning",
    )

    def __init__(self, rules: Rules) -> None:
        deck = DECKS[rules.deck]
        self.deck_copies = deck.copies
        self.hand_size = rules._tables_hand_size(deck.size)
        bids, self.raise_limit, self.pass_with_help = rules._auction_tables()
        self.bids = bids
        self.bid_index = {bid: index for index, bid in enumerate(bids)}
        self.bid_actions = tuple(Bid(bid) for bid in bids)
        """The ladder's bids as actions, by rung: the legal actions hand out these, and
        the hand's core takes them by identity."""
        self.dealer_stuck = getattr(rules, "all_pass", None) is AllPass.DEALER_STUCK
        counters = (Rank.A, Rank.T, Rank.K)
        self.counter_points = tuple(
            rules.counter_value if face % 6 in counters else 0 for face in range(NUM_FACES)
        )
        self.head = _HEAD_CODES[rules.must_head]
        self.trump_if_winning = rules.must_trump is MustTrump.ONLY_IF_WINNING
        self.overtrump = rules.must_overtrump
        self.core = (
            self.head,
            self.trump_if_winning,
            self.overtrump,
            self.counter_points,
            self.hand_size,
            len(bids),
            self.raise_limit,
            (PASS, PASS_WITH_HELP) if self.pass_with_help else (PASS,),
            self.bid_actions,
            self.dealer_stuck,
            bool(getattr(rules, "trump_needs_marriage", False)),
        )
        """What a hand's core reads of the rules (``HandCore._setup``), in its order."""
        scale = rules.meld_scale
        table = rules.meld_table
        self.meld = MeldValues(
            run=(0, *(v * scale for v in table.run)),
            aces=(0, *(v * scale for v in table.aces_around)),
            kings=(0, *(v * scale for v in table.kings_around)),
            queens=(0, *(v * scale for v in table.queens_around)),
            jacks=(0, *(v * scale for v in table.jacks_around)),
            pinochle=(0, *(v * scale for v in table.pinochle)),
            royal_marriage=table.royal_marriage * scale,
            marriage=table.marriage * scale,
            dix=table.dix * scale,
            run_includes_marriage=rules.run_includes_marriage,
        )


@dataclass(frozen=True, slots=True)
class MeldValues:
    """A meld table scaled and indexed by multiplicity (index 0 is worth 0)."""

    run: tuple[int, ...]
    aces: tuple[int, ...]
    kings: tuple[int, ...]
    queens: tuple[int, ...]
    jacks: tuple[int, ...]
    pinochle: tuple[int, ...]
    royal_marriage: int
    marriage: int
    dix: int
    run_includes_marriage: bool


_HEAD_CODES = {
    MustHead.ALWAYS: 0,
    MustHead.TRUMP_LED_ONLY: 1,
    MustHead.LEAD_SUIT_EVEN_IF_TRUMPED: 2,
    MustHead.NEVER: 3,
}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """What every pinochle game's rules have (RULES.md sections 3 to 6); each game has a
    subclass with its own parameters: ``Pinochle4Rules``, ``Pinochle3Rules``,
    ``Pinochle2Rules``. ``Rules.from_json`` reads any of them (by their ``game``).

    - ``name``: the variant; ``game`` (a class attribute): the game it belongs to;
      ``deck``: ``single`` (48) or ``double`` (80); ``players``: the game's seats.
    - ``must_head``, ``must_trump``, ``must_overtrump``: the trick rules of section 4.
    - ``counter_value``: points of each A, T, K taken; ``last_trick_bonus``.
    - ``meld_table`` (scale 1) and ``meld_scale``; ``run_includes_marriage``: the K-Q of a
      run cannot also score a royal marriage; ``meld_needs_trick``: a side that takes no
      trick loses its meld.
    - ``target``: the game score that ends a game; ``both_reach``: who wins when several
      reach it on the same hand (``BothReach``).

    A game's rules hold only the parameters the game uses: an override naming another
    game's parameter is refused. Documents written before the games had rules of their
    own hold every parameter of every game; they still read, the parameters of the other
    games being left out: the rules of that time kept each one that could change a game's
    play at that game's default (no widow, stock, passing or pass with help where the
    game has none), so those left out (the widow's visibility outside three-hand, the
    bidding of two-hand) never changed a hand.
    """

    game: ClassVar[str]
    """The game these rules belong to (``pinochle4``): one class per game."""
    seats: ClassVar[int]

    name: str
    deck: str
    players: int
    must_head: MustHead
    must_trump: MustTrump
    must_overtrump: bool
    counter_value: int
    last_trick_bonus: int
    meld_scale: int
    meld_table: MeldTable
    run_includes_marriage: bool
    meld_needs_trick: bool
    target: int
    both_reach: BothReach = BothReach.DECLARER
    _tables: _Tables = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not hasattr(type(self), "game"):
            raise TypeError(f"{type(self).__name__} is not the rules of a game")
        self._validate()
        object.__setattr__(self, "_tables", _Tables(self))

    @property
    def hand_size(self) -> int:
        return self._tables.hand_size

    @property
    def meld_values(self) -> MeldValues:
        """The meld table scaled by ``meld_scale``, indexed by multiplicity."""
        return self._tables.meld

    @property
    def bids(self) -> tuple[int, ...]:
        """Every bid on the ladder, lowest first (none in a game without an auction)."""
        return self._tables.bids

    def card_points(self, card: int) -> int:
        """What taking ``card`` (a face) in a trick is worth: its counter value, or 0."""
        return self._tables.counter_points[card]

    @property
    def total_in_tricks(self) -> int:
        """Counters in the pack plus the last-trick bonus (25, 250, 50 in the presets)."""
        copies = DECKS[self.deck].copies
        points = self._tables.counter_points
        return sum(c * p for c, p in zip(copies, points, strict=True)) + self.last_trick_bonus

    def replace(self, **changes: Any) -> Rules:
        """A copy with some parameters changed (values as Python objects or JSON)."""
        return rules_with(self, changes)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict of the game and its parameters; ``from_json`` reads
        it back."""
        out: dict[str, Any] = {"game": self.game}
        for f in _fields(type(self)):
            out[f.name] = _to_json(getattr(self, f.name))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Read rules written by ``to_json`` (or by a release that wrote every game's
        parameters): ``Rules.from_json`` reads any game's, by the document's ``game``
        (``pinochle4`` when absent, as the first documents were); a game's class reads
        only its own."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "expected a JSON object")
        game = data.get("game", "pinochle4")
        kind = _GAME_RULES.get(game) if isinstance(game, str) else None
        if kind is None:
            raise RulesError("game", f"unknown game {game!r} (known: {', '.join(_GAME_RULES)})")
        if not issubclass(kind, cls):
            raise RulesError("game", f"expected {cls.__name__}, got the {game} game's rules")
        own = _fields(kind)
        # Parameters added after the first release have defaults, so older documents load.
        missing = [f.name for f in own if f.name not in data and f.default is dataclasses.MISSING]
        if missing:
            raise RulesError(missing[0], "missing")
        names = {f.name for f in own}
        # The game's parameters, its name and any unknown key (refused) are read; another
        # game's parameter, which an older document holds, is left out (see the class).
        kept = {k: v for k, v in data.items() if k in names or k not in _ALL_NAMES}
        values = _decode_all(kind, kept, base=None)
        rules = kind(**values)
        assert isinstance(rules, cls)
        return rules

    def _validate(self) -> None:
        check = _check
        check(self.deck in DECKS, "deck", f"unknown deck {self.deck!r} (known: single, double)")
        check(
            self.players == self.seats, "players", f"the {self.game} game has {self.seats} players"
        )
        deck = DECKS[self.deck]
        self._validate_deal(deck.size)
        check(self.counter_value >= 0, "counter_value", "must not be negative")
        check(self.last_trick_bonus >= 0, "last_trick_bonus", "must not be negative")
        check(self.meld_scale >= 1, "meld_scale", "must be at least 1")
        check(self.target >= 1, "target", "must be positive")
        check(
            self.both_reach is BothReach.DECLARER or not self._has_declarer(),
            "both_reach",
            f"the {self.game} game gives a tie on the target to the declarer",
        )
        for f in dataclasses.fields(MeldTable):
            value = getattr(self.meld_table, f.name)
            if isinstance(value, tuple):
                check(
                    len(value) >= deck.max_copies,
                    "meld_table",
                    f"{f.name} needs {deck.max_copies} values for the {deck.name} deck",
                )

    def _validate_deal(self, deck_size: int) -> None:
        """The pack must deal out evenly (less any cards dealt aside)."""
        _check(
            (deck_size - self.widow_size) % self.players == 0,
            "players",
            "the deck does not divide evenly",
        )

    @property
    def widow_size(self) -> int:
        """Cards dealt aside for the declarer, who buries as many: none unless the game
        has a widow (what a reader of any game's rules may ask, where only the three-hand
        game has a ``widow`` parameter)."""
        return 0

    def _tables_hand_size(self, deck_size: int) -> int:
        """Cards dealt to each player: the pack less any set aside, shared."""
        return (deck_size - self.widow_size) // self.players

    def _has_declarer(self) -> bool:
        """A game with an auction has a declarer, who wins a tie on the target."""
        return False

    def _auction_tables(self) -> tuple[tuple[int, ...], int, bool]:
        """What the hand states read of the auction, whatever the game: the bids of the
        ladder, the raise limit in rungs (-1: any) and whether "pass with help" exists.
        A game without an auction has no bid, and so never reads the other two."""
        return (), -1, False


@dataclass(frozen=True, kw_only=True)
class AuctionRules(Rules):
    """The rules of a game with an auction and a declarer (RULES.md section 2).

    - ``bid_ladder``: ``(from, step)`` segments, each running up to the next segment's
      start: ``((50, 1), (60, 5))`` is 50, 51, ..., 60, 65, 70...; ``bid_max``: bids above
      it are refused (a documented limit, the same for every seat); ``max_raise_rungs``:
      a bid rises at most that many rungs above the current bid, the first bid counting
      from one rung below the minimum (``auction4``'s +10 or +20 is 2; ``None``: any).
    - ``all_pass``: what happens when nobody bids (``AllPass``).
    - ``trump_needs_marriage``: trump must be a suit where the declarer holds K-Q; with
      none, the hand is lost ("no marriage").
    - ``throw_in``: the declarer may concede after the meld.
    """

    bid_ladder: tuple[tuple[int, int], ...]
    bid_max: int
    max_raise_rungs: int | None
    all_pass: AllPass
    trump_needs_marriage: bool
    throw_in: bool

    @property
    def min_bid(self) -> int:
        return self.bid_ladder[0][0]

    def _validate(self) -> None:
        super()._validate()
        check = _check
        check(len(self.bid_ladder) > 0, "bid_ladder", "needs at least one (from, step) segment")
        previous = 0
        for start, step in self.bid_ladder:
            check(start > previous, "bid_ladder", "segment starts must be positive and rising")
            check(step > 0, "bid_ladder", "steps must be positive")
            previous = start
        check(self.bid_max >= self.min_bid, "bid_max", "below the minimum bid")
        check(
            self.max_raise_rungs is None or self.max_raise_rungs >= 1,
            "max_raise_rungs",
            "must be at least 1, or null for any higher bid",
        )

    def _has_declarer(self) -> bool:
        return True

    def _auction_tables(self) -> tuple[tuple[int, ...], int, bool]:
        bids: list[int] = []
        segments = self.bid_ladder
        for index, (start, step) in enumerate(segments):
            end = segments[index + 1][0] if index + 1 < len(segments) else self.bid_max + 1
            bids.extend(range(start, min(end, self.bid_max + 1), step))
        limit = self.max_raise_rungs
        return tuple(bids), -1 if limit is None else limit, self._passes_with_help()

    def _passes_with_help(self) -> bool:
        """Whether the "pass with help" call exists: only between partners."""
        return False


@dataclass(frozen=True, kw_only=True)
class Pinochle4Rules(AuctionRules):
    """Four-hand partnership pinochle (RULES.md sections 2 to 6): the auction, and
    - ``pass_count``: cards passed partner to declarer and back (0: no passing);
    - ``pass_with_help``: the "pass with help" call exists.
    """

    game = "pinochle4"
    seats = 4

    pass_count: int
    pass_with_help: bool

    def _validate(self) -> None:
        super()._validate()
        hand_size = self._tables_hand_size(DECKS[self.deck].size)
        _check(0 <= self.pass_count <= hand_size, "pass_count", f"must be 0 to {hand_size}")

    def _passes_with_help(self) -> bool:
        return self.pass_with_help


@dataclass(frozen=True, kw_only=True)
class Pinochle3Rules(AuctionRules):
    """Three-hand cutthroat (RULES.md section 7): the auction, and
    - ``widow``: cards dealt aside for the declarer, who buries as many;
    - ``widow_public``: everybody sees the widow when it is taken;
    - ``bury_meld_cards``: the declarer may bury cards that serve in its meld.
    """

    game = "pinochle3"
    seats = 3

    widow: int
    widow_public: bool = True
    bury_meld_cards: bool = False

    def _validate(self) -> None:
        deck = DECKS.get(self.deck)
        if deck is not None:
            # Checked first: the deal's own checks divide by the widow's size.
            _check(0 <= self.widow < deck.size, "widow", f"must be 0 to {deck.size - 1}")
        _check(self.deck == "single", "deck", f"the {self.game} game uses the single deck")
        super()._validate()

    @property
    def widow_size(self) -> int:
        return self.widow


@dataclass(frozen=True, kw_only=True)
class Pinochle2Rules(Rules):
    """Two-hand pinochle with a stock (RULES.md section 7.1), no auction:
    - ``cards_each``: cards dealt to each player, the rest being the stock whose bottom
      card is turned for trump;
    - ``turned_dix``: the dealer's score when that card is a nine;
    - ``dix_exchange``: the score for exchanging the dix for it.
    """

    game = "pinochle2"
    seats = 2

    cards_each: int
    turned_dix: int = 0
    dix_exchange: int = 0

    def _validate(self) -> None:
        _check(self.deck == "single", "deck", f"the {self.game} game uses the single deck")
        super()._validate()
        _check(self.turned_dix >= 0, "turned_dix", "must not be negative")
        _check(self.dix_exchange >= 0, "dix_exchange", "must not be negative")

    def _validate_deal(self, deck_size: int) -> None:
        stock = deck_size - self.players * self.cards_each
        _check(
            self.cards_each >= 1 and stock >= 2 and stock % 2 == 0,
            "cards_each",
            "must leave an even stock of at least 2 cards",
        )

    def _tables_hand_size(self, deck_size: int) -> int:
        return self.cards_each


def _check(ok: bool, parameter: str, message: str) -> None:
    if not ok:
        raise RulesError(parameter, message)


_GAME_RULES: dict[str, type[Rules]] = {
    kind.game: kind for kind in (Pinochle4Rules, Pinochle3Rules, Pinochle2Rules)
}
"""Each pinochle game's rules class, by game."""


def _fields(kind: type[Rules]) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(kind) if f.init)


_ALL_NAMES = frozenset(f.name for kind in _GAME_RULES.values() for f in _fields(kind))
"""Every parameter of some pinochle game (what the documents of the flat rules held)."""


def _to_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, MeldTable):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_to_json(item) for item in value]
    return value


def _decode_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(name, f"expected an integer, got {value!r}")
    return value


def _decode_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesError(name, f"expected true or false, got {value!r}")
    return value


def _decode_enum(name: str, enum_type: type[enum.Enum], value: Any) -> Any:
    if isinstance(value, enum_type):
        return value
    try:
        return enum_type(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in enum_type)
        raise RulesError(name, f"expected one of {choices}, got {value!r}") from None


def _decode_ints(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise RulesError(name, f"expected a non-empty list of integers, got {value!r}")
    return tuple(_decode_int(name, item) for item in value)


def _decode_meld_table(value: Any, base: MeldTable | None) -> MeldTable:
    if isinstance(value, MeldTable):
        return value
    if not isinstance(value, Mapping):
        raise RulesError("meld_table", f"expected an object, got {value!r}")
    known = {f.name: f for f in dataclasses.fields(MeldTable)}
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise RulesError("meld_table", f"unknown entry {unknown[0]!r} (known: {', '.join(known)})")
    if base is None:
        missing = sorted(set(known) - set(value))
        if missing:
            raise RulesError("meld_table", f"missing entry {missing[0]!r}")
    entries: dict[str, Any] = {}
    for key, f in known.items():
        if key not in value:
            entries[key] = getattr(base, key)
        elif f.type == "tuple[int, ...]":
            entries[key] = _decode_ints(f"meld_table.{key}", value[key])
        else:
            entries[key] = _decode_int(f"meld_table.{key}", value[key])
    return MeldTable(**entries)


def _decode(name: str, value: Any, base: Rules | None) -> Any:
    if name in ("name", "deck", "game"):
        if not isinstance(value, str) or not value:
            raise RulesError(name, f"expected a non-empty string, got {value!r}")
        return value
    if name == "bid_ladder":
        if not isinstance(value, list | tuple) or not value:
            raise RulesError(name, f"expected a list of [from, step] pairs, got {value!r}")
        segments = []
        for segment in value:
            pair = _decode_ints(name, segment)
            if len(pair) != 2:
                raise RulesError(name, f"expected [from, step], got {segment!r}")
            segments.append((pair[0], pair[1]))
        return tuple(segments)
    if name in ("max_raise_rungs", "cards_each"):
        return None if value is None else _decode_int(name, value)
    if name == "both_reach":
        return _decode_enum(name, BothReach, value)
    if name == "all_pass":
        return _decode_enum(name, AllPass, value)
    if name == "must_head":
        return _decode_enum(name, MustHead, value)
    if name == "must_trump":
        return _decode_enum(name, MustTrump, value)
    if name == "meld_table":
        return _decode_meld_table(value, None if base is None else base.meld_table)
    if name in _BOOL_FIELDS:
        return _decode_bool(name, value)
    return _decode_int(name, value)


_BOOL_FIELDS = frozenset(
    f.name for kind in _GAME_RULES.values() for f in _fields(kind) if f.type in ("bool", bool)
)


def _decode_all(kind: type[Rules], data: Mapping[str, Any], base: Rules | None) -> dict[str, Any]:
    own = tuple(f.name for f in _fields(kind))
    variant = data.get("name") if base is None else base.name
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "game":
            # The game is the rules' class: a document may name it, never change it.
            if value != kind.game:
                raise RulesError(key, f"the rules are of the {kind.game} game, not {value!r}")
            continue
        if key not in own:
            if key in _ALL_NAMES:
                raise RulesError(key, f"{variant or kind.game} has no such rule")
            raise RulesError(key, f"unknown parameter (known: {', '.join(own)})")
        values[key] = _decode(key, value, base)
    return values


def rules_with(base: Rules, changes: Mapping[str, Any]) -> Rules:
    """``base`` with ``changes`` applied; names and values are checked, and a parameter
    of another game is refused."""
    return dataclasses.replace(base, **_decode_all(type(base), changes, base))


PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        Pinochle4Rules(
            name="single4",
            deck="single",
            players=4,
            bid_ladder=((16, 1),),
            bid_max=250,
            max_raise_rungs=None,
            all_pass=AllPass.DEALER_STUCK,
            pass_with_help=False,
            trump_needs_marriage=False,
            pass_count=3,
            throw_in=False,
            must_head=MustHead.TRUMP_LED_ONLY,
            must_trump=MustTrump.ALWAYS,
            must_overtrump=False,
            counter_value=1,
            last_trick_bonus=1,
            meld_scale=1,
            meld_table=SINGLE_DECK_MELD,
            run_includes_marriage=True,
            meld_needs_trick=False,
            target=150,
        ),
        Pinochle4Rules(
            name="auction4",
            deck="single",
            players=4,
            bid_ladder=((250, 10),),
            bid_max=2500,
            max_raise_rungs=2,
            all_pass=AllPass.DEALER_STUCK,
            pass_with_help=True,
            trump_needs_marriage=False,
            pass_count=4,
            throw_in=True,
            must_head=MustHead.ALWAYS,
            must_trump=MustTrump.ALWAYS,
            must_overtrump=False,
            counter_value=10,
            last_trick_bonus=10,
            meld_scale=10,
            meld_table=SINGLE_DECK_MELD,
            run_includes_marriage=True,
            meld_needs_trick=False,
            target=1500,
        ),
        Pinochle4Rules(
            name="double4",
            deck="double",
            players=4,
            bid_ladder=((50, 1), (60, 5)),
            bid_max=500,
            max_raise_rungs=None,
            all_pass=AllPass.DEALER_STUCK,
            pass_with_help=False,
            trump_needs_marriage=True,
            pass_count=0,
            throw_in=True,
            must_head=MustHead.ALWAYS,
            must_trump=MustTrump.ALWAYS,
            must_overtrump=True,
            counter_value=1,
            last_trick_bonus=2,
            meld_scale=1,
            meld_table=DOUBLE_DECK_MELD,
            run_includes_marriage=True,
            meld_needs_trick=False,
            target=500,
        ),
        Pinochle3Rules(
            name="cutthroat3",
            deck="single",
            players=3,
            bid_ladder=((250, 10),),
            bid_max=2500,
            max_raise_rungs=2,
            all_pass=AllPass.DEALER_STUCK,
            trump_needs_marriage=False,
            throw_in=True,
            must_head=MustHead.TRUMP_LED_ONLY,
            must_trump=MustTrump.ALWAYS,
            must_overtrump=False,
            counter_value=10,
            last_trick_bonus=10,
            meld_scale=10,
            meld_table=SINGLE_DECK_MELD,
            run_includes_marriage=True,
            meld_needs_trick=False,
            target=1500,
            widow=3,
        ),
        Pinochle2Rules(
            name="twohand",
            deck="single",
            players=2,
            must_head=MustHead.ALWAYS,
            must_trump=MustTrump.ALWAYS,
            must_overtrump=False,
            counter_value=10,
            last_trick_bonus=10,
            meld_scale=10,
            meld_table=SINGLE_DECK_MELD,
            run_includes_marriage=True,
            meld_needs_trick=False,
            target=1000,
            cards_each=12,
            turned_dix=10,
            dix_exchange=10,
            both_reach=BothReach.HIGHER_TOTAL,
        ),
    )
}


def pinochle_variants(game: str | None = None) -> list[str]:
    """Names of the pinochle presets (every pinochle game's; only ``game``'s when given).

    The variants of every registered game, Pinnacolo's too, are
    ``engine.registry.variant_names()``.
    """
    return [name for name, rules in PRESETS.items() if game is None or rules.game == game]


def pinochle_rules(variant: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The pinochle preset named ``variant``, with a league's ``overrides`` applied.

    Any registered game's rules, whatever their type, are ``engine.registry.rules_for``.
    """
    try:
        base = PRESETS[variant]
    except KeyError:
        raise UnknownVariantError(variant, PRESETS) from None
    return rules_with(base, overrides) if overrides else base
