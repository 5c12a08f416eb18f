"""Trick play: who wins a trick and what may be played (RULES.md section 4).

The legality function takes the trick parameters explicitly and works on any deck:

>>> from engine.cards import parse_cards
>>> hand = parse_cards("AH 9H KS")
>>> trick = parse_cards("QH TH")
>>> [str(c) for c in legal_plays(hand, trick, Suit.S, must_head="always",
...                               must_trump="always", must_overtrump=False)]
['AH']
>>> [str(c) for c in legal_plays(hand, trick, Suit.S, must_head="trump_led_only",
...                               must_trump="always", must_overtrump=False)]
['AH', '9H']

Internally a hand is a 24-bit mask of the faces it holds, and the trick is summarised by
its led suit, its winning card and its highest card of the led suit; ``legal_mask`` is
the single implementation used by the state machine, the random playouts and this module.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any, Final, TypeVar

from engine.cards import CARDS, DECKS, NUM_FACES, Card, Suit
from engine.errors import CardError, RulesError, TrickError
from engine.rules import MustHead, MustTrump

__all__ = [
    "HEAD_ALWAYS",
    "HEAD_LEAD_SUIT",
    "HEAD_NEVER",
    "HEAD_TRUMP_LED",
    "STRONGER",
    "SUIT_MASK",
    "TAKES",
    "beats",
    "faces_of_mask",
    "hand_mask",
    "legal_mask",
    "legal_plays",
    "trick_summary",
    "trick_winner",
]

HEAD_ALWAYS: Final = 0
HEAD_TRUMP_LED: Final = 1
HEAD_LEAD_SUIT: Final = 2
HEAD_NEVER: Final = 3

_HEAD_CODES = {
    MustHead.ALWAYS: HEAD_ALWAYS,
    MustHead.TRUMP_LED_ONLY: HEAD_TRUMP_LED,
    MustHead.LEAD_SUIT_EVEN_IF_TRUMPED: HEAD_LEAD_SUIT,
    MustHead.NEVER: HEAD_NEVER,
}

SUIT_MASK: Final = tuple(0x3F << (6 * suit) for suit in range(4))
"""Bits of the six faces of each suit."""

STRONGER: Final = tuple(((1 << (face % 6)) - 1) << (6 * (face // 6)) for face in range(NUM_FACES))
"""For each face, the bits of the faces of its suit that beat it."""

_CHUNK_FACES = tuple(
    tuple(tuple(CARDS[6 * suit + r] for r in range(6) if chunk >> r & 1) for chunk in range(64))
    for suit in range(4)
)


def faces_of_mask(mask: int) -> tuple[Card, ...]:
    """The faces whose bits are set, in face order."""
    if mask < 64:
        return _CHUNK_FACES[0][mask]
    return (
        _CHUNK_FACES[0][mask & 63]
        + _CHUNK_FACES[1][(mask >> 6) & 63]
        + _CHUNK_FACES[2][(mask >> 12) & 63]
        + _CHUNK_FACES[3][mask >> 18]
    )


def beats(card: int, winning: int, trump: int) -> bool:
    """Whether ``card``, played after ``winning``, takes the lead of the trick.

    An identical card does not: of two identical cards the first played ranks higher.
    """
    if card // 6 == winning // 6:
        return card % 6 < winning % 6
    return card // 6 == trump


TAKES: Final = tuple(
    tuple(
        sum(1 << card for card in range(NUM_FACES) if beats(card, winning, trump))
        for winning in range(NUM_FACES)
    )
    for trump in range(4)
)
"""``TAKES[trump][winning]``: the bits of the faces that, played after ``winning``, take
the lead of the trick. The one table every state's trick play reads (built by ``beats``)."""


_T = TypeVar("_T")


def blank(kind: type[_T]) -> _T:
    """An instance of ``kind`` whose ``__init__`` has not run, for a copy to fill in.

    Through ``Any``: a hand state's ``__new__`` is its core's (a C type's, with the kernel).
    """
    maker: Any = kind
    instance: _T = maker.__new__(maker)
    return instance


def trick_winner(trick: Sequence[int], trump: Suit | int) -> int:
    """Index in ``trick`` of the card winning it so far."""
    if not trick:
        raise TrickError("an empty trick has no winner")
    best = 0
    for index in range(1, len(trick)):
        if beats(trick[index], trick[best], trump):
            best = index
    return best


def legal_mask(
    hand: int,
    led: int,
    winner: int,
    led_high: int,
    trump: int,
    head: int,
    trump_if_winning: bool,
    overtrump: bool,
) -> int:
    """The mask of faces of ``hand`` (a face mask) that may be played.

    ``led`` is the led suit (``-1`` when leading), ``winner`` the winning face so far,
    ``led_high`` the highest face of the led suit in the trick, ``head`` one of the
    ``HEAD_*`` codes.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        if head == HEAD_NEVER:
            return follow
        if head == HEAD_LEAD_SUIT:
            return (follow & STRONGER[led_high]) or follow
        if winner // 6 != led:
            # Trumped already: no card of the led suit can win, so any of them will do.
            return follow
        if head == HEAD_TRUMP_LED and led != trump:
            return follow
        return (follow & STRONGER[winner]) or follow
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    winning_trumps = trumps & STRONGER[winner] if winner // 6 == trump else trumps
    if trump_if_winning:
        if not winning_trumps:
            return hand
        return winning_trumps if overtrump else trumps
    if overtrump and winning_trumps:
        return winning_trumps
    return trumps


def trick_summary(trick: Sequence[int], trump: int) -> tuple[int, int, int]:
    """``(led suit, winning face, highest face of the led suit)`` of a non-empty trick."""
    led = trick[0] // 6
    winner = led_high = trick[0]
    for face in trick[1:]:
        if beats(face, winner, trump):
            winner = face
        if face // 6 == led and face % 6 < led_high % 6:
            led_high = face
    return led, winner, led_high


def hand_mask(hand: Iterable[int | str]) -> int:
    """The face mask of a hand given as cards or card names."""
    mask = 0
    for card in hand:
        mask |= 1 << Card.of(card)
    return mask


_Option = TypeVar("_Option", bound=enum.Enum)

MAX_TRICK_BEFORE_PLAY = 3
"""A trick being played to holds at most three cards: four seats is the most of any game."""


def _check_in_a_pack(cards: Sequence[Card]) -> None:
    """Refuse cards that no pinochle pack could hold together (``AS`` six times)."""
    refusals = []
    for deck in DECKS.values():
        try:
            deck.counts(cards)
        except CardError as error:
            refusals.append(str(error))
        else:
            return
    raise CardError("no pinochle deck holds these cards: " + "; ".join(refusals))


def _option(kind: type[_Option], name: str, value: object) -> _Option:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in kind)
        raise RulesError(name, f"expected one of {choices}, got {value!r}") from None


def legal_plays(
    hand: Iterable[int | str],
    trick: Sequence[int | str],
    trump: Suit | int | str,
    *,
    must_head: MustHead | str,
    must_trump: MustTrump | str,
    must_overtrump: bool,
) -> tuple[Card, ...]:
    """The distinct faces of ``hand`` that may be played to ``trick``, sorted.

    ``trick`` holds the cards already played, in order (empty when leading). The hand and
    the trick together must fit a pinochle pack (``CardError``), the trick holds at most
    ``MAX_TRICK_BEFORE_PLAY`` cards (``TrickError``); a bad option raises ``RulesError``.
    """
    trump_index = int(Suit.of(trump))
    held = [Card.of(card) for card in hand]
    faces = [Card.of(card) for card in trick]
    if len(faces) > MAX_TRICK_BEFORE_PLAY:
        raise TrickError(
            f"a trick to play to holds at most {MAX_TRICK_BEFORE_PLAY} cards, not {len(faces)}"
        )
    _check_in_a_pack(held + faces)
    mask = hand_mask(held)
    head = _HEAD_CODES[_option(MustHead, "must_head", must_head)]
    if_winning = _option(MustTrump, "must_trump", must_trump) is MustTrump.ONLY_IF_WINNING
    if not faces:
        return faces_of_mask(mask)
    led, winner, led_high = trick_summary(faces, trump_index)
    legal = legal_mask(
        mask, led, winner, led_high, trump_index, head, if_winning, bool(must_overtrump)
    )
    return faces_of_mask(legal)
