"""Greedy reference bot for two-hand pinochle with a stock (``twohand``).

Every decision is a rule of thumb over the observation and the legal actions:

- **stock phase, leading**: the card that costs least: no points, not a trump, breaking
  the least meld the hand could still lay;
- **stock phase, following**: win a trick holding points with the cheapest card that
  wins it (winning is also the right to meld), else throw the cheapest card;
- **meld**: the meld worth most; the dix exchange when nothing scores more (it brings a
  better trump than the nine it gives);
- **play-out**: lead sure winners (the highest cards of their suit still out), win with
  the cheapest winning card, else throw the cheapest card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bots.sdk import Bot
from engine.actions import Action, MeldCards
from engine.cards import NUM_FACES, Card, Rank, Suit
from engine.meld import meld_total
from engine.rules import Pinochle2Rules, pinochle_rules
from engine.tricks import beats

COUNTERS = (Rank.A, Rank.T, Rank.K)


def counts_of(names: Iterable[str]) -> list[int]:
    counts = [0] * NUM_FACES
    for name in names:
        counts[Card.parse(name)] += 1
    return counts


def rules_from(hello: dict[str, Any], observation: dict[str, Any]) -> Pinochle2Rules:
    """The table's rules: the hello's (a league may change a preset), else the preset's."""
    announced = hello.get("rules")
    if isinstance(announced, dict) and announced.get("name") == observation.get("variant"):
        return Pinochle2Rules.from_json(announced)
    rules = pinochle_rules(str(observation["variant"]))
    if not isinstance(rules, Pinochle2Rules):
        raise ValueError(f"{rules.name} is a variant of the {rules.game} game")
    return rules


def points(face: int, rules: Pinochle2Rules) -> int:
    return rules.counter_value if face % 6 in COUNTERS else 0


def meld_loss(counts: Sequence[int], face: int, trump: int, rules: Pinochle2Rules) -> int:
    """How much the meld the hand could lay drops without ``face``."""
    left = list(counts)
    left[face] -= 1
    values = rules.meld_values
    return meld_total(counts, trump, values) - meld_total(left, trump, values)


def unseen(observation: dict[str, Any], counts: Sequence[int]) -> list[int]:
    """Copies of each face neither in this hand nor played: the other hand or the stock."""
    left = [2 - held for held in counts]
    for trick in [*observation["tricks"], observation["trick"]]:
        for name in trick["cards"]:
            left[Card.parse(name)] -= 1
    return left


def choose_meld(observation: dict[str, Any], legal: list[str], rules: Pinochle2Rules) -> str:
    melds = [action for action in map(Action.parse, legal) if isinstance(action, MeldCards)]
    trump = int(Suit.parse(observation["trump"]))

    def value(meld: MeldCards) -> int:
        # A meld's cards alone score exactly that meld.
        return meld_total(counts_of(str(card) for card in meld.cards), trump, rules.meld_values)

    best = max(melds, key=lambda meld: (value(meld), str(meld)), default=None)
    if "dix" in legal and (best is None or value(best) <= rules.dix_exchange):
        return "dix"
    return "no-meld" if best is None else str(best)


def choose_card(observation: dict[str, Any], legal: list[str], rules: Pinochle2Rules) -> str:
    faces = [int(Card.parse(text.split()[1])) for text in legal]
    if len(faces) == 1:
        return legal[0]
    counts = counts_of(observation["hand"])
    trump = int(Suit.parse(observation["trump"]))
    stock_phase = observation["phase"] == "tricks"
    trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]

    def cost(face: int) -> tuple[int, bool, int, int]:
        kept_meld = meld_loss(counts, face, trump, rules) if stock_phase else 0
        return (points(face, rules) + kept_meld, face // 6 == trump, kept_meld, -(face % 6))

    if not trick:
        if not stock_phase:
            out = unseen(observation, counts)
            bosses = [
                face
                for face in faces
                if not any(out[face // 6 * 6 + rank] for rank in range(face % 6))
            ]
            if bosses:
                return f"play {Card(min(bosses, key=lambda f: (f // 6 == trump, f)))}"
        return f"play {Card(min(faces, key=cost))}"
    led = trick[0]
    winners = [face for face in faces if beats(face, led, trump)]
    if winners and (points(led, rules) or not stock_phase):
        return f"play {Card(min(winners, key=lambda f: (f // 6 == trump, cost(f), -(f % 6))))}"
    return f"play {Card(min(faces, key=cost))}"


class TwoHandGreedyBot(Bot):
    name = "twohand-greedy"

    def __init__(self) -> None:
        super().__init__()
        self._known_rules: Pinochle2Rules | None = None

    def _rules(self, observation: dict[str, Any]) -> Pinochle2Rules:
        if self._known_rules is None or self._known_rules.name != observation.get("variant"):
            self._known_rules = rules_from(self.hello, observation)
        return self._known_rules

    def act(self, observation: dict[str, Any], legal: list[str]) -> str:
        rules = self._rules(observation)
        if observation.get("phase") == "meld":
            return choose_meld(observation, legal, rules)
        return choose_card(observation, legal, rules)
