"""Variant rules: one frozen dataclass holding every parameter of RULES.md sections 2-5.

Presets (section 6) are found by name; a league overrides any parameter:

>>> rules = pinochle_rules("auction4", {"target": 1000})
>>> rules.target, rules.pass_count, rules.must_head
(1000, 4, <MustHead.ALWAYS: 'always'>)
>>> Rules.from_json(rules.to_json()) == rules
True
>>> pinochle_rules("auction4", {"trgt": 1})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.RulesError: rule parameter 'trgt': unknown parameter (known: ...)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import DECKS, NUM_FACES, Rank
from engine.errors import RulesError, UnknownVariantError

__all__ = [
    "DOUBLE_DECK_MELD",
    "PRESETS",
    "SINGLE_DECK_MELD",
    "AllPass",
    "BothReach",
    "MeldTable",
    "MeldValues",
    "MustHead",
    "MustTrump",
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
        "bid_index",
        "bids",
        "counter_points",
        "deck_copies",
        "hand_size",
        "head",
        "meld",
        "overtrump",
        "trump_if_winning",
    )

    def __init__(self, rules: Rules) -> None:
        deck = DECKS[rules.deck]
        self.deck_copies = deck.copies
        self.hand_size = rules._tables_hand_size(deck.size)
        bids: list[int] = []
        segments = rules.bid_ladder
        for index, (start, step) in enumerate(segments):
            end = segments[index + 1][0] if index + 1 < len(segments) else rules.bid_max + 1
            bids.extend(range(start, min(end, rules.bid_max + 1), step))
        self.bids = tuple(bids)
        self.bid_index = {bid: index for index, bid in enumerate(bids)}
        counters = (Rank.A, Rank.T, Rank.K)
        self.counter_points = tuple(
            rules.counter_value if face % 6 in counters else 0 for face in range(NUM_FACES)
        )
        self.head = _HEAD_CODES[rules.must_head]
        self.trump_if_winning = rules.must_trump is MustTrump.ONLY_IF_WINNING
        self.overtrump = rules.must_overtrump
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


@dataclass(frozen=True)
class Rules:
    """Every parameter of a pinochle variant (RULES.md sections 2-6).

    - ``name``: the variant; ``game``: the game it belongs to (``pinochle4``);
      ``deck``: ``single`` (48) or ``double`` (80); ``players``: 4.
    - ``bid_ladder``: ``(from, step)`` segments, each running up to the next segment's
      start: ``((50, 1), (60, 5))`` is 50, 51, ..., 60, 65, 70...; ``bid_max``: bids above
      it are refused (a documented limit, the same for every seat); ``max_raise_rungs``:
      a bid rises at most that many rungs above the current bid, the first bid counting
      from one rung below the minimum (``auction4``'s +10 or +20 is 2; ``None``: any).
    - ``all_pass``: what happens when nobody bids (``AllPass``); ``pass_with_help``: the
      "pass with help" call exists.
    - ``trump_needs_marriage``: trump must be a suit where the declarer holds K-Q; with
      none, the hand is lost ("no marriage").
    - ``pass_count``: cards passed partner to declarer and back (0: no passing);
      ``throw_in``: the declarer may concede after the meld.
    - ``must_head``, ``must_trump``, ``must_overtrump``: the trick rules of section 4.
    - ``counter_value``: points of each A, T, K taken; ``last_trick_bonus``.
    - ``meld_table`` (scale 1) and ``meld_scale``; ``run_includes_marriage``: the K-Q of a
      run cannot also score a royal marriage; ``meld_needs_trick``: a team that takes no
      trick loses its meld.
    - ``target``: the game score that ends a game; ``both_reach``: who wins when several
      reach it on the same hand (``BothReach``).
    - Three-hand (``game`` ``pinochle3``): ``widow``: cards dealt aside for the declarer,
      who buries as many; ``widow_public``: everybody sees the widow when it is taken;
      ``bury_meld_cards``: the declarer may bury cards that serve in its meld.
    - Two-hand (``game`` ``pinochle2``, no auction: the bidding parameters are unused):
      ``cards_each``: cards dealt to each player, the rest being the stock whose bottom card
      is turned for trump; ``turned_dix``: the dealer's score when that card is a nine;
      ``dix_exchange``: the score for exchanging the dix for it.
    """

    name: str
    deck: str
    players: int
    bid_ladder: tuple[tuple[int, int], ...]
    bid_max: int
    max_raise_rungs: int | None
    all_pass: AllPass
    pass_with_help: bool
    trump_needs_marriage: bool
    pass_count: int
    throw_in: bool
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
    game: str = "pinochle4"
    widow: int = 0
    widow_public: bool = True
    bury_meld_cards: bool = False
    cards_each: int | None = None
    turned_dix: int = 0
    dix_exchange: int = 0
    both_reach: BothReach = BothReach.DECLARER
    _tables: _Tables = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        self._validate()
        object.__setattr__(self, "_tables", _Tables(self))

    @property
    def min_bid(self) -> int:
        return self.bid_ladder[0][0]

    @property
    def hand_size(self) -> int:
        return self._tables.hand_size

    @property
    def meld_values(self) -> MeldValues:
        """The meld table scaled by ``meld_scale``, indexed by multiplicity."""
        return self._tables.meld

    @property
    def bids(self) -> tuple[int, ...]:
        """Every bid on the ladder, lowest first."""
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
        """A JSON-serialisable dict; ``Rules.from_json`` reads it back."""
        out: dict[str, Any] = {}
        for f in _FIELDS:
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                out[f.name] = value.value
            elif isinstance(value, MeldTable):
                out[f.name] = value.to_json()
            elif f.name == "bid_ladder":
                out[f.name] = [list(segment) for segment in value]
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """Read rules written by ``to_json``; every parameter must be present."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "expected a JSON object")
        # Parameters added after the first release have defaults, so older documents load.
        missing = [
            f.name for f in _FIELDS if f.name not in data and f.default is dataclasses.MISSING
        ]
        if missing:
            raise RulesError(missing[0], "missing")
        values = _decode_all(data, base=None)
        return cls(**values)

    def _validate(self) -> None:
        def check(ok: bool, parameter: str, message: str) -> None:
            if not ok:
                raise RulesError(parameter, message)

        check(self.deck in DECKS, "deck", f"unknown deck {self.deck!r} (known: single, double)")
        seats = _GAME_SEATS.get(self.game, 4)
        check(self.players == seats, "players", f"the {self.game} game has {seats} players")
        deck = DECKS[self.deck]
        check(0 <= self.widow < deck.size, "widow", f"must be 0 to {deck.size - 1}")
        if self.cards_each is None:
            check(
                (deck.size - self.widow) % self.players == 0,
                "players",
                "the deck does not divide evenly",
            )
        else:
            stock = deck.size - self.widow - self.players * self.cards_each
            check(
                self.cards_each >= 1 and stock >= 2 and stock % 2 == 0,
                "cards_each",
                "must leave an even stock of at least 2 cards",
            )
        self._validate_game(check)
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
        hand_size = self._tables_hand_size(deck.size)
        check(0 <= self.pass_count <= hand_size, "pass_count", f"must be 0 to {hand_size}")
        check(self.counter_value >= 0, "counter_value", "must not be negative")
        check(self.last_trick_bonus >= 0, "last_trick_bonus", "must not be negative")
        check(self.meld_scale >= 1, "meld_scale", "must be at least 1")
        check(self.target >= 1, "target", "must be positive")
        for f in dataclasses.fields(MeldTable):
            value = getattr(self.meld_table, f.name)
            if isinstance(value, tuple):
                check(
                    len(value) >= deck.max_copies,
                    "meld_table",
                    f"{f.name} needs {deck.max_copies} values for the {deck.name} deck",
                )

    def _tables_hand_size(self, deck_size: int) -> int:
        """Cards dealt to each player: ``cards_each``, or the pack less the widow shared."""
        if self.cards_each is not None:
            return self.cards_each
        return (deck_size - self.widow) // self.players

    def _validate_game(self, check: Callable[[bool, str, str], None]) -> None:
        """Each game supports only its own parameters, so that none is silently ignored."""
        game = self.game
        if game != "pinochle3":
            check(self.widow == 0, "widow", f"the {game} game has no widow")
        if game != "pinochle2":
            check(self.cards_each is None, "cards_each", f"the {game} game has no stock")
            check(self.turned_dix == 0, "turned_dix", f"the {game} game turns no trump")
            check(self.dix_exchange == 0, "dix_exchange", f"the {game} game turns no trump")
        if game in ("pinochle3", "pinochle2"):
            check(self.deck == "single", "deck", f"the {game} game uses the single deck")
            check(self.pass_count == 0, "pass_count", f"the {game} game has no partners")
            check(not self.pass_with_help, "pass_with_help", f"the {game} game has no partners")
        if game == "pinochle2":
            check(self.cards_each is not None, "cards_each", "the two-hand game needs a stock")
            check(not self.throw_in, "throw_in", "the two-hand game has no declarer")
        else:
            check(
                self.both_reach is BothReach.DECLARER,
                "both_reach",
                f"the {game} game gives a tie on the target to the declarer",
            )
        check(self.turned_dix >= 0, "turned_dix", "must not be negative")
        check(self.dix_exchange >= 0, "dix_exchange", "must not be negative")


_GAME_SEATS = {"pinochle3": 3, "pinochle2": 2}
"""Seats of the individual games; every other game of these rules has four."""

_FIELDS = tuple(f for f in dataclasses.fields(Rules) if f.init)
_FIELD_NAMES = tuple(f.name for f in _FIELDS)


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


_BOOL_FIELDS = frozenset(f.name for f in _FIELDS if f.type in ("bool", bool))


def _decode_all(data: Mapping[str, Any], base: Rules | None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _FIELD_NAMES:
            raise RulesError(key, f"unknown parameter (known: {', '.join(_FIELD_NAMES)})")
        values[key] = _decode(key, value, base)
    return values


def rules_with(base: Rules, changes: Mapping[str, Any]) -> Rules:
    """``base`` with ``changes`` applied; names and values are checked."""
    return dataclasses.replace(base, **_decode_all(changes, base))


PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        Rules(
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
        Rules(
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
        Rules(
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
        Rules(
            name="cutthroat3",
            deck="single",
            players=3,
            bid_ladder=((250, 10),),
            bid_max=2500,
            max_raise_rungs=2,
            all_pass=AllPass.DEALER_STUCK,
            pass_with_help=False,
            trump_needs_marriage=False,
            pass_count=0,
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
            game="pinochle3",
            widow=3,
        ),
        Rules(
            name="twohand",
            deck="single",
            players=2,
            bid_ladder=((250, 10),),
            bid_max=2500,
            max_raise_rungs=2,
            all_pass=AllPass.DEALER_STUCK,
            pass_with_help=False,
            trump_needs_marriage=False,
            pass_count=0,
            throw_in=False,
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
            game="pinochle2",
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
