"""Cards, suits, ranks and the two pinochle decks (RULES.md section 1).

A card face is a small int, ``suit * 6 + rank``, so that hands can be count vectors and
bit masks indexed by face. Copies of a face are indistinguishable, so a hand is a multiset.

>>> Card.parse("TS")
Card.parse('TS')
>>> format_cards(parse_cards("9S AS QS"))
'AS QS 9S'
>>> SINGLE_DECK.size, DOUBLE_DECK.size
(48, 80)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import CardError, CardParseError

__all__ = [
    "CARDS",
    "CARD_NAMES",
    "DECKS",
    "DOUBLE_DECK",
    "NUM_FACES",
    "SINGLE_DECK",
    "Card",
    "CardError",
    "CardParseError",
    "Deck",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
]

NUM_FACES = 24


class Suit(enum.IntEnum):
    """The four suits, in the order used for face numbers and sorting."""

    S = 0
    H = 1
    D = 2
    C = 3

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter (``S``, ``H``, ``D`` or ``C``, any case)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise CardParseError(f"not a suit: {text!r} (expected S, H, D or C)") from None

    @classmethod
    def of(cls, value: Suit | int | str) -> Suit:
        """A suit from a ``Suit``, its number (0 to 3) or its letter; else ``CardParseError``."""
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 4:
            raise CardParseError(f"not a suit: {value!r} (expected S, H, D, C or 0 to 3)")
        return _SUITS[value]


class Rank(enum.IntEnum):
    """Pinochle ranks, strongest first: a lower value beats a higher one."""

    A = 0
    T = 1
    K = 2
    Q = 3
    J = 4
    NINE = 5

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_SYMBOLS = "ATKQJ9"
_SUIT_SYMBOLS = "SHDC"
_SUITS = tuple(Suit)


class Card(int):
    """One card face, ``suit * 6 + rank``; ``str`` gives the notation, ``parse`` reads it.

    Instances are interned: ``Card(3) is Card.parse("QS")``.

    >>> card = Card.parse("QS")
    >>> card.suit, card.rank, int(card)
    (Suit.S, Rank.Q, 3)
    """

    __slots__ = ()

    def __new__(cls, face: int) -> Card:
        # A bool is an int to Python, but ``Card(True)`` is a mistake, not the ten of spades.
        if isinstance(face, bool) or not isinstance(face, int) or not 0 <= face < NUM_FACES:
            raise CardError(f"not a card face: {face!r} (expected 0..23)")
        return CARDS[face]

    @classmethod
    def of(cls, value: int | str) -> Card:
        """A card from its face number (0 to 23) or its notation; else ``CardError``."""
        return cls.parse(value) if isinstance(value, str) else cls(value)

    @property
    def suit(self) -> Suit:
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        return Rank(self % 6)

    def __str__(self) -> str:
        return CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({CARD_NAMES[self]!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``TS`` (or ``10S``), ``9C``..., case-insensitive."""
        key = text.strip().upper()
        if key.startswith("10"):
            key = "T" + key[2:]
        face = _BY_NAME.get(key)
        if face is None:
            raise CardParseError(f"not a card: {text!r} (expected rank A T K Q J 9 then suit)")
        return CARDS[face]


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, face) for face in range(NUM_FACES))
CARD_NAMES = tuple(_RANK_SYMBOLS[face % 6] + _SUIT_SYMBOLS[face // 6] for face in range(NUM_FACES))
"""The notation of each face, indexed by face."""
_BY_NAME = {name: face for face, name in enumerate(CARD_NAMES)}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces (or already split), in the given order."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(token) for token in tokens]


def format_cards(cards: Iterable[int]) -> str:
    """Write cards sorted by suit, then strongest first."""
    return " ".join(CARD_NAMES[face] for face in sorted(cards))


@dataclass(frozen=True, slots=True)
class Deck:
    """A pack as the number of copies of each of the 24 faces."""

    name: str
    copies: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.copies)

    @property
    def max_copies(self) -> int:
        return max(self.copies)

    def cards(self) -> list[Card]:
        """The unshuffled pack, in face order (the input of the deal shuffle)."""
        return [CARDS[face] for face, count in enumerate(self.copies) for _ in range(count)]

    def counts(self, cards: Iterable[int | str]) -> list[int]:
        """Count vector of ``cards`` (faces or notation), checking that the pack holds them.

        >>> SINGLE_DECK.counts(["AS", "AS", "AS"])
        Traceback (most recent call last):
        ...
        engine.errors.CardError: AS appears 3 times; the single deck has 2
        """
        counts = [0] * NUM_FACES
        for card in cards:
            counts[Card.of(card)] += 1
        for face, count in enumerate(counts):
            copies = self.copies[face]
            if count > copies:
                name = CARD_NAMES[face]
                if not copies:
                    raise CardError(f"the {self.name} deck has no {name}")
                times = "once" if count == 1 else f"{count} times"
                raise CardError(f"{name} appears {times}; the {self.name} deck has {copies}")
        return counts


SINGLE_DECK = Deck("single", (2,) * NUM_FACES)
DOUBLE_DECK = Deck("double", tuple(0 if face % 6 == Rank.NINE else 4 for face in range(NUM_FACES)))
DECKS = {deck.name: deck for deck in (SINGLE_DECK, DOUBLE_DECK)}
