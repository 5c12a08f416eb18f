"""Pinnacolo's actions: small frozen values with a short text form that parses and prints back.

| text | action | when |
|---|---|---|
| ``draw`` | ``Draw()`` | start of a turn: the top card of the stock (empty: ends the hand) |
| ``take 3`` | ``Take(3)`` | start of a turn: the top 3 cards of the discard pile |
| ``meld 5H 6H 7H`` | ``MeldCards(...)`` | lay down a new meld |
| ``meld 2C=7H 5H 6H`` | | a wild (``2S``, ``2C``, ``JK``) standing for a card |
| ``meld 2C 2C 2S`` | | three pinelle (or ``JK JK JK``): the wilds stand for nothing |
| ``add 0 8H 9H`` | ``Add(0, ...)`` | add cards at one end of table meld 0 (or a poker's 4th) |
| ``replace 2 7H`` | ``Replace(2, 7H)`` | put 7H in meld 2 in place of the wild standing for it |
| ``discard 9C`` | ``Discard(9C)`` | end the turn; discarding the last card closes |
| ``join 0 1`` | ``Join(0, 1)`` | never legal: two sequences on the table are never joined |

A meld's cards print in a canonical order (a tris by suit, a scala along the ladder), so
the text of an action is one string whatever order it was typed in:

>>> str(parse_action("meld 6h JK=7H 5H"))
'meld 5H 6H JK=7H'
>>> str(parse_action("meld KH ah qh")), str(parse_action("MELD 7c 7s 7d"))
('meld QH KH AH', 'meld 7S 7D 7C')
>>> parse_action("take two")
Traceback (most recent call last):
...
engine.errors.ActionParseError: 'take' needs a pile depth from 1: 'take two'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.actions import Action, is_number
from engine.errors import ActionParseError, CardParseError
from engine.pinnacolo.cards import ACE, CARD_NAMES, is_wild, parse_card, rank_of, suit_of

__all__ = [
    "DRAW",
    "Add",
    "Discard",
    "Draw",
    "Join",
    "MeldCards",
    "PinnacoloAction",
    "Placed",
    "Replace",
    "Take",
    "canonical",
    "ladder_positions",
    "parse_action",
    "placed_text",
]

Placed = tuple[int, int]
"""A card as laid on the table: ``(face, stands_for)``. A natural card stands for itself;
a wild for the card it replaces, or ``-1`` in a tris of three pinelle or three jokers."""


def placed_text(placed: Placed) -> str:
    face, stands_for = placed
    if face == stands_for or stands_for < 0:
        return CARD_NAMES[face]
    return f"{CARD_NAMES[face]}={CARD_NAMES[stands_for]}"


def ladder_positions(stands_for: Iterable[int]) -> list[int] | None:
    """Positions on the ladder ``A 3 4 ... K A`` (0 to 12) of cards of one suit, or None.

    A non-ace rank has one place (the 3 is 1, the king 11); one ace goes low when the
    other cards are contiguous with position 0, high when they are contiguous with 12;
    two aces take both ends. None when the cards fit no sequence (``K A 3``, a gap).
    """
    faces = list(stands_for)
    fixed = [rank_of(face) - 1 for face in faces if rank_of(face) != ACE]
    aces = len(faces) - len(fixed)
    if any(position < 1 for position in fixed) or aces > 2:
        return None
    choices = [[0, 12]] if aces == 2 else [[0], [12]] if aces == 1 else [[]]
    for ace_places in choices:
        taken = sorted(fixed + ace_places)
        if taken == list(range(taken[0], taken[0] + len(taken))):
            placed = iter(ace_places)
            return [next(placed) if rank_of(face) == ACE else rank_of(face) - 1 for face in faces]
    return None


def canonical(cards: Iterable[Placed]) -> tuple[Placed, ...]:
    """Cards in their printed order: by suit for one rank, along the ladder for one suit."""
    # Sorted first, so that which of two aces takes which end does not depend on the
    # order the cards were typed in.
    placed = sorted(cards)
    if any(stands_for < 0 for _, stands_for in placed):
        return tuple(sorted(placed))
    standing = [stands_for for _, stands_for in placed]
    if len({rank_of(face) for face in standing}) == 1:
        return tuple(sorted(placed, key=lambda card: (suit_of(card[1]), card[0])))
    positions = ladder_positions(standing)
    if positions is None or len({suit_of(face) for face in standing}) != 1:
        return tuple(sorted(placed, key=lambda card: (suit_of(card[1]), rank_of(card[1]))))
    order = sorted(range(len(placed)), key=lambda index: positions[index])
    return tuple(placed[index] for index in order)


class PinnacoloAction(Action):
    """Base of Pinnacolo's actions; ``str(action)`` is its text form."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> PinnacoloAction:
        return parse_action(text)


@dataclass(frozen=True, slots=True)
class Draw(PinnacoloAction):
    """Draw the top card of the stock; with the stock empty, end the hand."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take(PinnacoloAction):
    """Take the top ``depth`` cards of the discard pile; the deepest must be melded."""

    depth: int

    def __str__(self) -> str:
        return f"take {self.depth}"


@dataclass(frozen=True, slots=True)
class MeldCards(PinnacoloAction):
    """Lay down a new meld (a tris, a poker or a scala)."""

    cards: tuple[Placed, ...]

    def __init__(self, cards: Iterable[Placed]) -> None:
        object.__setattr__(self, "cards", canonical(cards))

    def __str__(self) -> str:
        return "meld " + " ".join(placed_text(card) for card in self.cards)


@dataclass(frozen=True, slots=True)
class Add(PinnacoloAction):
    """Add cards to table meld number ``meld`` (0-based, in the order laid down)."""

    meld: int
    cards: tuple[Placed, ...]

    def __init__(self, meld: int, cards: Iterable[Placed]) -> None:
        object.__setattr__(self, "meld", meld)
        object.__setattr__(self, "cards", canonical(cards))

    def __str__(self) -> str:
        return f"add {self.meld} " + " ".join(placed_text(card) for card in self.cards)


@dataclass(frozen=True, slots=True)
class Replace(PinnacoloAction):
    """Put the natural ``card`` in table meld ``meld`` in place of the wild standing for it."""

    meld: int
    card: int

    def __str__(self) -> str:
        return f"replace {self.meld} {CARD_NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class Discard(PinnacoloAction):
    """Discard ``card`` on the pile, ending the turn (closing if it was the last card)."""

    card: int

    def __str__(self) -> str:
        return f"discard {CARD_NAMES[self.card]}"


@dataclass(frozen=True, slots=True)
class Join(PinnacoloAction):
    """Join two sequences on the table: never legal, parsed so that it is refused clearly."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"join {self.first} {self.second}"


DRAW = Draw()


def _index(verb: str, word: str, text: str) -> int:
    if not is_number(word):
        raise ActionParseError(f"{verb!r} needs a meld index from 0: {text!r}")
    return int(word)


def _placed(word: str) -> Placed:
    if "=" in word:
        wild, _, standing = word.partition("=")
        face, stands_for = parse_card(wild), parse_card(standing)
        if not is_wild(face):
            raise CardParseError(f"only a wild stands for another card: {word!r}")
        if is_wild(stands_for):
            raise CardParseError(f"a wild stands for a natural card: {word!r}")
        return (face, stands_for)
    face = parse_card(word)
    return (face, -1 if is_wild(face) else face)


def parse_action(text: str) -> PinnacoloAction:
    """Read an action's text form (verbs and cards are case-insensitive)."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise ActionParseError("empty action")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb == "draw":
            if args:
                raise ActionParseError(f"'draw' takes no argument: {text!r}")
            return DRAW
        if verb == "take":
            if len(args) != 1 or not is_number(args[0]) or int(args[0]) < 1:
                raise ActionParseError(f"'take' needs a pile depth from 1: {text!r}")
            return Take(int(args[0]))
        if verb == "meld":
            if not args:
                raise ActionParseError(f"'meld' needs cards: {text!r}")
            return MeldCards(_placed(word) for word in args)
        if verb == "add":
            if len(args) < 2:
                raise ActionParseError(f"'add' needs a meld index and cards: {text!r}")
            return Add(_index(verb, args[0], text), (_placed(word) for word in args[1:]))
        if verb == "replace":
            if len(args) != 2:
                raise ActionParseError(f"'replace' needs a meld index and a card: {text!r}")
            return Replace(_index(verb, args[0], text), parse_card(args[1]))
        if verb == "discard":
            if len(args) != 1:
                raise ActionParseError(f"'discard' takes one card: {text!r}")
            return Discard(parse_card(args[0]))
        if verb == "join":
            if len(args) != 2:
                raise ActionParseError(f"'join' needs two meld indices: {text!r}")
            return Join(_index(verb, args[0], text), _index(verb, args[1], text))
    except CardParseError as error:
        raise ActionParseError(f"{error} in {text!r}") from None
    raise ActionParseError(f"unknown action {verb!r} in {text!r}")
