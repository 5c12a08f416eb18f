"""Melds on the table: validation, scoring and the melds a hand can make (RULES.md 8).

Kinds: a **tris** (three cards of one rank in three suits, at most one wild, declared as
a suit), a **poker** (four naturals in the four suits), three pinelle or three jokers,
and a **scala** (three or more cards of one suit along ``A 3 4 ... K A``, the ace at one
end only, at most one wild standing for a missing card).

>>> meld = build_meld([(face_of(1, 4), face_of(1, 4)), (face_of(1, 5), face_of(1, 5)),
...                    (JOKER, face_of(1, 6))], owner=0)
>>> meld.kind, meld.text(), meld.points()
(<MeldKind.SCALA: 'scala'>, ['5H', '6H', 'JK=7H'], 35)
>>> build_meld([(face_of(0, 12), face_of(0, 12)), (face_of(0, 0), face_of(0, 0)),
...             (face_of(0, 2), face_of(0, 2))], owner=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.MeldError: the ace sits at one end ... (rule: ace_one_end)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from itertools import combinations, product

from engine.errors import MeldError
from engine.pinnacolo.actions import Placed, ladder_positions, placed_text
from engine.pinnacolo.cards import (
    ACE,
    JOKER,
    PINELLE,
    VALUES,
    WILDS,
    face_of,
    is_wild,
    rank_of,
    suit_of,
)

__all__ = [
    "MeldError",
    "MeldKind",
    "TableMeld",
    "add_options",
    "build_meld",
    "can_lay_natural",
    "extend_meld",
    "meld_options",
]

_SET_RANKS = (ACE, *range(2, 13))
_RANK_AT = (ACE, *range(2, 13), ACE)
"""The rank at each ladder position 0 to 12."""


class MeldKind(enum.Enum):
    TRIS = "tris"
    """Three cards of one rank (a poker once it holds four naturals)."""
    WILD_TRIS = "wild_tris"
    """Three pinelle or three jokers: complete, takes nothing more."""
    SCALA = "scala"


class TableMeld:
    """A meld on the table. ``cards`` are ``(face, stands_for)``: by suit for a tris,
    along the ladder from position ``low`` for a scala.

    ``layers`` maps the card each wild stands for to the seat that laid the wild (a
    pinella is taken back only by that seat or its partner); ``sesta_at`` is the ladder
    position of the sesta's lowest card once the scala has held six or more cards with no
    wild, and then stays (-1 before): the natural run through it is the one that doubles,
    and a wild added later, with what joins through it, counts its face value.
    """

    __slots__ = ("cards", "kind", "layers", "low", "owner", "rank", "sesta_at", "suit")

    def __init__(
        self,
        kind: MeldKind,
        owner: int,
        cards: list[Placed],
        *,
        low: int = 0,
        layers: dict[int, int] | None = None,
        sesta_at: int = -1,
    ) -> None:
        self.kind = kind
        self.owner = owner
        self.cards = cards
        self.low = low
        self.layers = {} if layers is None else layers
        self.sesta_at = sesta_at
        # What the meld is of (a tris its rank, a scala its suit): replacing a wild by
        # the card it stands for never changes it.
        self.rank = rank_of(cards[0][1])
        self.suit = suit_of(cards[0][1])

    def copy(self) -> TableMeld:
        return TableMeld(
            self.kind,
            self.owner,
            self.cards[:],
            low=self.low,
            layers=dict(self.layers),
            sesta_at=self.sesta_at,
        )

    @property
    def sesta(self) -> bool:
        """Whether the scala is a sesta: it has held six or more cards with no wild."""
        return self.sesta_at >= 0

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    def wilds(self) -> int:
        """How many wilds the meld holds."""
        return sum(1 for face, stands_for in self.cards if face != stands_for)

    def wild_for(self, card: int) -> int:
        """Where the wild standing for ``card`` is in ``cards``, or -1."""
        for index, (face, stands_for) in enumerate(self.cards):
            if stands_for == card and face != card:
                return index
        return -1

    def is_poker(self) -> bool:
        return self.kind is MeldKind.TRIS and len(self.cards) == 4 and not self.wilds()

    def name(self) -> str:
        """``tris``, ``poker``, ``pinelle``, ``jokers``, ``scala``, ``sesta``, ``scala reale``."""
        if self.kind is MeldKind.WILD_TRIS:
            return "jokers" if self.cards[0][0] == JOKER else "pinelle"
        if self.kind is MeldKind.TRIS:
            return "poker" if self.is_poker() else "tris"
        if self.sesta:
            return "scala reale" if len(self.cards) == 13 else "sesta"
        return "scala"

    def points(self) -> int:
        """Its value: a poker doubles; a sesta or scala reale doubles its natural cards in
        sequence: the unbroken run of naturals that holds the sesta as laid. Every other
        card counts once, the wild and whatever joins the sequence through it included
        (however long: RULES.md section 8, "Hand score").
        """
        cards = self.cards
        total = sum(VALUES[face] for face, _ in cards)
        if self.is_poker():
            return 2 * total
        if self.kind is MeldKind.SCALA and self.sesta_at >= 0:
            # The sesta's cards are naturals and never leave the meld (a replacement
            # swaps a wild out), so its anchor is always a natural card of the run.
            anchor = self.sesta_at - self.low
            start = stop = anchor
            while start > 0 and cards[start - 1][0] == cards[start - 1][1]:
                start -= 1
            while stop + 1 < len(cards) and cards[stop + 1][0] == cards[stop + 1][1]:
                stop += 1
            return total + sum(VALUES[face] for face, _ in cards[start : stop + 1])
        return total

    def text(self) -> list[str]:
        return [placed_text(card) for card in self.cards]

    def update_sesta(self) -> None:
        """Mark the scala a sesta once it holds six or more cards and no wild, anchored at
        its lowest card (a ladder position): that run is the one that doubles."""
        if (
            self.sesta_at < 0
            and self.kind is MeldKind.SCALA
            and len(self.cards) >= 6
            and not self.wilds()
        ):
            self.sesta_at = self.low


def _check_wilds(cards: Sequence[Placed], max_wilds: int) -> int:
    wilds = 0
    for face, stands_for in cards:
        if is_wild(face):
            if stands_for < 0:
                raise MeldError(
                    "wild_declared", f"say which card the wild {placed_text((face, -1))} stands for"
                )
            wilds += 1
        elif face != stands_for:
            raise MeldError("wild_declared", "only a wild stands for another card")
    if wilds > max_wilds:
        most = "one wild" if max_wilds == 1 else f"{max_wilds} wilds"
        raise MeldError("wilds_per_meld", f"a meld holds at most {most}")
    if 2 * wilds >= len(cards):
        raise MeldError("wilds_per_meld", "a meld holds more natural cards than wilds")
    return wilds


def build_meld(cards: Sequence[Placed], owner: int, max_wilds: int = 1) -> TableMeld:
    """The meld ``cards`` form, laid by ``owner``; raises ``MeldError`` naming the rule."""
    if len(cards) < 3:
        raise MeldError("meld_size", "a meld has at least three cards")
    if all(is_wild(face) for face, _ in cards):
        faces = {JOKER if face == JOKER else PINELLE[0] for face, _ in cards}
        if len(cards) != 3 or len(faces) != 1:
            raise MeldError("wild_tris", "only three pinelle or three jokers meld as wilds alone")
        return TableMeld(MeldKind.WILD_TRIS, owner, list(cards))
    wilds = _check_wilds(cards, max_wilds)
    standing = [stands_for for _, stands_for in cards]
    layers = {stands_for: owner for face, stands_for in cards if face != stands_for}
    if len({rank_of(face) for face in standing}) == 1:
        suits = [suit_of(face) for face in standing]
        if len(set(suits)) != len(suits):
            raise MeldError("tris_suits", "the cards of a tris or poker are of different suits")
        if len(cards) > 4:
            raise MeldError("tris_suits", "a poker has four cards, one of each suit")
        if len(cards) == 4 and wilds:
            raise MeldError("poker_no_wild", "a poker holds no wild")
        ordered = sorted(cards, key=lambda card: suit_of(card[1]))
        return TableMeld(MeldKind.TRIS, owner, ordered, layers=layers)
    if len({suit_of(face) for face in standing}) != 1:
        raise MeldError("meld_kind", "not a tris, a poker or a scala (one rank or one suit)")
    positions = ladder_positions(standing)
    if positions is None:
        if any(rank_of(face) == ACE for face in standing):
            raise MeldError("ace_one_end", "the ace sits at one end of the ladder only (no K A 3)")
        raise MeldError("scala_sequence", "a scala is an unbroken sequence of one suit")
    order = sorted(range(len(cards)), key=lambda index: positions[index])
    meld = TableMeld(
        MeldKind.SCALA,
        owner,
        [cards[index] for index in order],
        low=min(positions),
        layers=layers,
    )
    meld.update_sesta()
    return meld


def extend_meld(
    meld: TableMeld, cards: Sequence[Placed], seat: int, max_wilds: int = 1
) -> TableMeld:
    """``meld`` with ``cards`` added by ``seat``, as a new meld; raises ``MeldError``."""
    if meld.kind is MeldKind.WILD_TRIS:
        raise MeldError("add_fits", "three pinelle or three jokers take no more cards")
    wilds = _check_wilds([*meld.cards, *cards], max_wilds)
    layers = dict(meld.layers)
    layers.update((stands_for, seat) for face, stands_for in cards if face != stands_for)
    standing = [stands_for for _, stands_for in cards]
    if meld.kind is MeldKind.TRIS:
        if any(rank_of(face) != meld.rank for face in standing):
            raise MeldError("add_fits", "a tris takes only cards of its rank")
        suits = [suit_of(face) for _, face in meld.cards] + [suit_of(face) for face in standing]
        if len(set(suits)) != len(suits):
            raise MeldError("tris_suits", "the cards of a tris or poker are of different suits")
        if len(suits) == 4 and wilds:
            raise MeldError("poker_no_wild", "a poker holds no wild")
        ordered = sorted([*meld.cards, *cards], key=lambda card: suit_of(card[1]))
        return TableMeld(meld.kind, meld.owner, ordered, layers=layers)
    suit = meld.suit
    if any(suit_of(face) != suit or rank_of(face) == 1 for face in standing):
        raise MeldError("add_fits", "a scala takes only cards of its suit")
    low, high = meld.low, meld.high
    fixed = sorted(rank_of(face) - 1 for face in standing if rank_of(face) != ACE)
    aces = len(standing) - len(fixed)
    for ace_places in ([0], [12]) if aces == 1 else ([],) if aces == 0 else ():
        positions = sorted(fixed + ace_places)
        contiguous = positions == list(range(positions[0], positions[0] + len(positions)))
        if contiguous and (positions[-1] == low - 1 or positions[0] == high + 1):
            at_low = positions[-1] == low - 1
            placed = iter(ace_places)
            where = [
                next(placed) if rank_of(face) == ACE else rank_of(face) - 1 for face in standing
            ]
            order = sorted(range(len(cards)), key=lambda index: where[index])
            added = [cards[index] for index in order]
            result = TableMeld(
                MeldKind.SCALA,
                meld.owner,
                [*added, *meld.cards] if at_low else [*meld.cards, *added],
                low=positions[0] if at_low else low,
                layers=layers,
                sesta_at=meld.sesta_at,
            )
            result.update_sesta()
            return result
    if any(rank_of(face) == ACE for face in standing) and (low > 0 or high < 12):
        raise MeldError("ace_one_end", "the ace sits at one end of the ladder only (no K A 3)")
    raise MeldError(
        "add_fits", "added cards continue the scala at one end, in sequence (sequences never join)"
    )


# ------------------------------------------------------------------ enumeration


def _natural(face: int) -> Placed:
    return (face, face)


def _wild_choices(
    wilds: list[int], counts: Sequence[int], places: int
) -> Iterator[tuple[int, ...]]:
    """The wilds, in order, that can fill ``places`` places from ``counts``."""
    for chosen in product(wilds, repeat=places):
        if all(chosen.count(wild) <= counts[wild] for wild in chosen):
            yield chosen


def meld_options(
    counts: Sequence[int], limit: int, focus: int = -1, max_wilds: int = 1
) -> Iterator[list[Placed]]:
    """Every meld ``counts`` (a hand as copies per face) can lay with at most ``limit``
    cards and ``max_wilds`` wilds. With ``focus`` a natural face, only the tris of its
    rank and the scale of its suit are tried (the caller keeps those that hold it).
    """
    if limit < 3:
        return
    wilds = [wild for wild in WILDS if counts[wild]]
    most = min(max_wilds, sum(counts[wild] for wild in WILDS))
    focus_rank = rank_of(focus) if 0 <= focus < JOKER and not is_wild(focus) else -1
    focus_suit = suit_of(focus) if focus_rank >= 0 else -1
    for rank in _SET_RANKS:
        if focus_rank >= 0 and rank != focus_rank:
            continue
        suits = [suit for suit in range(4) if counts[face_of(suit, rank)]]
        for size in (3, 4):
            if size <= limit:
                for chosen in combinations(suits, size):
                    yield [_natural(face_of(suit, rank)) for suit in chosen]
        for wild in wilds:
            for chosen in combinations(suits, 2):
                for absent in range(4):
                    if absent not in chosen:
                        yield [
                            *(_natural(face_of(suit, rank)) for suit in chosen),
                            (wild, face_of(absent, rank)),
                        ]
    if focus_rank < 0:
        spades, clubs = counts[PINELLE[0]], counts[PINELLE[1]]
        if spades >= 2 and clubs >= 1:
            yield [(PINELLE[0], -1), (PINELLE[0], -1), (PINELLE[1], -1)]
        if spades >= 1 and clubs >= 2:
            yield [(PINELLE[0], -1), (PINELLE[1], -1), (PINELLE[1], -1)]
        if counts[JOKER] >= 3:
            yield [(JOKER, -1)] * 3
    # With a focus, only windows that can reach its place on the ladder are tried.
    last_low = 10
    if focus_rank > ACE:
        last_low = min(10, focus_rank - 1)
    for suit in range(4):
        if focus_suit >= 0 and suit != focus_suit:
            continue
        held = [counts[face_of(suit, rank)] > 0 for rank in _RANK_AT]
        two_aces = counts[face_of(suit, ACE)] >= 2
        for low in range(last_low + 1):
            missing: list[int] = []
            for high in range(low, 13):
                if high - low + 1 > limit:
                    break
                if not held[high] or (high == 12 and low == 0 and not two_aces):
                    if len(missing) == most:
                        break
                    missing.append(high)
                if high - low < 2:
                    continue
                cards = [_natural(face_of(suit, _RANK_AT[p])) for p in range(low, high + 1)]
                naturals = [p for p in range(low, high + 1) if p not in missing]
                # Wilds fill the missing places, and may stand for held cards too.
                for extra in range(most - len(missing) + 1):
                    if 2 * (len(missing) + extra) >= len(cards):
                        break
                    for chosen in combinations(naturals, extra):
                        places = sorted((*missing, *chosen))
                        if not places:
                            yield cards
                            continue
                        for faces in _wild_choices(wilds, counts, len(places)):
                            with_wilds = cards[:]
                            for place, wild in zip(places, faces, strict=True):
                                with_wilds[place - low] = (wild, cards[place - low][1])
                            yield with_wilds


def can_lay_natural(face: int, counts: Sequence[int], limit: int) -> bool:
    """Whether ``counts`` (which hold the natural ``face``) can lay a new meld holding it
    with at most ``limit`` cards and one wild: the same answer as searching
    ``meld_options``, found from three-card melds alone (any longer meld holding the card
    contains one).
    """
    if limit < 3:
        return False
    wild = any(counts[wild] for wild in WILDS)
    rank, suit = rank_of(face), suit_of(face)
    suits = sum(1 for other in range(4) if counts[face_of(other, rank)])
    if suits >= 3 or (suits >= 2 and wild):
        return True
    places = (0, 12) if rank == ACE else (rank - 1,)
    for place in places:
        for start in range(max(0, place - 2), min(place, 10) + 1):
            missing = sum(
                1 for p in range(start, start + 3) if not counts[face_of(suit, _RANK_AT[p])]
            )
            if missing == 0 or (missing == 1 and wild):
                return True
    return False


def add_options(
    meld: TableMeld, counts: Sequence[int], limit: int, max_wilds: int = 1
) -> Iterator[list[Placed]]:
    """Every set of cards from ``counts`` (at most ``limit``) that ``meld`` can take,
    keeping at most ``max_wilds`` wilds in it."""
    if limit < 1 or meld.kind is MeldKind.WILD_TRIS:
        return
    if meld.kind is MeldKind.TRIS:
        if len(meld.cards) == 3 and not meld.wilds():
            taken = {suit_of(stands_for) for _, stands_for in meld.cards}
            for suit in range(4):
                face = face_of(suit, meld.rank)
                if suit not in taken and counts[face]:
                    yield [_natural(face)]
        return
    on_table = meld.wilds()
    slots = max_wilds - on_table
    wilds = [wild for wild in WILDS if counts[wild]] if slots > 0 else []
    suit = meld.suit
    for step, start, stop in ((-1, meld.low - 1, -1), (1, meld.high + 1, 13)):
        partial: list[list[Placed]] = [[]]
        for position in range(start, stop, step):
            if len(partial[0]) >= limit:
                break
            face = face_of(suit, _RANK_AT[position])
            grown: list[list[Placed]] = []
            for cards in partial:
                if counts[face]:
                    grown.append([*cards, _natural(face)])
                used = [f for f, s in cards if f != s]
                if wilds and len(used) < slots:
                    grown.extend(
                        [*cards, (wild, face)] for wild in wilds if used.count(wild) < counts[wild]
                    )
            if not grown:
                break
            total = len(meld.cards) + len(grown[0])
            for cards in grown:
                if 2 * (on_table + sum(1 for f, s in cards if f != s)) < total:
                    yield cards
            partial = grown
