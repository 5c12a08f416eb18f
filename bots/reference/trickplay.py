"""What the three-hand and two-hand strong bots share: playouts, sampling and the budget.

- ``play_out``: the tricks played to the end from a position with every hand known, by the
  C kernel's own policies (``engine/_kernel.c`` ``play_out``) for two, three or four
  seats, each seat its own side: ``greedy`` (leaders cash side aces, else lead a random
  card; followers win with the cheapest beater in the last seat, the strongest before it,
  else throw the least valuable card) or ``random`` (uniform among the legal cards);
- ``finish``: the same through the kernel where it is built, card for card;
- ``deal``: the unseen cards dealt to up to three holders under what the play has shown,
  the strong reference bot's sampler (``engine.kernel.sample_deal``, where built);
- ``WorkBudget``: the card plays a decision may use, from the clock announced in ``hello``
  alone, and the safety clock that only guards against a machine far slower than assumed.

The kernel path and the pure path give the same results for the same seeds, so a bot's
play depends on its seeds and its budget, never on whether the kernel is built.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from bots.reference.strong import HEAD_CODES
from engine import kernel
from engine.cards import NUM_FACES, Rank
from engine.rules import MustTrump, Rules
from engine.tricks import STRONGER, SUIT_MASK, legal_mask

RANK_MASKS = tuple(sum(1 << (suit * 6 + rank) for suit in range(4)) for rank in range(6))
WEAK_FIRST = tuple(reversed(RANK_MASKS))
"""Nines first, then jacks, queens, kings, tens, aces: the least valuable rank first."""

# Up to three holders of unseen cards, so seven non-empty sets of them; for each set, the
# sets inside it (Hall's condition, as the four-hand sampler checks it).
_SUBSETS = tuple(
    (group, tuple(inner for inner in range(1, 8) if inner & ~group == 0)) for group in range(1, 8)
)


def mask_of(counts: Sequence[int]) -> int:
    return sum(1 << face for face in range(NUM_FACES) if counts[face])


def _weakest(mask: int, side_mask: int) -> int:
    pool = mask & side_mask or mask
    for rank_mask in WEAK_FIRST:
        found = pool & rank_mask
        if found:
            return (found & -found).bit_length() - 1
    raise ValueError("empty mask")


class Tricks:
    """The trick rules of one hand: its seats, trump and legality (RULES.md section 4)."""

    def __init__(self, rules: Rules, trump: int, players: int) -> None:
        self.rules = rules
        self.players = players
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump]
        self.side_mask = ((1 << NUM_FACES) - 1) & ~self.trump_mask
        self.side_aces = RANK_MASKS[Rank.A] & self.side_mask
        self.beaten_by = tuple(
            STRONGER[face] | (self.trump_mask if face // 6 != trump else 0)
            for face in range(NUM_FACES)
        )
        self.points = tuple(rules.card_points(face) for face in range(NUM_FACES))
        self.head = HEAD_CODES[rules.must_head]
        self.if_winning = rules.must_trump is MustTrump.ONLY_IF_WINNING
        self.overtrump = rules.must_overtrump
        self.last_bonus = rules.last_trick_bonus
        self.kernel = self.kernel_built()

    @staticmethod
    def kernel_built() -> bool:
        """Whether the C kernel is built and loaded (else the pure path: the same plays)."""
        return kernel.KERNEL is not None

    def finish(
        self,
        hands: Sequence[Sequence[int]],
        trick: Sequence[int],
        leader: int,
        taken: Sequence[int],
        seed: int,
        first: int = -1,
        *,
        greedy: bool = True,
    ) -> list[int]:
        """The counters each seat has taken once the hand is played out from ``trick``
        (led by ``leader``), the seat to move playing ``first`` if a face, the draws of
        ``random.Random(seed)``: through the kernel where built, else ``play_out``."""
        if self.kernel:
            [won] = kernel.playouts(
                self.rules,
                trump=self.trump,
                hands=hands,
                trick=trick,
                leader=leader,
                taken=taken,
                count=1,
                greedy=greedy,
                rng=seed,
                first=first,
            )
            return list(won)
        copies = [list(counts) for counts in hands]
        return self.play_out(
            copies, trick, leader, taken, random.Random(seed).random, first, greedy=greedy
        )

    def play_out(
        self,
        hands: list[list[int]],
        trick: Sequence[int],
        leader: int,
        taken: Sequence[int],
        draw: Callable[[], float],
        first: int = -1,
        *,
        greedy: bool = True,
    ) -> list[int]:
        """``finish`` in pure Python, ``hands`` played out in place: the kernel's
        ``play_out`` line for line, one ``draw()`` for each random choice."""
        players, trump, beaten_by, points = self.players, self.trump, self.beaten_by, self.points
        head, if_winning, overtrump = self.head, self.if_winning, self.overtrump
        masks = [mask_of(counts) for counts in hands]
        won = list(taken)
        played = len(trick)
        pot = 0
        led = win = led_high = win_seat = -1
        for position, face in enumerate(trick):
            pot += points[face]
            if position == 0:
                led, win, led_high, win_seat = face // 6, face, face, leader
            else:
                if beaten_by[win] >> face & 1:
                    win, win_seat = face, (leader + position) % players
                if face // 6 == led and face < led_high:
                    led_high = face
        seat = (leader + played) % players
        while True:
            hand = masks[seat]
            if not hand:
                return won
            if first >= 0:
                face, first = first, -1
            elif greedy and played == 0:
                aces = hand & self.side_aces
                if aces:
                    face = (aces & -aces).bit_length() - 1
                else:
                    skip = int(draw() * hand.bit_count())
                    choice = hand
                    while skip:
                        choice &= choice - 1
                        skip -= 1
                    face = (choice & -choice).bit_length() - 1
            else:
                legal = legal_mask(hand, led, win, led_high, trump, head, if_winning, overtrump)
                if not greedy:
                    skip = int(draw() * legal.bit_count())
                    while skip:
                        legal &= legal - 1
                        skip -= 1
                    face = (legal & -legal).bit_length() - 1
                elif not legal & (legal - 1):
                    face = legal.bit_length() - 1
                else:
                    beaters = legal & beaten_by[win]
                    if not beaters:
                        face = _weakest(legal, self.side_mask)
                    elif played == players - 1 or (led != trump and beaters & self.trump_mask):
                        face = _weakest(beaters, self.side_mask)
                    else:
                        face = (beaters & -beaters).bit_length() - 1
            counts = hands[seat]
            counts[face] -= 1
            if not counts[face]:
                masks[seat] = hand & ~(1 << face)
            pot += points[face]
            if played == 0:
                led, win, led_high, win_seat = face // 6, face, face, seat
            else:
                if beaten_by[win] >> face & 1:
                    win, win_seat = face, seat
                if face // 6 == led and face < led_high:
                    led_high = face
            played += 1
            if played < players:
                seat = (seat + 1) % players
                continue
            won[win_seat] += pot
            if not masks[win_seat]:
                won[win_seat] += self.last_bonus
                return won
            pot = played = 0
            led = -1
            seat = win_seat


def _placeable(waiting: Sequence[int], room: Sequence[int]) -> bool:
    for group, inner in _SUBSETS:
        space = sum(room[index] for index in range(3) if group >> index & 1)
        if sum(waiting[kind] for kind in inner) > space:
            return False
    return True


def deal(
    kinds: Sequence[int],
    pool: Sequence[int],
    room: Sequence[int],
    hands: Sequence[Sequence[int]],
    others: Sequence[int],
    rng: random.Random,
    *,
    use_kernel: bool,
) -> list[list[int]]:
    """The ``pool``'s cards (face counts) dealt to the three holders ``others`` (indexes
    of ``hands``, four count vectors; a holder with no room takes nothing): each card to
    a holder ``kinds[face]`` allows (bits of ``others``) with room left, chance
    proportional to its room plus one, never leaving the rest impossible to place. The
    kernel's ``sample_deal`` where built; ``ValueError``, ``rng`` unmoved, when the
    constraints contradict (either way)."""
    if use_kernel:
        return kernel.sample_deal(kinds, pool, room, hands, others, rng)
    before = rng.getstate()
    cards = [face for face in range(NUM_FACES) for _ in range(pool[face])]
    rng.shuffle(cards)
    cards.sort(key=lambda face: kinds[face] == 7)
    waiting = [0] * 8
    for face in cards:
        waiting[kinds[face]] += 1
    left = list(room)
    dealt = [list(counts) for counts in hands]
    for face in cards:
        kind = kinds[face]
        waiting[kind] -= 1
        choices: list[int] = []
        weights: list[int] = []
        for index in range(3):
            if kind >> index & 1 and left[index]:
                left[index] -= 1
                if kind == 7 or _placeable(waiting, left):
                    choices.append(index)
                    weights.append(left[index] + 1)
                left[index] += 1
        if not choices:
            rng.setstate(before)
            raise ValueError("no holder may take a card: the beliefs contradict")
        pick = rng.random() * sum(weights)
        chosen = choices[-1]
        for index, weight in zip(choices, weights, strict=True):
            if pick < weight:
                chosen = index
                break
            pick -= weight
        left[chosen] -= 1
        dealt[others[chosen]][face] += 1
    return dealt


class WorkBudget:
    """The search's budget in card plays, from the announced clock alone (``hello``'s
    ``time``), as the four-hand strong bot reckons it:

        think_ms   = min(decision_ms / 10, bank_ms / decisions / 10)
        card_plays = min(max_card_plays, floor(think_ms * card_plays_per_ms))

    ``decisions`` is a board's decisions for one seat; below ``min_card_plays`` a
    decision is the greedy one. The safety clock (three quarters of the decision's
    clock, a quarter of the bank left) only stops a search on a machine far slower than
    assumed; a stop is counted (``safety_stops``) because that decision then depends on
    the machine.
    """

    card_plays_per_ms = 400
    max_card_plays = 12_000
    min_card_plays = 1_200

    def __init__(self) -> None:
        self.time_left_ms: float | None = None
        self.safety_stops = 0

    @staticmethod
    def clock(hello: dict[str, Any]) -> tuple[float | None, float | None]:
        clock = hello.get("time") or {}
        decision_ms, bank_ms = clock.get("decision_ms"), clock.get("bank_ms")
        return (
            float(decision_ms) if isinstance(decision_ms, int | float) else None,
            float(bank_ms) if isinstance(bank_ms, int | float) else None,
        )

    def card_plays(self, hello: dict[str, Any], decisions: int) -> int:
        decision_ms, bank_ms = self.clock(hello)
        think_ms = self.max_card_plays / self.card_plays_per_ms
        if decision_ms is not None:
            think_ms = min(think_ms, decision_ms / 10)
        if bank_ms is not None:
            think_ms = min(think_ms, bank_ms / decisions / 10)
        budget = min(self.max_card_plays, math.floor(think_ms * self.card_plays_per_ms))
        return budget if budget >= self.min_card_plays else 0

    def deadline(self, hello: dict[str, Any]) -> float:
        """When the wall clock stops a search, as ``time.perf_counter()`` reads it."""
        decision_ms, _ = self.clock(hello)
        limit_ms = 750.0 if decision_ms is None else decision_ms * 3 / 4
        if self.time_left_ms is not None:
            limit_ms = min(limit_ms, self.time_left_ms / 4)
        return time.perf_counter() + limit_ms / 1000

    def heard(self, message: dict[str, Any]) -> None:
        """Note the bank left from an ``act`` message."""
        left = message.get("time_left_ms")
        self.time_left_ms = float(left) if isinstance(left, int | float) else None
