"""Greedy reference bot for three-hand cutthroat pinochle (``cutthroat3``).

Every decision is a rule of thumb over the observation and the legal actions:

- **bid** the lowest legal bid while the hand's best estimate (meld in its best trump,
  a share of the trick points from trumps and aces, and what the widow adds on average)
  clears it by a margin;
- **trump** in the suit of that best estimate;
- **bury** counters that would not take their own trick (they score for the declarer
  anyway), keeping trumps and aces, and voiding a side suit when it can;
- **throw in** when the meld leaves more to take in tricks than the hand can hope for;
- **play**: lead side aces, draw trumps as declarer, win a trick with the cheapest card
  that wins it when it holds points or nobody is left to play, give points to a
  defender's winning card against the declarer, and otherwise throw the cheapest card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bots.sdk import Bot
from engine.actions import Action, Bid, Bury, NameTrump
from engine.cards import NUM_FACES, Card, Rank, Suit
from engine.meld import meld_total
from engine.rules import Rules, pinochle_rules
from engine.tricks import beats

COUNTERS = (Rank.A, Rank.T, Rank.K)
WIDOW_MELD = 30
"""About what the widow adds to the declarer's meld, at scale 10."""


def counts_of(names: Iterable[str]) -> list[int]:
    counts = [0] * NUM_FACES
    for name in names:
        counts[Card.parse(name)] += 1
    return counts


def rules_from(hello: dict[str, Any], observation: dict[str, Any]) -> Rules:
    """The table's rules: the hello's (a league may change a preset), else the preset's."""
    announced = hello.get("rules")
    if isinstance(announced, dict) and announced.get("name") == observation.get("variant"):
        return Rules.from_json(announced)
    return pinochle_rules(str(observation["variant"]))


def points(face: int, rules: Rules) -> int:
    return rules.counter_value if face % 6 in COUNTERS else 0


def trick_share(counts: Sequence[int], trump: int) -> float:
    """The share of the trick points a declarer takes, from trump length and aces."""
    base = trump * 6
    trumps = sum(counts[base : base + 6])
    side_aces = sum(counts[suit * 6] for suit in range(4) if suit != trump)
    share = 0.12 + 0.045 * trumps + 0.05 * side_aces + 0.04 * counts[base]
    return min(0.9, max(0.05, share))


def hand_value(counts: Sequence[int], trump: int, rules: Rules) -> float:
    meld = meld_total(counts, trump, rules.meld_values)
    return meld + WIDOW_MELD + trick_share(counts, trump) * rules.total_in_tricks


def best_trump(counts: Sequence[int], rules: Rules, choices: Iterable[int]) -> int:
    return max(choices, key=lambda suit: (hand_value(counts, suit, rules), -suit))


def choose_bid(observation: dict[str, Any], legal: list[str], rules: Rules) -> str:
    bids = sorted(a.amount for a in map(Action.parse, legal) if isinstance(a, Bid))
    if "pass" not in legal:
        return f"bid {bids[0]}"
    counts = counts_of(observation["hand"])
    worth = max(hand_value(counts, suit, rules) for suit in range(4))
    if bids and bids[0] <= worth - 0.1 * rules.total_in_tricks:
        return f"bid {bids[0]}"
    return "pass"


def choose_trump(observation: dict[str, Any], legal: list[str], rules: Rules) -> str:
    counts = counts_of(observation["hand"])
    choices = [int(a.suit) for a in map(Action.parse, legal) if isinstance(a, NameTrump)]
    return f"trump {Suit(best_trump(counts, rules, choices))}"


def keep_value(face: int, counts: Sequence[int], trump: int) -> int:
    """What a card is worth in the hand for the tricks (the buried counters score anyway)."""
    suit, rank = face // 6, face % 6
    if suit == trump:
        return 40 + (10 if rank <= Rank.T else 0)
    if rank == Rank.A:
        return 30
    if rank == Rank.T and counts[suit * 6]:
        return 15
    return 0


def choose_bury(observation: dict[str, Any], legal: list[str], rules: Rules) -> str:
    counts = counts_of(observation["hand"])
    trump = int(Suit.parse(observation["trump"]))

    def score(bury: Bury) -> float:
        left = list(counts)
        for face in bury.cards:
            left[face] -= 1
        voids = sum(
            1
            for suit in range(4)
            if suit != trump
            and counts[suit * 6 : suit * 6 + 6] != [0] * 6
            and not any(left[suit * 6 : suit * 6 + 6])
        )
        gained = sum(points(face, rules) - keep_value(face, counts, trump) for face in bury.cards)
        return gained + 15 * voids

    buries = [action for action in map(Action.parse, legal) if isinstance(action, Bury)]
    return str(max(buries, key=lambda bury: (score(bury), str(bury))))


def choose_throw_in(observation: dict[str, Any], legal: list[str], rules: Rules) -> str:
    seat = int(observation["seat"])
    counts = counts_of(observation["hand"])
    trump = int(Suit.parse(observation["trump"]))
    melds = observation["melds"] or []
    own = sum(entry["total"] for entry in melds if entry["seat"] == seat)
    buried = sum(points(Card.parse(name), rules) for name in observation["buried"] or [])
    needed = int(observation["contract"]["bid"]) - own - buried
    hopeful = (trick_share(counts, trump) + 0.15) * rules.total_in_tricks
    return "throw-in" if needed > hopeful and "throw-in" in legal else "play-on"


def choose_card(observation: dict[str, Any], legal: list[str], rules: Rules) -> str:
    faces = [int(Card.parse(text.split()[1])) for text in legal]
    if len(faces) == 1:
        return legal[0]
    seat = int(observation["seat"])
    trump = int(Suit.parse(observation["trump"]))
    declarer = int(observation["contract"]["declarer"])
    trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]

    def cheap(face: int) -> tuple[int, bool, int]:
        return (points(face, rules), face // 6 == trump, -(face % 6))

    if not trick:
        side_aces = [f for f in faces if f % 6 == Rank.A and f // 6 != trump]
        if side_aces:
            return f"play {Card(side_aces[0])}"
        trumps = [f for f in faces if f // 6 == trump]
        if seat == declarer and trumps:
            return f"play {Card(min(trumps))}"
        return f"play {Card(min(faces, key=cheap))}"
    leader = int(observation["trick"]["leader"])
    best = 0
    for index in range(1, len(trick)):
        if beats(trick[index], trick[best], trump):
            best = index
    winning, winner = trick[best], (leader + best) % 3
    last_to_play = len(trick) == 2
    if seat != declarer and winner != declarer and last_to_play:
        # A defender's card holds: give it points, the declarer is the one to set.
        return f"play {Card(max(faces, key=lambda f: (points(f, rules), -(f // 6 == trump))))}"
    winners = [f for f in faces if beats(f, winning, trump)]
    worth_it = any(points(f, rules) for f in trick) or last_to_play
    if winners and worth_it:
        return f"play {Card(min(winners, key=lambda f: (f // 6 == trump, -(f % 6))))}"
    return f"play {Card(min(faces, key=cheap))}"


class CutthroatGreedyBot(Bot):
    name = "cutthroat-greedy"

    def __init__(self) -> None:
        super().__init__()
        self._known_rules: Rules | None = None

    def _rules(self, observation: dict[str, Any]) -> Rules:
        if self._known_rules is None or self._known_rules.name != observation.get("variant"):
            self._known_rules = rules_from(self.hello, observation)
        return self._known_rules

    def bid(self, observation: dict[str, Any], legal: list[str]) -> str:
        return choose_bid(observation, legal, self._rules(observation))

    def trump(self, observation: dict[str, Any], legal: list[str]) -> str:
        return choose_trump(observation, legal, self._rules(observation))

    def other(self, observation: dict[str, Any], legal: list[str]) -> str:
        if observation.get("phase") == "bury":
            return choose_bury(observation, legal, self._rules(observation))
        return legal[0]

    def throw_in(self, observation: dict[str, Any], legal: list[str]) -> str:
        return choose_throw_in(observation, legal, self._rules(observation))

    def play(self, observation: dict[str, Any], legal: list[str]) -> str:
        return choose_card(observation, legal, self._rules(observation))
