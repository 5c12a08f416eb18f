"""A pinochle table's paper result, checked against the dealt cards and scored.

A duplicate event played at real tables reports each board as totals (the contract, each
side's meld and counters); the hand is not replayed. ``score_entry`` checks such an entry
against the variant's rules and the deal and scores it with RULES.md section 5 (section
7.2 in three-hand, where every player is a side and the declarer buries three cards of
hand and widow). The pinochle games offer it as ``Game.score_entry``.

Every rule that does not depend on the cards is checked first, and every refusal that does
is a ``CardsContradicted``: a service can then tell a player who may not see every hand one
message for all of them, which reveals nothing of the hidden cards.

>>> from engine.registry import load_game
>>> game = load_game("single4")
>>> deal = game.initial_deal(game.new_initial_state(seed=3, dealer=0))
>>> entry = ScoreEntry(EntryOutcome.PLAYED, 0, 20, Suit.S, (0, 0), (30, 0))
>>> try:
...     game.score_entry(deal, entry)
... except EntryRejected as refused:
...     print(refused.rule)
...     print(str(refused).removeprefix("counters: "))
counters
30 counters entered for North-South, but only 25 are in play in single4
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd
from typing import TYPE_CHECKING, Any

from engine import scoring
from engine.cards import Card, Rank, Suit
from engine.errors import CardsContradicted, EntryRejected
from engine.meld import meld
from engine.results import HandOutcome
from engine.rules import AuctionRules, Pinochle4Rules

if TYPE_CHECKING:
    from engine.interface import Deal
    from engine.pinochle import PinochleGame

__all__ = [
    "CardsContradicted",
    "EntryOutcome",
    "EntryRejected",
    "HandScore",
    "ScoreEntry",
    "score_entry",
    "score_totals",
]


class EntryOutcome(enum.Enum):
    """What a table reports: the hand was played, thrown in, or had no marriage."""

    PLAYED = "played"
    THROWN_IN = "thrown_in"
    NO_MARRIAGE = "no_marriage"


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """A table's paper result: ``meld`` and ``taken`` have one value per side, in the order
    of ``Game.teams`` (North-South first in a partnership game, each seat in three-hand).

    ``taken`` is each side's counters including the last-trick bonus, and ``buried`` the
    counters of the cards a declarer buried (three-hand), which count for the declarer:
    in a played hand ``sum(taken) + buried`` is the rules' total in play.
    """

    outcome: EntryOutcome
    declarer: int
    bid: int
    trump: Suit | None
    meld: tuple[int, ...]
    taken: tuple[int, ...]
    buried: int = 0


@dataclass(frozen=True, slots=True)
class HandScore:
    outcome: HandOutcome
    scores: tuple[int, ...]
    """Each side's hand score, in the order of ``Game.teams``."""


def score_totals(game: PinochleGame[Any], entry: ScoreEntry) -> HandScore:
    """RULES.md section 5 from the entry's totals alone (made, set, thrown in or no
    marriage), nothing checked: the scores of an entry already accepted."""
    declaring = game.side_of(entry.declarer)
    if entry.outcome is EntryOutcome.NO_MARRIAGE:
        outcome, totals = HandOutcome.NO_MARRIAGE, [0] * len(entry.meld)
    elif entry.outcome is EntryOutcome.THROWN_IN:
        outcome, totals = HandOutcome.THROWN_IN, list(entry.meld)
    else:
        totals = [meld + taken for meld, taken in zip(entry.meld, entry.taken, strict=True)]
        totals[declaring] += entry.buried
        outcome = scoring.contract_outcome(declared=totals[declaring], bid=entry.bid)
    scores = scoring.side_scores(outcome, totals=totals, declaring=declaring, bid=entry.bid)
    return HandScore(outcome, scores)


def _has_marriage(hand: Sequence[Card], suit: Suit) -> bool:
    faces = {(card.suit, card.rank) for card in hand}
    return (suit, Rank.K) in faces and (suit, Rank.Q) in faces


def _side_name(game: PinochleGame[Any], side: int) -> str:
    return "-".join(game.seat_name(seat) for seat in game.teams[side])


def score_entry(game: PinochleGame[Any], deal: Deal, entry: ScoreEntry) -> HandScore:
    """Check ``entry`` against ``game``'s rules and ``deal``, then score it.

    Raises ``EntryRejected`` naming the first rule broken. Meld is checked against the
    cards: a side that could not rearrange its cards must show exactly the meld its dealt
    hands hold with that trump; the declaring side in a variant with passing, or a
    declarer who takes the widow and buries, may have rearranged them, so its meld may be
    anything from 0 to what its cards hold together (melding them as one hand is an upper
    bound, because every meld value grows at least in proportion with its multiplicity).
    """
    # A paper result reports a contract: only the games with an auction have one.
    rules: AuctionRules = game.rules
    sides = len(game.teams)
    hands = [[Card.parse(card) for card in hand] for hand in deal.hands]
    widow = [Card.parse(card) for card in dict(deal.undealt).get("widow", ())]
    if not 0 <= entry.declarer < game.players:
        raise EntryRejected(
            "declarer", f"the declarer is a seat from 0 to {game.players - 1}, not {entry.declarer}"
        )
    names = ", ".join(_side_name(game, side) for side in range(sides))
    if len(entry.meld) != sides or len(entry.taken) != sides or (entry.buried and not widow):
        if game.partnership:
            raise EntryRejected("sides", f"meld and counters are [{names}], with no buried cards")
        raise EntryRejected("seats", f"meld and counters need one value per player ({sides})")
    if entry.bid not in rules.bids:
        ladder = ", ".join(str(bid) for bid in rules.bids[:4])
        raise EntryRejected(
            "bid_ladder",
            f"{entry.bid} is not a bid of {rules.name} ({ladder}, ... up to {rules.bid_max})",
        )
    in_play = rules.total_in_tricks
    for side, value in enumerate(entry.meld):
        if value < 0:
            raise EntryRejected(
                "meld",
                f"{value} meld entered for {_side_name(game, side)}, but meld is never negative",
            )
    counters = [
        *(
            (f"counters entered for {_side_name(game, side)}", value)
            for side, value in enumerate(entry.taken)
        ),
        ("buried counters entered", entry.buried),
    ]
    # Too many first: a form that derives one side's counters from the other's (the rest
    # of those in play) makes the other negative, and the refusal must name what was typed.
    for what, value in counters:
        if value > in_play:
            raise EntryRejected(
                "counters", f"{value} {what}, but only {in_play} are in play in {rules.name}"
            )
    for what, value in counters:
        if value < 0:
            raise EntryRejected("counters", f"{value} {what}, but counters are never negative")
    declaring = game.side_of(entry.declarer)
    declarer_hand = hands[entry.declarer]
    if entry.outcome is EntryOutcome.NO_MARRIAGE:
        if not rules.trump_needs_marriage:
            raise EntryRejected(
                "no_marriage", f"{rules.name} has no trump restriction, so no 'no marriage'"
            )
        if any(entry.meld) or any(entry.taken) or entry.buried:
            raise EntryRejected(
                "no_marriage", "with no marriage nobody scores meld and no tricks are played"
            )
        # Checks against the cards come last (see the module's docstring).
        marriages = [str(suit) for suit in Suit if _has_marriage(declarer_hand, suit)]
        if marriages:
            raise CardsContradicted(
                "no_marriage",
                f"the declarer holds a marriage in {', '.join(marriages)} and must name trump",
            )
        return score_totals(game, entry)
    trump = entry.trump
    if trump is None:
        raise EntryRejected("trump", "a played or thrown-in hand needs the trump suit")
    if entry.outcome is EntryOutcome.THROWN_IN:
        if not rules.throw_in:
            raise EntryRejected("throw_in", f"{rules.name} does not allow throwing in")
        if any(entry.taken) or entry.buried:
            raise EntryRejected("throw_in", "a thrown-in hand plays no tricks: counters are 0")
    else:
        total = sum(entry.taken) + entry.buried
        if total != in_play:
            with_buried = " (with the buried cards)" if widow else ""
            raise EntryRejected(
                "counters_total",
                f"the counters{with_buried} add up to {total}, "
                f"but {in_play} are in play in {rules.name}",
            )
        step = gcd(rules.counter_value, rules.last_trick_bonus)
        for what, value in counters:
            if value % step:
                raise EntryRejected(
                    "counters_step",
                    f"{value} {what}, but counters come in steps of {step} in {rules.name}",
                )
        most_buried = len(widow) * rules.counter_value
        if entry.buried % max(rules.counter_value, 1) or entry.buried > most_buried:
            raise EntryRejected(
                "buried",
                f"the {len(widow)} buried cards hold at most {most_buried} in counters, "
                f"in steps of {rules.counter_value}",
            )
    # Checks against the cards come last (see the module's docstring). All of them are
    # worked out before any refuses, so that no early exit tells by its timing which one.
    side_cards = [
        [card for seat in team for card in hands[seat]] + (widow if side == declaring else [])
        for side, team in enumerate(game.teams)
    ]
    held = [sum(meld(hands[seat], trump, rules).total for seat in team) for team in game.teams]
    pooled = [meld(cards, trump, rules).total for cards in side_cards]
    counter_cards = sum(rules.card_points(card) > 0 for card in side_cards[declaring])
    buried_most = min(len(widow), counter_cards) * rules.counter_value
    contradictions = []
    if rules.trump_needs_marriage and not _has_marriage(declarer_hand, trump):
        contradictions.append(
            CardsContradicted(
                "trump_needs_marriage",
                f"in {rules.name} the declarer must hold the K and Q of trump ({trump})",
            )
        )
    if entry.outcome is not EntryOutcome.THROWN_IN and entry.buried > buried_most:
        contradictions.append(
            CardsContradicted(
                "buried",
                f"the {len(widow)} buried cards can hold at most {buried_most} in counters "
                f"from the declarer's cards, in steps of {rules.counter_value}",
            )
        )
    for side in range(sides):
        name = _side_name(game, side)
        passing = isinstance(rules, Pinochle4Rules) and rules.pass_count > 0
        if side == declaring and (passing or widow):
            if entry.meld[side] > pooled[side]:
                contradictions.append(
                    CardsContradicted(
                        "meld",
                        f"{name}'s {len(side_cards[side])} cards can show at most "
                        f"{pooled[side]} meld with {trump} trump, not {entry.meld[side]}",
                    )
                )
        elif entry.meld[side] != held[side]:
            contradictions.append(
                CardsContradicted(
                    "meld",
                    f"{name}'s dealt cards show {held[side]} meld with {trump} trump, "
                    f"not {entry.meld[side]}",
                )
            )
    if contradictions:
        raise contradictions[0]
    return score_totals(game, entry)
