"""The meld calculator (RULES.md section 3).

A card may serve in melds of different classes but not twice within one class, so each
class is scored on its own: class I takes as many runs as possible, then royal marriages
from the trump K-Q pairs left, then marriages in the other suits; class II is the
pinochle; class III the arounds. Multiplicities index the rules' meld table.

>>> from engine.cards import parse_cards
>>> from engine.rules import pinochle_rules
>>> hand = parse_cards("KS QS KH QH KD QD KC QC")
>>> meld(hand, Suit.S, pinochle_rules("auction4")).total  # "marriages around"
240
>>> run_and_marriage = parse_cards("AH TH KH QH JH KH QH")
>>> [str(item) for item in meld(run_and_marriage, Suit.H, pinochle_rules("single4")).items]
['run in H: 15', 'royal marriage in H: 4']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import CARDS, DECKS, Card, Rank, Suit
from engine.rules import MeldValues, Rules

__all__ = ["Meld", "MeldItem", "MeldKind", "arounds", "meld", "meld_total"]


class MeldKind(enum.Enum):
    """The kinds of meld, with the class each belongs to."""

    RUN = "run"
    ROYAL_MARRIAGE = "royal marriage"
    MARRIAGE = "marriage"
    DIX = "dix"
    PINOCHLE = "pinochle"
    ACES_AROUND = "aces around"
    KINGS_AROUND = "kings around"
    QUEENS_AROUND = "queens around"
    JACKS_AROUND = "jacks around"


_TIMES_WORDS = {1: "", 2: "double ", 3: "triple ", 4: "quadruple "}


# Frozen values that must unpickle.
@dataclass(frozen=True, slots=True)
class MeldItem:
    """One scored meld: ``times`` is the multiplicity (2 = double run, abundance...).

    For marriages, royal marriages and the dix, ``times`` counts separate melds of one
    value each; for runs, pinochles and arounds it selects the table entry.
    """

    kind: MeldKind
    times: int
    value: int
    suit: Suit | None
    cards: tuple[Card, ...]

    @property
    def name(self) -> str:
        if self.kind in _COUNTED_KINDS:
            return self.kind.value if self.times == 1 else f"{self.kind.value} x{self.times}"
        return _TIMES_WORDS.get(self.times, f"{self.times}x ") + self.kind.value

    def __str__(self) -> str:
        where = f" in {self.suit}" if self.suit is not None else ""
        return f"{self.name}{where}: {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {
            "meld": self.kind.value,
            "name": self.name,
            "times": self.times,
            "suit": None if self.suit is None else str(self.suit),
            "value": self.value,
            "cards": [str(card) for card in self.cards],
        }


_COUNTED_KINDS = frozenset({MeldKind.ROYAL_MARRIAGE, MeldKind.MARRIAGE, MeldKind.DIX})


@dataclass(frozen=True, slots=True)
class Meld:
    """A hand's meld: the total and every item that scores."""

    total: int
    items: tuple[MeldItem, ...]

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "items": [item.to_json() for item in self.items]}


_QS = Suit.S * 6 + Rank.Q
_JD = Suit.D * 6 + Rank.J


def meld_total(counts: Sequence[int], trump: int, values: MeldValues) -> int:
    """The meld total of a hand given as 24 face counts (the engine's fast path).

    It equals the sum of ``meld_items``; the zero tests skip ``min`` calls, since most
    hands hold no run and few arounds.
    """
    base = trump * 6
    ace, ten, king, queen, jack, nine = counts[base : base + 6]
    runs = min(ace, ten, king, queen, jack) if ace and ten and king and queen and jack else 0
    if values.run_includes_marriage:
        king -= runs
        queen -= runs
    royal = king if king < queen else queen
    total = values.run[runs] + royal * values.royal_marriage + nine * values.dix
    marriages = 0
    for suit_base in (0, 6, 12, 18):
        if suit_base != base:
            kings = counts[suit_base + 2]
            if kings:
                queens = counts[suit_base + 3]
                marriages += kings if kings < queens else queens
    total += marriages * values.marriage
    if counts[0] and counts[6] and counts[12] and counts[18]:
        total += values.aces[min(counts[0], counts[6], counts[12], counts[18])]
    if counts[2] and counts[8] and counts[14] and counts[20]:
        total += values.kings[min(counts[2], counts[8], counts[14], counts[20])]
    if counts[3] and counts[9] and counts[15] and counts[21]:
        total += values.queens[min(counts[3], counts[9], counts[15], counts[21])]
    if counts[4] and counts[10] and counts[16] and counts[22]:
        total += values.jacks[min(counts[4], counts[10], counts[16], counts[22])]
    queens_of_spades = counts[_QS]
    if queens_of_spades:
        jacks_of_diamonds = counts[_JD]
        total += values.pinochle[min(queens_of_spades, jacks_of_diamonds)]
    return total


def meld_items(counts: Sequence[int], trump: int, values: MeldValues) -> tuple[MeldItem, ...]:
    """Every scoring item of a hand given as face counts, in table order."""
    items: list[MeldItem] = []
    trump_suit = Suit(trump)
    base = trump * 6
    runs = min(counts[base : base + 5])
    if runs:
        cards = tuple(CARDS[base + rank] for rank in range(5)) * runs
        items.append(MeldItem(MeldKind.RUN, runs, values.run[runs], trump_suit, cards))
    king, queen = counts[base + Rank.K], counts[base + Rank.Q]
    royal = min(king - runs, queen - runs) if values.run_includes_marriage else min(king, queen)
    if royal:
        cards = (CARDS[base + Rank.K], CARDS[base + Rank.Q]) * royal
        items.append(
            MeldItem(
                MeldKind.ROYAL_MARRIAGE, royal, royal * values.royal_marriage, trump_suit, cards
            )
        )
    for suit in Suit:
        if suit == trump:
            continue
        pairs = min(counts[suit * 6 + Rank.K], counts[suit * 6 + Rank.Q])
        if pairs:
            cards = (CARDS[suit * 6 + Rank.K], CARDS[suit * 6 + Rank.Q]) * pairs
            items.append(MeldItem(MeldKind.MARRIAGE, pairs, pairs * values.marriage, suit, cards))
    nines = counts[base + Rank.NINE]
    if nines and values.dix:
        cards = (CARDS[base + Rank.NINE],) * nines
        items.append(MeldItem(MeldKind.DIX, nines, nines * values.dix, trump_suit, cards))
    pinochles = min(counts[_QS], counts[_JD])
    if pinochles:
        cards = (CARDS[_QS], CARDS[_JD]) * pinochles
        items.append(
            MeldItem(MeldKind.PINOCHLE, pinochles, values.pinochle[pinochles], None, cards)
        )
    for kind, rank, table in arounds(values):
        times = min(counts[suit * 6 + rank] for suit in Suit)
        if times:
            cards = tuple(CARDS[suit * 6 + rank] for suit in Suit) * times
            items.append(MeldItem(kind, times, table[times], None, cards))
    return tuple(items)


def arounds(values: MeldValues) -> tuple[tuple[MeldKind, Rank, tuple[int, ...]], ...]:
    """The four arounds (class III): their kind, rank and values by multiplicity."""
    return (
        (MeldKind.ACES_AROUND, Rank.A, values.aces),
        (MeldKind.KINGS_AROUND, Rank.K, values.kings),
        (MeldKind.QUEENS_AROUND, Rank.Q, values.queens),
        (MeldKind.JACKS_AROUND, Rank.J, values.jacks),
    )


def meld(hand: Iterable[int | str], trump: Suit | int | str, rules: Rules) -> Meld:
    """Score the meld of ``hand`` (cards or card names) with ``trump`` under ``rules``.

    The hand must fit the variant's deck: a face out of range, a nine in the double deck
    or more copies of a card than the pack holds raise ``CardError``.

    >>> from engine.rules import pinochle_rules
    >>> meld("AS AH AD AC QS JD".split(), Suit.C, pinochle_rules("single4")).total
    14
    >>> meld(["9S"], "S", pinochle_rules("double4"))
    Traceback (most recent call last):
    ...
    engine.errors.CardError: the double deck has no 9S
    """
    trump_index = Suit.of(trump)
    counts = DECKS[rules.deck].counts(hand)
    values = rules.meld_values
    items = meld_items(counts, trump_index, values)
    return Meld(sum(item.value for item in items), items)
