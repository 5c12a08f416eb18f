"""Boards from a committed secret, and score entry checked against the dealt cards.

Pure functions over the engine (no Django), so the deal check and the entry rules can be
run by anyone with the revealed secret.

Verifiable deals: when an event is created a 32-byte secret is drawn and only its
commitment ``sha256(secret)`` is published. Board ``i``'s seed is the first 8 bytes of
``HMAC-SHA256(secret, i)`` shifted to 63 bits (databases store signed 64-bit integers);
the engine deals it with ``new_hand(variant, seed=..., dealer=(i - 1) % 4)``. After the
event the secret is revealed and ``deal_problems`` re-derives everything:

>>> secret = bytes(range(32))
>>> seeds = {number: board_seed(secret, number) for number in (1, 2)}
>>> deal_problems(secret.hex(), commitment(secret), seeds)
[]
>>> deal_problems(secret.hex(), commitment(secret), {1: seeds[1] + 1})
['board 1: seed 7068804428202801020 is not the one the secret gives (7068804428202801019)']

Hand scores come from the entered contract, meld and counters with the rules of
RULES.md section 5 (the engine scores hands it plays itself; a table's paper result needs
the same arithmetic from totals, which is ``hand_score`` here).
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import gcd
from typing import cast

import engine
from engine import Card, HandOutcome, Rank, Rules, Suit, scoring
from engine.cutthroat import CutthroatState

__all__ = [
    "PLAYER_CARDS_MESSAGE",
    "CardsContradicted",
    "EntryOutcome",
    "EntryRejected",
    "HandScore",
    "ScoreEntry",
    "board_dealer",
    "board_seed",
    "commitment",
    "deal",
    "deal_problems",
    "hand_score",
    "new_secret",
    "public_rejection",
    "score_entry",
    "score_three_hand",
    "seats_of",
]

SEATS = 4


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """What is published before play: the SHA-256 of the secret, in hex."""
    return hashlib.sha256(secret).hexdigest()


def board_seed(secret: bytes, number: int) -> int:
    digest = hmac.new(secret, number.to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def board_dealer(number: int, seats: int = SEATS) -> int:
    """Dealers rotate with the board number, as they do over a game's hands."""
    return (number - 1) % seats


def seats_of(variant: str) -> int:
    """Players at a table: 4 in the partnership games, 3 in ``cutthroat3``."""
    return engine.load_game(variant).players


def deal(variant: str, seed: int, dealer: int) -> engine.HandState | CutthroatState:
    """The board's deal; a three-hand board also has its widow (``state.deal[3]``)."""
    state = engine.load_game(variant).new_initial_state(seed=seed, dealer=dealer)
    return cast(engine.HandState | CutthroatState, state)


def deal_problems(secret_hex: str, published: str, seeds: Mapping[int, int]) -> list[str]:
    """Everything that does not match between a revealed secret and the boards played."""
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        return ["the revealed secret is not hexadecimal"]
    problems = []
    if not hmac.compare_digest(commitment(secret), published):
        problems.append("the revealed secret does not match the published commitment")
    for number, seed in sorted(seeds.items()):
        expected = board_seed(secret, number)
        if seed != expected:
            problems.append(
                f"board {number}: seed {seed} is not the one the secret gives ({expected})"
            )
    return problems


class EntryOutcome(enum.Enum):
    """What a table reports: the hand was played, thrown in, or had no marriage."""

    PLAYED = "played"
    THROWN_IN = "thrown_in"
    NO_MARRIAGE = "no_marriage"


class EntryRejected(ValueError):
    """A score entry breaks a rule of the variant; ``rule`` names it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class CardsContradicted(EntryRejected):
    """The entry is impossible with the dealt cards; the message says what the cards hold."""


PLAYER_CARDS_MESSAGE = (
    "the result is not possible with the cards dealt: check the declarer, trump, "
    "meld and 'no marriage'"
)


def public_rejection(rejected: EntryRejected) -> EntryRejected:
    """What may be told to someone who may not see every hand of the board.

    Every refusal that depends on the dealt cards gets this one message, whichever rule and
    whichever hand it came from: a message that named the rule or a number would let a
    player learn the hidden hands by submitting wrong entries. The entry rules check
    everything that does not depend on the cards first, so that the message for an input
    wrong in both ways cannot depend on the cards either.
    """
    if isinstance(rejected, CardsContradicted):
        return EntryRejected("cards", PLAYER_CARDS_MESSAGE)
    return rejected


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """A table's paper result; index 0 of ``meld`` and ``taken`` is North-South.

    ``taken`` is each team's counters including the last-trick bonus, so a played hand's
    two values add up to the rules' total in play (25, 250 or 50 in the presets).

    In a three-hand game ``meld`` and ``taken`` have one value per seat (0-2), ``taken``
    being the counters each player won in tricks (with the last trick), and ``buried``
    the counters of the three cards the declarer buried, which count for the declarer:
    ``sum(taken) + buried`` is the total in play (250).
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
    """North-South's and East-West's hand scores (each seat's in a three-hand game)."""


def hand_score(rules: Rules, entry: ScoreEntry) -> HandScore:
    """RULES.md section 5 from totals: made, set, thrown in or no marriage."""
    return _scored(entry, declaring=entry.declarer % 2, buried=0)


def _scored(entry: ScoreEntry, *, declaring: int, buried: int) -> HandScore:
    """The sides' scores through the engine's scoring, from the entry's totals."""
    if entry.outcome is EntryOutcome.NO_MARRIAGE:
        outcome, totals = HandOutcome.NO_MARRIAGE, [0] * len(entry.meld)
    elif entry.outcome is EntryOutcome.THROWN_IN:
        outcome, totals = HandOutcome.THROWN_IN, list(entry.meld)
    else:
        totals = [meld + taken for meld, taken in zip(entry.meld, entry.taken, strict=True)]
        totals[declaring] += buried
        outcome = scoring.contract_outcome(declared=totals[declaring], bid=entry.bid)
    scores = scoring.side_scores(outcome, totals=totals, declaring=declaring, bid=entry.bid)
    return HandScore(outcome, scores)


def _has_marriage(hand: Sequence[Card], suit: Suit) -> bool:
    faces = {(card.suit, card.rank) for card in hand}
    return (suit, engine.Rank.K) in faces and (suit, engine.Rank.Q) in faces


def _team_meld(hands: Sequence[Sequence[Card]], team: int, trump: Suit, rules: Rules) -> int:
    return sum(engine.meld(hands[seat], trump, rules).total for seat in (team, team + 2))


def score_entry(rules: Rules, dealt: Sequence[Sequence[Card]], entry: ScoreEntry) -> HandScore:
    """Check ``entry`` against the variant's rules and the dealt hands, then score it.

    Raises ``EntryRejected`` naming the first rule broken. Meld is checked against the
    cards: a team that passed no cards must show exactly the meld its dealt hands hold
    with that trump; the declaring team in a variant with passing may have rearranged its
    cards, so its meld may be anything from 0 to what its pooled cards hold together
    (melding the pool as one hand is an upper bound, because every meld value grows at
    least in proportion with its multiplicity).
    """
    if not 0 <= entry.declarer < SEATS:
        raise EntryRejected("declarer", f"the declarer is a seat from 0 to 3, not {entry.declarer}")
    if len(entry.meld) != 2 or len(entry.taken) != 2 or entry.buried:
        raise EntryRejected(
            "sides", "meld and counters are [North-South, East-West], with no buried cards"
        )
    if entry.bid not in rules.bids:
        ladder = ", ".join(str(bid) for bid in rules.bids[:4])
        raise EntryRejected(
            "bid_ladder",
            f"{entry.bid} is not a bid of {rules.name} ({ladder}, ... up to {rules.bid_max})",
        )
    for name, values in (("meld", entry.meld), ("counters", entry.taken)):
        if any(value < 0 for value in values):
            raise EntryRejected(name, f"{name} cannot be negative")
    declaring = entry.declarer % 2
    declarer_hand = dealt[entry.declarer]
    if entry.outcome is EntryOutcome.NO_MARRIAGE:
        if not rules.trump_needs_marriage:
            raise EntryRejected(
                "no_marriage", f"{rules.name} has no trump restriction, so no 'no marriage'"
            )
        if entry.meld != (0, 0) or entry.taken != (0, 0):
            raise EntryRejected(
                "no_marriage", "with no marriage nobody scores meld and no tricks are played"
            )
        # Checks against the cards come last (see ``public_rejection``).
        marriages = [str(suit) for suit in Suit if _has_marriage(declarer_hand, suit)]
        if marriages:
            raise CardsContradicted(
                "no_marriage",
                f"the declarer holds a marriage in {', '.join(marriages)} and must name trump",
            )
        return hand_score(rules, entry)
    trump = entry.trump
    if trump is None:
        raise EntryRejected("trump", "a played or thrown-in hand needs the trump suit")
    if entry.outcome is EntryOutcome.THROWN_IN:
        if not rules.throw_in:
            raise EntryRejected("throw_in", f"{rules.name} does not allow throwing in")
        if entry.taken != (0, 0):
            raise EntryRejected("throw_in", "a thrown-in hand plays no tricks: counters are 0")
    else:
        total = entry.taken[0] + entry.taken[1]
        if total != rules.total_in_tricks:
            raise EntryRejected(
                "counters_total",
                f"the counters add up to {total}, but {rules.total_in_tricks} are in play",
            )
        step = gcd(rules.counter_value, rules.last_trick_bonus)
        if any(value % step for value in entry.taken):
            raise EntryRejected("counters_step", f"counters come in steps of {step}")
    # Checks against the cards come last (see ``public_rejection``). All of them are worked
    # out before any refuses, so that no early exit tells by its timing which one it was.
    holds_marriage = _has_marriage(declarer_hand, trump)
    held = [_team_meld(dealt, team, trump, rules) for team in (0, 1)]
    pooled = [
        engine.meld([c for seat in (team, team + 2) for c in dealt[seat]], trump, rules).total
        for team in (0, 1)
    ]
    contradictions = []
    if rules.trump_needs_marriage and not holds_marriage:
        contradictions.append(
            CardsContradicted(
                "trump_needs_marriage",
                f"in {rules.name} the declarer must hold the K and Q of trump ({trump})",
            )
        )
    for team in (0, 1):
        side = ("North-South", "East-West")[team]
        if team == declaring and rules.pass_count:
            if entry.meld[team] > pooled[team]:
                contradictions.append(
                    CardsContradicted(
                        "meld",
                        f"{side}'s cards can show at most {pooled[team]} meld with {trump} "
                        f"trump, not {entry.meld[team]}",
                    )
                )
        elif entry.meld[team] != held[team]:
            contradictions.append(
                CardsContradicted(
                    "meld",
                    f"{side}'s dealt cards show {held[team]} meld with {trump} trump, "
                    f"not {entry.meld[team]}",
                )
            )
    if contradictions:
        raise contradictions[0]
    return hand_score(rules, entry)


# Counters in every preset: aces, tens and kings (RULES.md section 4).
COUNTER_RANKS = (Rank.A, Rank.T, Rank.K)


def score_three_hand(
    rules: Rules, dealt: Sequence[Sequence[Card]], widow: Sequence[Card], entry: ScoreEntry
) -> HandScore:
    """Check a three-hand (``cutthroat3``) entry against RULES.md 7.2 and score it.

    ``dealt`` is the three hands by seat and ``widow`` the three cards the declarer takes.
    Every player melds for themselves: an opponent's meld must be exactly what its 15
    dealt cards show with that trump; the declarer's at most what its 18 cards (hand and
    widow) show, since it buries three of them. The buried cards' counters count for the
    declarer and must be possible: at most three of the declarer's counter cards. Scores
    follow RULES.md 5 per seat: the declarer makes (meld + counters + buried) or loses
    the bid; each opponent adds its own meld and counters; on a throw-in the declarer
    loses the bid, each opponent adds its meld only.

    >>> from engine.rules import pinochle_rules
    >>> state = deal("cutthroat3", 11, 0)
    >>> rules = pinochle_rules("cutthroat3")
    >>> hands = [state.dealt(seat) for seat in range(3)]
    >>> melds = [engine.meld(list(hand), Suit.S, rules).total for hand in hands]
    >>> entry = ScoreEntry(EntryOutcome.THROWN_IN, 1, 250, Suit.S, tuple(melds), (0, 0, 0))
    >>> score_three_hand(rules, hands, state.deal[3], entry).scores == (melds[0], -250, melds[2])
    True
    """
    seats = 3
    if not 0 <= entry.declarer < seats:
        raise EntryRejected("declarer", f"the declarer is a seat from 0 to 2, not {entry.declarer}")
    if len(entry.meld) != seats or len(entry.taken) != seats:
        raise EntryRejected("seats", "meld and counters need one value per player (3)")
    if entry.bid not in rules.bids:
        ladder = ", ".join(str(bid) for bid in rules.bids[:4])
        raise EntryRejected(
            "bid_ladder",
            f"{entry.bid} is not a bid of {rules.name} ({ladder}, ... up to {rules.bid_max})",
        )
    for name, values in (
        ("meld", entry.meld),
        ("counters", entry.taken),
        ("counters", (entry.buried,)),
    ):
        if any(value < 0 for value in values):
            raise EntryRejected(name, f"{name} cannot be negative")
    if entry.outcome is EntryOutcome.NO_MARRIAGE:
        raise EntryRejected(
            "no_marriage", f"{rules.name} has no trump restriction, so no 'no marriage'"
        )
    trump = entry.trump
    if trump is None:
        raise EntryRejected("trump", "a played or thrown-in hand needs the trump suit")
    declarer_cards = [*dealt[entry.declarer], *widow]
    if entry.outcome is EntryOutcome.THROWN_IN:
        if not rules.throw_in:
            raise EntryRejected("throw_in", f"{rules.name} does not allow throwing in")
        if any(entry.taken) or entry.buried:
            raise EntryRejected("throw_in", "a thrown-in hand plays no tricks: counters are 0")
    else:
        total = sum(entry.taken) + entry.buried
        if total != rules.total_in_tricks:
            raise EntryRejected(
                "counters_total",
                f"the counters (with the buried cards) add up to {total}, "
                f"but {rules.total_in_tricks} are in play",
            )
        step = gcd(rules.counter_value, rules.last_trick_bonus)
        if any(value % step for value in (*entry.taken, entry.buried)):
            raise EntryRejected("counters_step", f"counters come in steps of {step}")
        if entry.buried % rules.counter_value or entry.buried > rules.widow * rules.counter_value:
            raise EntryRejected(
                "buried",
                f"the {rules.widow} buried cards hold at most "
                f"{rules.widow * rules.counter_value} in counters, "
                f"in steps of {rules.counter_value}",
            )
    # Checks against the cards come last (see ``public_rejection``), all worked out before
    # any refuses, so that no early exit tells by its timing which one it was.
    counter_cards = sum(card.rank in COUNTER_RANKS for card in declarer_cards)
    buried_most = min(rules.widow, counter_cards) * rules.counter_value
    shown = [
        engine.meld(declarer_cards if seat == entry.declarer else list(dealt[seat]), trump, rules)
        for seat in range(seats)
    ]
    contradictions = []
    if entry.outcome is not EntryOutcome.THROWN_IN and entry.buried > buried_most:
        contradictions.append(
            CardsContradicted(
                "buried",
                f"the {rules.widow} buried cards can hold at most {buried_most} in counters "
                f"from the declarer's cards, in steps of {rules.counter_value}",
            )
        )
    for seat in range(seats):
        if seat == entry.declarer:
            if entry.meld[seat] > shown[seat].total:
                contradictions.append(
                    CardsContradicted(
                        "meld",
                        f"the declarer's 18 cards (hand and widow) show at most "
                        f"{shown[seat].total} meld with {trump} trump, not {entry.meld[seat]}",
                    )
                )
        elif entry.meld[seat] != shown[seat].total:
            contradictions.append(
                CardsContradicted(
                    "meld",
                    f"seat {seat}'s dealt cards show {shown[seat].total} meld with {trump} "
                    f"trump, not {entry.meld[seat]}",
                )
            )
    if contradictions:
        raise contradictions[0]
    return _scored(entry, declaring=entry.declarer, buried=entry.buried)
