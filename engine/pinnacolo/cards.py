"""Pinnacolo's pack (RULES.md section 8): two 52-card packs and four jokers, no red twos.

A card is an integer face: ``suit * 13 + rank`` with suits ``S H D C`` and ranks
``A 2 3 4 5 6 7 8 9 T J Q K``, and ``JOKER`` (52). Text: rank then suit (``7H``, ``TS``,
``10S`` is read as ``TS``), ``JK`` for a joker.

>>> parse_card("7h"), card_name(parse_card("10S")), card_name(JOKER)
(19, 'TS', 'JK')
>>> sum(PACK_COUNTS), [card_name(face) for face in WILDS]
(104, ['2S', '2C', 'JK'])
>>> parse_card("2H")
Traceback (most recent call last):
...
engine.errors.CardParseError: there are no red twos in Pinnacolo: '2H'
"""

from __future__ import annotations

from engine.errors import CardParseError

__all__ = [
    "ACE",
    "CARD_NAMES",
    "JOKER",
    "NUM_FACES",
    "PACK",
    "PACK_COUNTS",
    "PINELLE",
    "RANKS",
    "SUITS",
    "VALUES",
    "WILDS",
    "card_name",
    "face_of",
    "is_wild",
    "parse_card",
    "rank_of",
    "suit_of",
]

RANKS = "A23456789TJQK"
SUITS = "SHDC"
ACE = 0
TWO = 1
JOKER = 52
NUM_FACES = 53
PINELLE = (TWO, 3 * 13 + TWO)
"""The black twos 2S and 2C."""
WILDS = (*PINELLE, JOKER)


def face_of(suit: int, rank: int) -> int:
    return suit * 13 + rank


def suit_of(face: int) -> int:
    return face // 13


def rank_of(face: int) -> int:
    return face % 13


def is_wild(face: int) -> bool:
    return face == JOKER or face % 13 == TWO


def _value(face: int) -> int:
    if face == JOKER:
        return 25
    rank = face % 13
    if rank == TWO:
        return 20
    if rank == ACE:
        return 15
    return 5 if rank <= 5 else 10


VALUES: tuple[int, ...] = tuple(_value(face) for face in range(NUM_FACES))
"""Points of each face: A 15, 3 to 6 5, 7 to K 10, pinella 20, joker 25."""

CARD_NAMES: tuple[str, ...] = (
    *(RANKS[face % 13] + SUITS[face // 13] for face in range(52)),
    "JK",
)
_BY_NAME = {name: face for face, name in enumerate(CARD_NAMES)}
_RED_TWOS = ("2H", "2D")

PACK_COUNTS: tuple[int, ...] = tuple(
    4 if face == JOKER else 0 if CARD_NAMES[face] in _RED_TWOS else 2 for face in range(NUM_FACES)
)
"""Copies of each face in the 104-card pack."""

PACK: tuple[int, ...] = tuple(face for face in range(NUM_FACES) for _ in range(PACK_COUNTS[face]))
"""The unshuffled pack in face order: what the deal shuffles."""


def card_name(face: int) -> str:
    return CARD_NAMES[face]


def parse_card(text: str) -> int:
    """Read ``7H``, ``10S``, ``JK`` (case-insensitive)."""
    name = text.strip().upper()
    if name.startswith("10"):
        name = "T" + name[2:]
    if name in _RED_TWOS:
        raise CardParseError(f"there are no red twos in Pinnacolo: {text!r}")
    face = _BY_NAME.get(name)
    if face is None:
        raise CardParseError(f"not a Pinnacolo card: {text!r}")
    return face
