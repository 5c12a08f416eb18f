"""Strong reference bot for three-hand cutthroat pinochle (``cutthroat3``, RULES.md 7.2).

For every card it plays, and for the declarer's throw-in, it deals the cards it cannot see
many times, each deal consistent with everything its seat knows (``CutthroatBeliefs``),
plays each candidate out to the end of the hand with the kernel's card-sense policy for
all three seats (``bots.reference.trickplay``) and keeps the candidate with the best mean
outcome: its own hand score less the mean of the other two (RULES.md section 5: the
declarer short of the bid is set back by it, the buried counters count for it). The
auction, the trump and the bury are the cutthroat greedy bot's.

What a seat knows of the unseen cards: the meld every seat showed (those cards are still
held unless played since), what the play showed (a seat that did not follow, head or
trump where the rules required it holds no card that would have obliged it), and for a
defender the widow, shown when the declarer took it (``widow_public``): its cards are in
the declarer's hand or among the three buried, which a defender deals as a fourth,
unseen holder whose counters score for the declarer.

The search is bounded by work, never by the clock (``trickplay.WorkBudget``: the four-hand
strong bot's formula, a board being the hand's cards plus three decisions): the same
seed and announced clock give the same play on any machine, with or without the C
kernel. A decision samples ``card_plays / (candidates * cards left)`` deals, at least one
and at most 200, and plays every candidate on every deal with the same draws; the cards
it plays never exceed its budget once a deal fits in it. The wall clock stops a search
only as a safety net, and a stop is counted (``safety_stops``) and told on stderr.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bots.reference.cutthroat_greedy import (
    CutthroatGreedyBot,
    choose_card,
    choose_throw_in,
    counts_of,
)
from bots.reference.strong import HEAD_CODES, MELD_CLASS, ruled_out
from bots.reference.trickplay import Tricks, WorkBudget, deal
from engine.cards import DECKS, NUM_FACES, Card, Suit
from engine.rules import MustTrump, Rules
from engine.tricks import trick_summary

PLAYERS = 3
PILE = 3
"""The buried cards' index among the holders a deal fills (after the three seats)."""


class CutthroatBeliefs:
    """What one seat knows of the other hands, and of the buried cards, in the tricks.

    ``held[s][f]``: copies of face ``f`` seat ``s`` surely holds (shown in meld, not played
    since); ``excluded[s]``: faces ``s`` cannot hold (from plays); ``widow_left[f]``: for a
    defender, copies of the widow's faces still unplaced, in the declarer's hand or buried;
    ``pool``: the unseen cards not surely placed, dealt at random by ``sample``.
    """

    def __init__(self, observation: dict[str, Any], rules: Rules) -> None:
        self.rules = rules
        self.seat = int(observation["seat"])
        self.trump = int(Suit.parse(observation["trump"]))
        self.declarer = int(observation["contract"]["declarer"])
        self.hand = counts_of(observation["hand"])
        self.sizes = [int(size) for size in observation["hand_sizes"]]
        self.others = [seat for seat in range(PLAYERS) if seat != self.seat]
        played = [[0] * NUM_FACES for _ in range(PLAYERS)]
        self.excluded = [0] * (PLAYERS + 1)
        codes = (
            HEAD_CODES[rules.must_head],
            rules.must_trump is MustTrump.ONLY_IF_WINNING,
            rules.must_overtrump,
        )
        tricks = [(int(entry["leader"]), entry["cards"]) for entry in observation["tricks"]]
        current = observation["trick"]
        if current["cards"]:
            tricks.append((int(current["leader"]), current["cards"]))
        for leader, names in tricks:
            faces = [int(Card.parse(name)) for name in names]
            for position, face in enumerate(faces):
                player = (leader + position) % PLAYERS
                if position:
                    led, win, led_high = trick_summary(faces[:position], self.trump)
                    self.excluded[player] |= ruled_out(face, led, win, led_high, self.trump, codes)
                played[player][face] += 1
        shown = self._shown(observation)
        self.held = [
            [max(0, shown[seat][face] - played[seat][face]) for face in range(NUM_FACES)]
            for seat in range(PLAYERS)
        ]
        self.held[self.seat] = [0] * NUM_FACES
        own_pile = observation.get("buried") if self.seat == self.declarer else None
        self.buried = counts_of(own_pile or [])
        # A defender does not see the buried cards: a holder of their own.
        self.pile_room = rules.widow_size if self.seat != self.declarer else 0
        copies = DECKS[rules.deck].copies
        self.pool = [
            copies[face]
            - self.hand[face]
            - self.buried[face]
            - sum(played[seat][face] for seat in range(PLAYERS))
            - sum(self.held[seat][face] for seat in self.others)
            for face in range(NUM_FACES)
        ]
        self.room = [self.sizes[seat] - sum(self.held[seat]) for seat in self.others]
        self.room.append(self.pile_room)
        widow = observation.get("widow")
        self.widow_left = [0] * NUM_FACES
        if widow and self.seat != self.declarer and self.pile_room:
            seen = counts_of(widow)
            self.widow_left = [
                min(
                    self.pool[face],
                    max(
                        0,
                        seen[face] - played[self.declarer][face] - self.held[self.declarer][face],
                    ),
                )
                for face in range(NUM_FACES)
            ]

    def _shown(self, observation: dict[str, Any]) -> list[list[int]]:
        """Per seat, the copies of each face it held when the meld was shown: a card
        serves once per class (RULES.md 3.2), so a class's cards add up."""
        shown = [[0] * NUM_FACES for _ in range(PLAYERS)]
        for entry in observation["melds"] or []:
            by_class = [[0] * NUM_FACES for _ in range(3)]
            for item in entry["items"]:
                group = by_class[MELD_CLASS.get(item["meld"], 2)]
                for name in item["cards"]:
                    group[Card.parse(name)] += 1
            shown[int(entry["seat"])] = [max(column) for column in zip(*by_class, strict=True)]
        return shown

    def kinds(self, exclusions: bool) -> list[int]:
        """Per face, the holders (bits of ``others`` then the pile) that may hold it."""
        kinds = []
        for face in range(NUM_FACES):
            kind = 0
            for index, seat in enumerate(self.others):
                if not (exclusions and self.excluded[seat] >> face & 1):
                    kind |= 1 << index
            if self.pile_room:
                kind |= 4
            kinds.append(kind)
        return kinds

    def sample(self, rng: random.Random, *, use_kernel: bool) -> tuple[list[list[int]], list[int]]:
        """Three hands (face counts) consistent with the beliefs, this seat's its own, and
        the buried cards. When what the play showed contradicts itself (a table that broke
        its rules), the widow's cards, then the plays' evidence, are dropped."""
        for widow, exclusions in ((True, True), (False, True), (False, False)):
            hands = [list(self.held[seat]) for seat in range(PLAYERS)]
            hands[self.seat] = list(self.hand)
            hands.append([0] * NUM_FACES)
            pool, room = list(self.pool), list(self.room)
            kinds = self.kinds(exclusions)
            if widow:
                self._place_widow(hands, pool, room, kinds, rng)
            try:
                dealt = deal(
                    kinds, pool, room, hands, [*self.others, PILE], rng, use_kernel=use_kernel
                )
            except ValueError:
                continue
            pile = dealt.pop()
            return dealt, pile if self.pile_room else self.buried
        raise ValueError("no deal fits what this seat has seen")

    def _place_widow(
        self,
        hands: list[list[int]],
        pool: list[int],
        room: list[int],
        kinds: Sequence[int],
        rng: random.Random,
    ) -> None:
        """The widow's unplaced copies, each to the declarer or the pile (chance as
        ``deal``'s: the holder's room left plus one)."""
        if not any(self.widow_left):
            return
        declarer = self.others.index(self.declarer)
        for face in range(NUM_FACES):
            for _ in range(self.widow_left[face]):
                choices = [
                    index
                    for index in (declarer, PILE - 1)
                    if room[index] and kinds[face] >> index & 1
                ]
                if not choices:
                    break
                chosen = choices[0]
                if len(choices) == 2:
                    weights = [room[index] + 1 for index in choices]
                    if rng.random() * sum(weights) >= weights[0]:
                        chosen = choices[1]
                room[chosen] -= 1
                pool[face] -= 1
                holder = PILE if chosen == PILE - 1 else self.declarer
                hands[holder][face] += 1


class StrongCutthroatBot(CutthroatGreedyBot):
    name = "strong"

    max_deals = 200
    seed_salt = ""
    """Prefixed to every search seed: another salt samples other deals."""
    playout_overhead = 16
    """What a steady search counts a playout beyond its cards (sampling, seeding)."""
    steady = False
    """Spend the whole budget on every card, a forced one included, so that the time an
    answer takes tells nothing of the cards (a human's table sets it)."""

    def __init__(self) -> None:
        super().__init__()
        self.board = 0
        self.budget = WorkBudget()
        self.use_kernel = Tricks.kernel_built()
        self.last_deals = 0
        """Deals the last decision searched (0 for a greedy one)."""
        self.last_card_plays = 0
        """Cards the last decision's playouts played: its work, whatever the machine."""

    @property
    def safety_stops(self) -> int:
        """Searches the wall clock cut short: decisions that depended on the machine."""
        return self.budget.safety_stops

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if message.get("type") == "act":
            self.budget.heard(message)
            self.last_deals = self.last_card_plays = 0
        return super().handle(message)

    def on_hand_start(self, message: dict[str, Any]) -> None:
        self.board = int(message.get("board", 0))

    def work_budget(self, observation: dict[str, Any]) -> int:
        """Card plays this decision may use (0: play the greedy card)."""
        return self.budget.card_plays(self.hello, self._rules(observation).hand_size + 3)

    def rng(self, observation: dict[str, Any]) -> random.Random:
        """Seeded from the seat, the board and the position, so replays match."""
        played = sum(len(entry["cards"]) for entry in observation["tricks"])
        played += len(observation["trick"]["cards"])
        key = f"{observation['seat']}/{self.board}/{observation['phase']}/{played}"
        return random.Random(f"{self.seed_salt}{key}/{' '.join(observation['hand'])}")

    def outcome(
        self, observation: dict[str, Any]
    ) -> Callable[[Sequence[int], Sequence[int]], float]:
        """This seat's hand score less the mean of the others', from the counters each
        seat took and the buried cards (RULES.md section 5 and 7.2)."""
        rules = self._rules(observation)
        seat = int(observation["seat"])
        declarer = int(observation["contract"]["declarer"])
        bid = int(observation["contract"]["bid"])
        meld = [0] * PLAYERS
        for entry in observation["melds"] or []:
            meld[int(entry["seat"])] += int(entry["total"])
        points = [rules.card_points(face) for face in range(NUM_FACES)]

        def score(won: Sequence[int], pile: Sequence[int]) -> float:
            totals = [meld[s] + won[s] for s in range(PLAYERS)]
            totals[declarer] += sum(points[face] * pile[face] for face in range(NUM_FACES))
            if totals[declarer] < bid:
                totals[declarer] = -bid
            return totals[seat] - (sum(totals) - totals[seat]) / 2

        return score

    def evaluate(
        self,
        observation: dict[str, Any],
        candidates: Sequence[int],
        trick: Sequence[int],
        leader: int,
        card_plays: int,
    ) -> list[float]:
        """The mean outcome of each candidate (a face, or -1: the policy's own card) over
        the sampled deals."""
        deadline = self.budget.deadline(self.hello)
        rules = self._rules(observation)
        beliefs = CutthroatBeliefs(observation, rules)
        tricks = Tricks(rules, beliefs.trump, PLAYERS)
        tricks.kernel = self.use_kernel
        score = self.outcome(observation)
        taken = [int(points) for points in observation["counters_taken"]]
        rng = self.rng(observation)
        left = sum(beliefs.sizes)
        if self.steady:
            playouts = max(len(candidates), card_plays // (left + self.playout_overhead))
            deals = playouts
        else:
            deals = min(self.max_deals, max(1, card_plays // (len(candidates) * left)))
            playouts = deals * len(candidates)
        totals = [0.0] * len(candidates)
        counted = [0] * len(candidates)
        dealt = played = 0
        while dealt < deals and (not dealt or time.perf_counter() < deadline):
            hands, pile = beliefs.sample(rng, use_kernel=self.use_kernel)
            dealt += 1
            # The same draws for every candidate: differences come from the cards.
            seed = rng.getrandbits(32)
            for index, candidate in enumerate(candidates[: playouts - played]):
                won = tricks.finish(hands, trick, leader, taken, seed, candidate)
                totals[index] += score(won, pile)
                counted[index] += 1
            played += min(len(candidates), playouts - played)
        self.last_deals = dealt
        self.last_card_plays = played * left
        if dealt < deals:
            self.budget.safety_stops += 1
            print(
                f"strong: the safety clock stopped a search at board {self.board} after "
                f"{dealt} of {deals} deals; this decision depends on the machine's speed",
                file=sys.stderr,
            )
        return [
            total / count if count else -math.inf
            for total, count in zip(totals, counted, strict=True)
        ]

    def play(self, observation: dict[str, Any], legal: list[str]) -> str:
        faces = [int(Card.parse(text.split()[1])) for text in legal]
        if len(faces) == 1 and not self.steady:
            return legal[0]
        rules = self._rules(observation)
        sensible = int(Card.parse(choose_card(observation, legal, rules).split()[1]))
        budget = self.work_budget(observation)
        if not budget:
            return f"play {Card(sensible)}"
        trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]
        leader = observation["trick"]["leader"]
        leader = int(observation["seat"]) if leader is None else int(leader)
        totals = self.evaluate(observation, faces, trick, leader, budget)
        # Ties (cards that play alike) go to the greedy choice, which has card sense.
        best = max(range(len(faces)), key=lambda i: (totals[i], faces[i] == sensible))
        return f"play {Card(faces[best])}"

    def throw_in(self, observation: dict[str, Any], legal: list[str]) -> str:
        rules = self._rules(observation)
        budget = self.work_budget(observation)
        if "throw-in" not in legal or not budget:
            return choose_throw_in(observation, legal, rules)
        seat = int(observation["seat"])
        (playing,) = self.evaluate(observation, [-1], [], seat, budget)
        bid = int(observation["contract"]["bid"])
        others = sum(int(e["total"]) for e in observation["melds"] or [] if e["seat"] != seat)
        # Throwing in: the declarer loses the bid, each opponent adds its own meld only.
        conceded = -bid - others / 2
        return "throw-in" if conceded > playing else "play-on"
