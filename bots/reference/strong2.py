"""Strong reference bot for two-hand pinochle with a stock (``twohand``, RULES.md 7.1).

A two-hand hand has two halves, and the bot plays them differently:

- **the stock phase** (12 tricks, any card may be played, the winner melds and both draw)
  is played by rules of thumb (``stock_card``, ``choose_meld``): a search there would
  have to deal the stock's order as well as the other hand and play the draws and melds
  out, and this bot leaves that to rules of thumb. It leads what
  costs least (no counter, no trump, no card of a meld it could still lay), wins a trick
  that holds a counter, or that lets it lay a meld, with the cheapest card that wins it,
  keeps its trumps and aces for the play-out, and lays the meld worth most, holding back
  a royal marriage while the trump run it would spoil may still come, and exchanging the
  dix when the turned-up trump is worth more to the hand than the meld.
- **the play-out** (the last 12 tricks, RULES.md 7.1: ``auction4``'s trick rules) is a game
  of perfect information: the stock is empty, so the cards this seat does not hold and
  has not seen played are the other hand, exactly. There the bot searches. With few
  tricks left it solves the position exactly (``Solver``: the most counters it can make
  against any defence, each position once); before that it plays each candidate out many
  times with the kernel's card-sense policy for both seats (``bots.reference.trickplay``,
  through the C kernel where built, the same cards in pure Python otherwise) and keeps
  the best mean counters less the other's.

The search is bounded by work, never by the clock (``trickplay.WorkBudget``, a board being
twice the hand's cards plus three decisions): the solver counts two card plays for each
pair of cards it tries and gives up at half the budget, the playouts use what is left,
so a decision plays at most its budget. Nothing is hidden in the play-out, so the time an
answer takes tells nothing either: this bot needs no steady mode. Random draws are seeded
from the seat, the board and the position.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bots.reference.trickplay import Tricks, WorkBudget, mask_of
from bots.reference.twohand_greedy import (
    TwoHandGreedyBot,
    choose_card,
    counts_of,
    meld_loss,
    points,
)
from engine.actions import Action, MeldCards
from engine.cards import DECKS, NUM_FACES, Card, Rank, Suit
from engine.meld import meld_total
from engine.rules import Pinochle2Rules
from engine.tricks import legal_mask

PLAYERS = 2


class SolveLimit(Exception):
    """The exact solver reached its work limit."""


class Solver:
    """Exact play-out with both hands known: the most counters ``seat`` takes from here,
    whatever the other plays (each position, at a trick's start, solved once)."""

    def __init__(self, tricks: Tricks, seat: int, limit: int) -> None:
        self.tricks = tricks
        self.seat = seat
        self.limit = limit
        self.card_plays = 0
        self.memo: dict[tuple[int, int, int], int] = {}

    def follow(self, hands: list[list[int]], led: int, leader: int) -> list[tuple[int, int]]:
        """The follower's legal faces to ``led`` and, for each, the trick's winner."""
        t = self.tricks
        follower = 1 - leader
        legal = legal_mask(
            mask_of(hands[follower]), led // 6, led, led, t.trump, t.head, t.if_winning, t.overtrump
        )
        out = []
        while legal:
            face = (legal & -legal).bit_length() - 1
            legal &= legal - 1
            out.append((face, follower if t.beaten_by[led] >> face & 1 else leader))
        return out

    def after(self, hands: list[list[int]], led: int, face: int, winner: int) -> int:
        """``seat``'s counters from the trick (``led`` then ``face``) on."""
        t = self.tricks
        self.card_plays += 2
        if self.card_plays > self.limit:
            raise SolveLimit
        pot = t.points[led] + t.points[face]
        rest = 0
        if any(hands[0]):
            rest = self.value(hands, winner)
        else:
            pot += t.last_bonus
        return rest + (pot if winner == self.seat else 0)

    def value(self, hands: list[list[int]], leader: int) -> int:
        """``seat``'s counters from a trick's start, ``leader`` to lead."""
        key = (self._key(hands[0]), self._key(hands[1]), leader)
        known = self.memo.get(key)
        if known is not None:
            return known
        best: int | None = None
        lead_hand = hands[leader]
        for led in range(NUM_FACES):
            if not lead_hand[led]:
                continue
            lead_hand[led] -= 1
            worst: int | None = None
            follower = hands[1 - leader]
            for face, winner in self.follow(hands, led, leader):
                follower[face] -= 1
                got = self.after(hands, led, face, winner)
                follower[face] += 1
                # The follower picks what is worst for ``seat`` when it is the other.
                if worst is None or (got > worst if 1 - leader == self.seat else got < worst):
                    worst = got
            lead_hand[led] += 1
            assert worst is not None
            if best is None or (worst > best if leader == self.seat else worst < best):
                best = worst
        assert best is not None
        self.memo[key] = best
        return best

    @staticmethod
    def _key(counts: Sequence[int]) -> int:
        key = 0
        for face in range(NUM_FACES):
            if counts[face]:
                key |= counts[face] << (2 * face)
        return key


def other_hand(observation: dict[str, Any], rules: Pinochle2Rules) -> list[int]:
    """In the play-out, the other seat's hand: every card not held and not played."""
    left = list(DECKS[rules.deck].copies)
    for name in observation["hand"]:
        left[Card.parse(name)] -= 1
    for trick in [*observation["tricks"], observation["trick"]]:
        for name in trick["cards"]:
            left[Card.parse(name)] -= 1
    return left


def pending_meld(observation: dict[str, Any], counts: Sequence[int], rules: Pinochle2Rules) -> int:
    """About the meld the hand could still lay: its meld less what its cards on the table
    already make (those scored when laid)."""
    trump = int(Suit.parse(observation["trump"]))
    seat = int(observation["seat"])
    table = counts_of(observation["table"][seat]) if observation.get("table") else []
    laid = meld_total(table, trump, rules.meld_values) if table else 0
    return max(0, meld_total(counts, trump, rules.meld_values) - laid)


KEEP_TRUMP, KEEP_HIGH_TRUMP, KEEP_ACE = 25, 15, 15
"""What a trump, a trump ace or ten beyond that, and a side ace are worth kept for the
play-out, in points (the stock phase gives them up only for more)."""

TURNED_WORTH: dict[int, int] = {Rank.A: 40, Rank.T: 30, Rank.K: 15, Rank.Q: 15, Rank.J: 15}
"""What the turned-up trump is worth in the hand beyond the exchange's score: a card for
the play-out and for a run or a royal marriage."""


def stock_card(observation: dict[str, Any], legal: list[str], rules: Pinochle2Rules) -> str:
    """A stock-phase card by rules of thumb (RULES.md 7.1: any card may be played; the
    trick's winner may meld)."""
    faces = [int(Card.parse(text.split()[1])) for text in legal]
    if len(faces) == 1:
        return legal[0]
    counts = counts_of(observation["hand"])
    trump = int(Suit.parse(observation["trump"]))
    trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]

    def cost(face: int) -> tuple[int, int]:
        """What playing ``face`` gives up: its counter, the meld it breaks, and its
        strength for the play-out (trumps, then aces)."""
        suit, rank = face // 6, face % 6
        value = points(face, rules) + meld_loss(counts, face, trump, rules)
        if suit == trump:
            value += KEEP_TRUMP + (KEEP_HIGH_TRUMP if rank <= Rank.T else 0)
        elif rank == Rank.A:
            value += KEEP_ACE
        return value, -rank

    def pending_without(face: int) -> int:
        after = list(counts)
        after[face] -= 1
        return pending_meld(observation, after, rules)

    if not trick:
        return f"play {Card(min(faces, key=cost))}"
    led = trick[0]
    beaters = [
        face
        for face in faces
        if (face // 6 == led // 6 and face % 6 < led % 6) or (face // 6 == trump != led // 6)
    ]
    if beaters:
        cheapest = min(beaters, key=cost)
        gain = points(led, rules) + points(cheapest, rules) + pending_without(cheapest)
        # Winning is also the right to meld: worth a card when a meld waits to be laid.
        if gain > cost(cheapest)[0] - points(cheapest, rules):
            return f"play {Card(cheapest)}"
    return f"play {Card(min(faces, key=cost))}"


def choose_meld(observation: dict[str, Any], legal: list[str], rules: Pinochle2Rules) -> str:
    """The meld worth most; the dix exchange when nothing scores more; a royal marriage
    held back while the run it would spoil may still be completed (RULES.md 3.2: a card
    serves once in its class)."""
    melds = [action for action in map(Action.parse, legal) if isinstance(action, MeldCards)]
    trump = int(Suit.parse(observation["trump"]))
    counts = counts_of(observation["hand"])
    base = trump * 6

    def value(meld: MeldCards) -> int:
        return meld_total(counts_of(str(card) for card in meld.cards), trump, rules.meld_values)

    run_cards = sum(1 for rank in (Rank.A, Rank.T, Rank.J) if counts[base + rank])
    stock_left = int(observation.get("stock_size") or 0)

    def royal(meld: MeldCards) -> bool:
        return sorted(int(card) for card in meld.cards) == [base + Rank.K, base + Rank.Q]

    usable = [
        meld for meld in melds if not (royal(meld) and run_cards >= 2 and stock_left > 4)
    ] or melds
    best = max(usable, key=lambda meld: (value(meld), str(meld)), default=None)
    turned = observation.get("turned_up")
    gained = TURNED_WORTH.get(Card.parse(turned) % 6, 0) if turned else 0
    if "dix" in legal and (best is None or value(best) <= rules.dix_exchange + gained):
        return "dix"
    return "no-meld" if best is None else str(best)


class StrongTwoHandBot(TwoHandGreedyBot):
    name = "strong"

    max_playouts = 200
    """The most playouts of one candidate."""
    exact_tricks = 6
    """The solver is tried with at most this many tricks left (beyond, it cannot finish
    within any budget this bot grants)."""
    seed_salt = ""

    def __init__(self) -> None:
        super().__init__()
        self.board = 0
        self.budget = WorkBudget()
        self.use_kernel = Tricks.kernel_built()
        self.last_card_plays = 0
        """Cards the last decision's search played, the solver's included."""
        self.last_solved = False
        """Whether the last decision was solved exactly."""

    @property
    def safety_stops(self) -> int:
        return self.budget.safety_stops

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if message.get("type") == "act":
            self.budget.heard(message)
            self.last_card_plays = 0
            self.last_solved = False
        return super().handle(message)

    def on_hand_start(self, message: dict[str, Any]) -> None:
        self.board = int(message.get("board", 0))

    def work_budget(self, observation: dict[str, Any]) -> int:
        return self.budget.card_plays(self.hello, 2 * self._rules(observation).hand_size + 3)

    def rng(self, observation: dict[str, Any]) -> random.Random:
        played = sum(len(entry["cards"]) for entry in observation["tricks"])
        played += len(observation["trick"]["cards"])
        key = f"{observation['seat']}/{self.board}/{observation['phase']}/{played}"
        return random.Random(f"{self.seed_salt}{key}/{' '.join(observation['hand'])}")

    def act(self, observation: dict[str, Any], legal: list[str]) -> str:
        rules = self._rules(observation)
        phase = observation.get("phase")
        if phase == "meld":
            return choose_meld(observation, legal, rules)
        if phase == "play_out":
            return self.play_out(observation, legal, rules)
        return stock_card(observation, legal, rules)

    def play_out(self, observation: dict[str, Any], legal: list[str], rules: Pinochle2Rules) -> str:
        faces = [int(Card.parse(text.split()[1])) for text in legal]
        if len(faces) == 1:
            return legal[0]
        sensible = int(Card.parse(choose_card(observation, legal, rules).split()[1]))
        budget = self.work_budget(observation)
        if not budget:
            return f"play {Card(sensible)}"
        seat = int(observation["seat"])
        trump = int(Suit.parse(observation["trump"]))
        tricks = Tricks(rules, trump, PLAYERS)
        tricks.kernel = self.use_kernel
        hands = [[0] * NUM_FACES, [0] * NUM_FACES]
        hands[seat] = counts_of(observation["hand"])
        hands[1 - seat] = other_hand(observation, rules)
        trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]
        taken = [int(points) for points in observation["counters_taken"]]
        totals: list[float] | None = None
        spent = 0
        if sum(hands[seat]) <= self.exact_tricks:
            solver = Solver(tricks, seat, budget // 2)
            try:
                # A copy: a solve cut short leaves its cards where it stopped.
                copy = [list(counts) for counts in hands]
                totals = [float(v) for v in self.solved(solver, copy, trick, seat, faces)]
                self.last_solved = True
            except SolveLimit:
                totals = None
            spent = solver.card_plays
        if totals is None:
            leader = seat if not trick else 1 - seat
            totals = self.sampled(
                observation, tricks, hands, trick, leader, taken, faces, budget - spent
            )
        self.last_card_plays += spent
        best = max(range(len(faces)), key=lambda i: (totals[i], faces[i] == sensible))
        return f"play {Card(faces[best])}"

    @staticmethod
    def solved(
        solver: Solver, hands: list[list[int]], trick: Sequence[int], seat: int, faces: list[int]
    ) -> list[int]:
        """Each candidate's counters for ``seat`` from here on against the best defence."""
        values = []
        for face in faces:
            hands[seat][face] -= 1
            if trick:
                led = trick[0]
                winner = seat if solver.tricks.beaten_by[led] >> face & 1 else 1 - seat
                values.append(solver.after(hands, led, face, winner))
            else:
                worst: int | None = None
                for reply, winner in solver.follow(hands, face, seat):
                    hands[1 - seat][reply] -= 1
                    got = solver.after(hands, face, reply, winner)
                    hands[1 - seat][reply] += 1
                    worst = got if worst is None else min(worst, got)
                assert worst is not None
                values.append(worst)
            hands[seat][face] += 1
        return values

    def sampled(
        self,
        observation: dict[str, Any],
        tricks: Tricks,
        hands: list[list[int]],
        trick: Sequence[int],
        leader: int,
        taken: Sequence[int],
        faces: list[int],
        card_plays: int,
    ) -> list[float]:
        """Each candidate's mean counters less the other's over playouts with the same
        draws for every candidate."""
        seat = int(observation["seat"])
        left = sum(map(sum, hands))
        rounds = min(self.max_playouts, card_plays // (len(faces) * left))
        if not rounds:
            return [0.0] * len(faces)
        deadline = self.budget.deadline(self.hello)
        rng = self.rng(observation)
        totals = [0.0] * len(faces)
        done = 0
        while done < rounds and (not done or time.perf_counter() < deadline):
            seed = rng.getrandbits(32)
            for index, face in enumerate(faces):
                won = tricks.finish(hands, trick, leader, taken, seed, face)
                totals[index] += won[seat] - won[1 - seat]
            done += 1
        self.last_card_plays += done * len(faces) * left
        if done < rounds:
            self.budget.safety_stops += 1
            print(
                f"strong: the safety clock stopped a search at board {self.board} after "
                f"{done} of {rounds} rounds; this decision depends on the machine's speed",
                file=sys.stderr,
            )
        return [total / done if done else -math.inf for total in totals]
