"""Strong reference bot: determinized Monte Carlo over the hands it cannot see.

For every card it plays, and for the throw-in, it deals the unseen cards to the other
seats many times, each deal consistent with everything this seat knows (``Beliefs``),
plays each candidate out to the end of the hand with a fast card-sense policy for all four
seats (``Playout``) and keeps the candidate with the best mean score difference for its
team. The auction, the trump and the passing are the greedy bot's (a search of the
auction by whole hands simulated in the kernel, ``auction_search``, is there but off: it
lost to the greedy auction).

The search is bounded by work, never by the clock, so that the same seed and the same
announced clock give the same play on any machine, however busy. Its budget is a number of
cards played out per decision, from the ``time`` of ``hello`` (``work_budget``):

    think_ms   = min(decision_ms / 10, bank_ms / (hand_size + 3) / 10)
    card_plays = min(cap, floor(think_ms * speed))

that is a tenth of the per-decision clock, or of the board's bank shared over its
decisions (about one a card, plus the auction's, trump's and passing's), at the speed of
one core of a shared two-vCPU machine, the arena's kind. Where the C kernel is built (the
arena's sandbox has it) a decision is searched in the kernel (``engine.kernel.search``,
``engine.kernel.declare``): speed 10,000 card plays a millisecond, cap 300,000 (about
30 ms there), at most 2,000 sampled deals a card. Without the kernel the search is the
same loop in CPython: speed 400, cap 12,000, at most 200 deals, and the auction is the
greedy bot's. Below 1,200 card plays a decision is the greedy one: a search that short
only adds noise. The arena's default clock (1 s a decision, 60 s a board) gives the full
cap. A card decision samples ``card_plays / (candidates * cards left)`` deals, at least 12;
every candidate is played out on every deal. With ``auction_search`` an auction decision
simulates ``card_plays / ((cards dealt + 48) * simulations)`` deals (at most 2,000, else
the greedy call below 50) for each trump it may name and for the others' contracts.

A wall clock stops a search only as a safety net, at three quarters of the per-decision
clock or a quarter of the bank left, far beyond what the budget needs: when it fires, the
decision depends on the machine, so the bot says so on stderr and counts it
(``safety_stops``). Random draws are seeded from the seat, the board and the position,
never from the clock.
"""

from __future__ import annotations

import functools
import math
import random
import sys
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

from bots.reference.greedy import (
    GreedyBot,
    TrickView,
    average_meld,
    best_trump,
    card_points,
    choose_card,
    counts_of,
    partner_meld,
    trump_choices,
)
from engine import kernel
from engine.actions import Action, Bid, NameTrump
from engine.cards import DECKS, NUM_FACES, Card, Rank, Suit
from engine.meld import meld_total
from engine.rules import MustHead, MustTrump, Rules
from engine.tricks import (
    HEAD_ALWAYS,
    HEAD_LEAD_SUIT,
    HEAD_NEVER,
    HEAD_TRUMP_LED,
    STRONGER,
    SUIT_MASK,
    legal_mask,
    trick_summary,
)

HEAD_CODES = {
    MustHead.ALWAYS: HEAD_ALWAYS,
    MustHead.TRUMP_LED_ONLY: HEAD_TRUMP_LED,
    MustHead.LEAD_SUIT_EVEN_IF_TRUMPED: HEAD_LEAD_SUIT,
    MustHead.NEVER: HEAD_NEVER,
}

MELD_CLASS = {"run": 0, "royal marriage": 0, "marriage": 0, "dix": 0, "pinochle": 1}
"""Meld classes (RULES.md 3.2): one card serves once per class, so a class's cards add up.
Arounds are the third class."""

RANK_MASKS = tuple(sum(1 << (suit * 6 + rank) for suit in range(4)) for rank in range(6))
WEAK_FIRST = tuple(reversed(RANK_MASKS))

# Three "other" seats, so seven non-empty sets of them; for each set, the sets inside it.
_SUBSETS = tuple(
    (group, tuple(inner for inner in range(1, 8) if inner & ~group == 0)) for group in range(1, 8)
)


@functools.cache
def ruled_out(
    face: int, led: int, win: int, led_high: int, trump: int, rules: tuple[int, bool, bool]
) -> int:
    """The faces a player cannot have held when playing ``face`` to this trick.

    Holding ``other`` alongside ``face`` would have made ``face`` illegal (it had to follow,
    beat, trump or over-trump with ``other``). The legality rules only ever narrow the
    choice as a hand grows, so this holds for any larger hand too.
    """
    head, if_winning, overtrump = rules
    own = 1 << face
    excluded = 0
    for other in range(NUM_FACES):
        if other == face:
            continue
        mask = own | 1 << other
        if not legal_mask(mask, led, win, led_high, trump, head, if_winning, overtrump) & own:
            excluded |= 1 << other
    return excluded


class Beliefs:
    """What one seat knows of the other hands once the trump is named and meld shown.

    - ``held[s][f]``: copies of face ``f`` seat ``s`` surely holds now: cards it showed in
      meld or received in the pass from this seat, less those it has played since;
    - ``excluded[s]``: a mask of faces ``s`` cannot hold, from plays that would have been
      illegal had it held them (a void shown by not following, a trump not over-trumped...);
    - the rest of the unseen cards (``pool``) is dealt at random by ``sample``.
    """

    def __init__(self, observation: dict[str, Any], rules: Rules) -> None:
        self.rules = rules
        self.seat = int(observation["seat"])
        self.trump = int(Suit.parse(observation["trump"]))
        self.hand = counts_of(observation["hand"])
        self.sizes = [int(size) for size in observation["hand_sizes"]]
        self.others = [seat for seat in range(4) if seat != self.seat]
        self.played = [[0] * NUM_FACES for _ in range(4)]
        self.excluded = [0] * 4
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
                player = (leader + position) % 4
                if position:
                    led, win, led_high = trick_summary(faces[:position], self.trump)
                    self.excluded[player] |= ruled_out(face, led, win, led_high, self.trump, codes)
                self.played[player][face] += 1
        shown = self._shown(observation)
        self.held = [
            [max(0, shown[seat][face] - self.played[seat][face]) for face in range(NUM_FACES)]
            for seat in range(4)
        ]
        self.held[self.seat] = [0] * NUM_FACES
        copies = DECKS[rules.deck].copies
        self.pool = [
            copies[face]
            - self.hand[face]
            - sum(self.played[seat][face] for seat in range(4))
            - sum(self.held[seat][face] for seat in self.others)
            for face in range(NUM_FACES)
        ]
        self.room = [self.sizes[seat] - sum(self.held[seat]) for seat in self.others]
        self.kinds = [self.allowed(face) for face in range(NUM_FACES)]
        # The C kernel deals these very samples (engine.kernel.sample_deal), where built.
        self.kernel = kernel.KERNEL is not None

    def forget_exclusions(self) -> None:
        """Drop what the plays showed (only ever needed if the beliefs contradict)."""
        self.excluded = [0] * 4
        self.kinds = [self.allowed(face) for face in range(NUM_FACES)]

    def _shown(self, observation: dict[str, Any]) -> list[list[int]]:
        """Per seat, the copies of each face it held when the meld was shown."""
        shown = [[0] * NUM_FACES for _ in range(4)]
        for entry in observation["melds"] or []:
            by_class = [[0] * NUM_FACES for _ in range(3)]
            for item in entry["items"]:
                group = by_class[MELD_CLASS.get(item["meld"], 2)]
                for name in item["cards"]:
                    group[Card.parse(name)] += 1
            shown[int(entry["seat"])] = [max(column) for column in zip(*by_class, strict=True)]
        passes = [entry for entry in observation["passing"] if "cards" in entry]
        if len(passes) == 2:
            # The last receiver holds every card it got; the first receiver still holds
            # what it got and did not send back.
            first, second = (counts_of(entry["cards"]) for entry in passes)
            kept = [max(0, a - b) for a, b in zip(first, second, strict=True)]
            for entry, known in ((passes[1], second), (passes[0], kept)):
                receiver = int(entry["to"])
                if receiver != self.seat:
                    shown[receiver] = [
                        max(a, b) for a, b in zip(shown[receiver], known, strict=True)
                    ]
        return shown

    def allowed(self, face: int) -> int:
        """The others (as bits 0-2 of ``others``) that may hold ``face``."""
        return sum(
            1 << index
            for index, seat in enumerate(self.others)
            if not self.excluded[seat] >> face & 1
        )

    def sample(self, rng: random.Random) -> list[list[int]]:
        """Four hands (face counts) consistent with the beliefs; this seat's is its own.

        The pool's cards go one at a time, in random order and constrained cards first,
        to a seat with room for them, with a chance proportional to that room (uniform when
        nothing is known), never to a seat that would leave the rest impossible to place
        (checked on the seven sets of seats, Hall's condition).
        """
        if self.kernel:
            hands = [list(self.held[seat]) for seat in range(4)]
            hands[self.seat] = list(self.hand)
            return kernel.sample_deal(self.kinds, self.pool, self.room, hands, self.others, rng)
        kinds = self.kinds
        cards = [face for face in range(NUM_FACES) for _ in range(self.pool[face])]
        rng.shuffle(cards)
        cards.sort(key=lambda face: kinds[face] == 7)
        waiting = [0] * 8
        for face in cards:
            waiting[kinds[face]] += 1
        room = list(self.room)
        hands = [list(self.held[seat]) for seat in range(4)]
        hands[self.seat] = list(self.hand)
        for face in cards:
            kind = kinds[face]
            waiting[kind] -= 1
            choices: list[int] = []
            weights: list[int] = []
            for index in range(3):
                if kind >> index & 1 and room[index]:
                    room[index] -= 1
                    if kind == 7 or _placeable(waiting, room):
                        choices.append(index)
                        weights.append(room[index] + 1)
                    room[index] += 1
            pick = rng.random() * sum(weights)
            chosen = choices[-1]
            for index, weight in zip(choices, weights, strict=True):
                if pick < weight:
                    chosen = index
                    break
                pick -= weight
            room[chosen] -= 1
            hands[self.others[chosen]][face] += 1
        return hands

    def consistent(self) -> bool:
        """Whether some deal satisfies the beliefs (the true one always does)."""
        if min(self.pool) < 0 or min(self.room) < 0 or sum(self.pool) != sum(self.room):
            return False
        waiting = [0] * 8
        for face in range(NUM_FACES):
            waiting[self.kinds[face]] += self.pool[face]
        return not waiting[0] and _placeable(waiting, self.room)


def _placeable(waiting: Sequence[int], room: Sequence[int]) -> bool:
    """Hall's condition: for every set of seats, the cards that may only go to them fit."""
    for group, inner in _SUBSETS:
        space = sum(room[index] for index in range(3) if group >> index & 1)
        if sum(waiting[kind] for kind in inner) > space:
            return False
    return True


class Playout:
    """Plays a hand out from a position with every hand known, by a fast card-sense policy.

    Leaders cash side aces, else lead a random card; followers give counters to a winning
    partner, win with the cheapest card in the last seat and the strongest before it, and
    otherwise throw the least valuable card.
    """

    def __init__(
        self, rules: Rules, trump: int, declarer: int, bid: int, meld: Sequence[int], seat: int
    ) -> None:
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump]
        self.side_mask = ((1 << NUM_FACES) - 1) & ~self.trump_mask
        self.side_aces = RANK_MASKS[Rank.A] & self.side_mask
        self.side_gifts = (RANK_MASKS[Rank.T] | RANK_MASKS[Rank.K]) & self.side_mask
        self.beaten_by = tuple(
            STRONGER[face] | (self.trump_mask if face // 6 != trump else 0)
            for face in range(NUM_FACES)
        )
        self.points = tuple(card_points(rules, face) for face in range(NUM_FACES))
        self.head = HEAD_CODES[rules.must_head]
        self.if_winning = rules.must_trump is MustTrump.ONLY_IF_WINNING
        self.overtrump = rules.must_overtrump
        self.last_bonus = rules.last_trick_bonus
        self.declaring = declarer % 2
        self.bid = bid
        self.meld = meld
        self.team = seat % 2
        self.rules = rules
        # The C kernel plays these very playouts (engine.kernel, tested card for card);
        # where it is not built (the bot sandbox) ``finish`` plays them.
        self.kernel = kernel.supports(rules)

    def weakest(self, mask: int) -> int:
        """The least valuable face of ``mask``: a side card before a trump, low rank first."""
        side = mask & self.side_mask
        pool = side or mask
        for rank_mask in WEAK_FIRST:
            found = pool & rank_mask
            if found:
                return (found & -found).bit_length() - 1
        raise ValueError("empty mask")

    def score(self, taken: Sequence[int]) -> int:
        """This seat's team's hand score minus the other team's (RULES.md section 5)."""
        totals = [self.meld[0] + taken[0], self.meld[1] + taken[1]]
        if totals[self.declaring] < self.bid:
            totals[self.declaring] = -self.bid
        return totals[self.team] - totals[1 - self.team]

    def finish_seeded(
        self,
        hands: list[list[int]],
        masks: list[int],
        trick: Sequence[int],
        leader: int,
        taken: Sequence[int],
        seed: int,
        first: int = -1,
    ) -> int:
        """``finish`` with the draws of ``random.Random(seed)``, through the C kernel when
        it is built (the same cards, the same score)."""
        if not self.kernel:
            return self.finish(
                hands, masks, trick, leader, taken, random.Random(seed).random, first
            )
        [won] = kernel.playouts(
            self.rules,
            trump=self.trump,
            hands=hands,
            trick=trick,
            leader=leader,
            taken=taken,
            count=1,
            greedy=True,
            rng=seed,
            first=first,
        )
        return self.score(won)

    def finish(
        self,
        hands: list[list[int]],
        masks: list[int],
        trick: Sequence[int],
        leader: int,
        taken: Sequence[int],
        draw: Callable[[], float],
        first: int = -1,
        *,
        uniform: bool = False,
        uniform_seats: Collection[int] = (),
    ) -> int:
        """Play to the end from ``trick`` (led by ``leader``), the seat to move playing
        ``first`` if given; return ``score``. ``hands`` (face counts) and ``masks`` (the
        faces held, as bits) are played out in place. ``uniform``: every card uniform
        among the legal ones instead (one ``draw()`` a card, the k-th lowest legal face,
        as the kernel's and the engine's random play draw); ``uniform_seats``: the cards
        of those seats alone (the kernel's ``playouts(uniform=...)``)."""
        trump, trump_mask, beaten_by, points = (
            self.trump,
            self.trump_mask,
            self.beaten_by,
            self.points,
        )
        head, if_winning, overtrump = self.head, self.if_winning, self.overtrump
        # A bit per uniform seat: one shift a card in the loop, not a search of a collection.
        uniform_mask = 0b1111 if uniform else sum(1 << seat for seat in set(uniform_seats))
        won = list(taken)
        played = len(trick)
        pot = sum(points[face] for face in trick)
        led = win = led_high = win_seat = -1
        for position, face in enumerate(trick):
            if position == 0:
                led, win, led_high, win_seat = face // 6, face, face, leader
            else:
                if beaten_by[win] >> face & 1:
                    win, win_seat = face, (leader + position) % 4
                if face // 6 == led and face < led_high:
                    led_high = face
        seat = (leader + played) % 4
        while True:
            hand = masks[seat]
            if first >= 0:
                face, first = first, -1
            elif uniform_mask >> seat & 1:
                legal = legal_mask(hand, led, win, led_high, trump, head, if_winning, overtrump)
                skip = int(draw() * legal.bit_count())
                while skip:
                    legal &= legal - 1
                    skip -= 1
                face = (legal & -legal).bit_length() - 1
            elif played == 0:
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
                if not legal & (legal - 1):
                    face = legal.bit_length() - 1
                elif (win_seat - seat) % 2 == 0:
                    gifts = legal & self.side_gifts
                    face = (gifts & -gifts).bit_length() - 1 if gifts else self.weakest(legal)
                else:
                    beaters = legal & beaten_by[win]
                    if not beaters:
                        face = self.weakest(legal)
                    elif played == 3 or (led != trump and beaters & trump_mask):
                        face = self.weakest(beaters)
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
            if played < 4:
                seat = (seat + 1) % 4
                continue
            team = win_seat % 2
            won[team] += pot
            if not masks[win_seat]:
                won[team] += self.last_bonus
                return self.score(won)
            pot = played = 0
            led = -1
            seat = win_seat


class _Stopped(Exception):
    """The safety clock stopped an auction decision's simulations."""


class StrongBot(GreedyBot):
    name = "strong"

    card_plays_per_ms = 400
    """The calibration of ``work_budget`` for the pure-Python search: card plays a
    millisecond on the arena's machines."""
    max_card_plays = 12_000
    """The most work a pure-Python decision gets, however generous the clock."""
    kernel_card_plays_per_ms = 10_000
    """The calibration of ``work_budget`` when the C kernel searches (``kernel_search``)."""
    kernel_max_card_plays = 300_000
    """The most work a kernel decision gets, however generous the clock."""
    min_card_plays = 1_200
    """Below this budget a decision is the greedy one: a search that short only adds noise."""
    min_deals = 12
    max_deals = 200
    """The most deals a pure-Python card decision samples."""
    kernel_max_deals = 2_000
    """The most deals a kernel card decision samples."""
    kernel_search = True
    """Search each decision in one kernel call (``engine.kernel.search``) at the kernel's
    calibration, where the kernel is built; else, or when False, the Python loop at
    CPython's (the bot before the kernel searched: a benchmark's baseline)."""
    auction_search = False
    """Bid and name the trump by whole hands simulated in the kernel (``bid``, ``trump``);
    when False (the default), or without the kernel, the greedy bot's rules of thumb. Off:
    measured against the greedy auction it lost (duplicate, 400 boards a variant,
    tests/bench/bench_strong_search.py ``--bot auction``): its valuation of passing
    overbids."""
    auction_overhead = 48
    """What a simulated whole hand counts beyond its card plays, in card plays: its deal,
    trump, passing and meld."""
    auction_max_deals = 2_000
    """The most deals an auction decision simulates per trump or declarer."""
    auction_min_deals = 50
    """Fewer simulated deals than this: the greedy bot's call (too noisy to trust)."""
    search_chunk = 250
    """Deals per kernel call: the safety clock is read between calls."""
    seed_salt = ""
    """Prefixed to every search seed: another salt samples other deals in every search, so
    that two runs on the same cards measure how much of a result the cards decide."""
    playout_overhead = 16
    """What a steady search counts a playout beyond its cards, in card plays: sampling its
    deal and seeding its draws (about 40 us), so that near the end of a hand, when a
    playout plays few cards, a steady answer takes no longer than earlier ones."""
    steady = False
    """Spend the whole budget on every card, a forced one included: as many sampled deals
    and card plays whether one card is legal or ten, so that the time an answer takes
    tells nothing of the cards (a human's table sets it: tables/referee.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.board = 0
        self.time_left_ms: float | None = None
        self.safety_stops = 0
        """Searches the wall clock cut short: decisions that depended on the machine."""
        self.last_deals = 0
        """Deals the last decision searched (0 for a greedy one)."""
        self.last_card_plays = 0
        """Cards the last decision's playouts played: its work, whatever the machine."""

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if message.get("type") == "act":
            left = message.get("time_left_ms")
            self.time_left_ms = float(left) if isinstance(left, int | float) else None
            self.last_deals = self.last_card_plays = 0
        return super().handle(message)

    def on_hand_start(self, message: dict[str, Any]) -> None:
        self.board = int(message.get("board", 0))

    def _clock(self) -> tuple[float | None, float | None]:
        clock = self.hello.get("time") or {}
        decision_ms, bank_ms = clock.get("decision_ms"), clock.get("bank_ms")
        return (
            float(decision_ms) if isinstance(decision_ms, int | float) else None,
            float(bank_ms) if isinstance(bank_ms, int | float) else None,
        )

    def in_kernel(self, rules: Rules) -> bool:
        """Whether this bot's searches run in the C kernel (one call a decision)."""
        return self.kernel_search and kernel.KERNEL is not None and kernel.supports(rules)

    def work_budget(self, observation: dict[str, Any]) -> int:
        """Card plays this decision may use, from the clock announced in ``hello`` alone
        (the module's docstring gives the formula); 0 means play the greedy card."""
        decision_ms, bank_ms = self._clock()
        rules = self._rules(observation)
        fast = self.in_kernel(rules)
        per_ms = self.kernel_card_plays_per_ms if fast else self.card_plays_per_ms
        cap = self.kernel_max_card_plays if fast else self.max_card_plays
        # No clock announced: nothing to spread, the full budget.
        think_ms = cap / per_ms
        if decision_ms is not None:
            think_ms = min(think_ms, decision_ms / 10)
        if bank_ms is not None:
            think_ms = min(think_ms, bank_ms / (rules.hand_size + 3) / 10)
        budget = min(cap, math.floor(think_ms * per_ms))
        return budget if budget >= self.min_card_plays else 0

    def safety_deadline(self) -> float:
        """When the wall clock stops a search, as ``time.perf_counter()`` reads it."""
        decision_ms, _ = self._clock()
        limit_ms = 750.0 if decision_ms is None else decision_ms * 3 / 4
        if self.time_left_ms is not None:
            limit_ms = min(limit_ms, self.time_left_ms / 4)
        return time.perf_counter() + limit_ms / 1000

    def rng(self, observation: dict[str, Any]) -> random.Random:
        """A generator seeded from the seat, the board and the position, so replays match."""
        played = sum(len(entry["cards"]) for entry in observation["tricks"])
        played += len(observation["trick"]["cards"])
        key = f"{observation['seat']}/{self.board}/{observation['phase']}/{played}"
        return random.Random(f"{self.seed_salt}{key}/{' '.join(observation['hand'])}")

    def _stopped(self, dealt: int, deals: int) -> None:
        self.safety_stops += 1
        print(
            f"strong: the safety clock stopped a search at board {self.board} after "
            f"{dealt} of {deals} deals; this decision depends on the machine's speed",
            file=sys.stderr,
        )

    def evaluate(
        self,
        observation: dict[str, Any],
        candidates: Sequence[int | None],
        play_candidate: Callable[[list[list[int]], list[int], int | None, int], int],
        card_plays: int,
        start: tuple[Playout, Sequence[int], int, Sequence[int]] | None = None,
    ) -> list[float]:
        """The mean outcome of each candidate over the sampled deals. ``start`` (the
        playout, the trick so far, its leader and the counters taken) lets the kernel
        search the whole decision (``in_kernel``): the same deals and playouts, and so
        the same means, as the Python loop over ``play_candidate``."""
        deadline = self.safety_deadline()
        rules = self._rules(observation)
        beliefs = Beliefs(observation, rules)
        if not beliefs.consistent():
            beliefs.forget_exclusions()
        rng = self.rng(observation)
        fast = start is not None and self.in_kernel(rules) and start[0].kernel
        # A playout plays every card still in the hands.
        left = sum(beliefs.sizes)
        if self.steady:
            # The whole budget in playouts, each candidate in turn on each deal, and one
            # deal sampled per playout even when fewer candidates leave some unused: the
            # work is the same for one legal card as for ten.
            playouts = max(len(candidates), card_plays // (left + self.playout_overhead))
            deals = playouts
        else:
            most = self.kernel_max_deals if fast else self.max_deals
            deals = min(most, max(self.min_deals, card_plays // (len(candidates) * left)))
            playouts = deals * len(candidates)
        if fast:
            assert start is not None
            totals, counted, dealt = self._kernel_search(
                beliefs, rng, candidates, start, deals, playouts, deadline
            )
            played = sum(counted)
        else:
            totals = [0.0] * len(candidates)
            counted = [0] * len(candidates)
            dealt = played = 0
            while dealt < deals and (not dealt or time.perf_counter() < deadline):
                # A steady search prepares every deal alike, those it will not play included.
                hands = beliefs.sample(rng)
                dealt += 1
                masks = [
                    sum(1 << face for face in range(NUM_FACES) if counts[face]) for counts in hands
                ]
                # The same playout draws for every candidate: differences come from the cards.
                seed = rng.getrandbits(32)
                for index, candidate in enumerate(candidates[: playouts - played]):
                    copy = [list(counts) for counts in hands]
                    totals[index] += play_candidate(copy, list(masks), candidate, seed)
                    counted[index] += 1
                played += min(len(candidates), playouts - played)
        self.last_deals = dealt
        self.last_card_plays = played * left
        if dealt < deals:
            self._stopped(dealt, deals)
        return [
            total / count if count else -math.inf
            for total, count in zip(totals, counted, strict=True)
        ]

    def _kernel_search(
        self,
        beliefs: Beliefs,
        rng: random.Random,
        candidates: Sequence[int | None],
        start: tuple[Playout, Sequence[int], int, Sequence[int]],
        deals: int,
        playouts: int,
        deadline: float,
    ) -> tuple[list[float], list[int], int]:
        """``evaluate``'s loop in the kernel, ``search_chunk`` deals a call."""
        playout, trick, leader, taken = start
        hands = [list(beliefs.held[seat]) for seat in range(4)]
        hands[beliefs.seat] = list(beliefs.hand)
        faces = [-1 if face is None else face for face in candidates]
        score = (
            playout.meld[0],
            playout.meld[1],
            playout.bid,
            playout.declaring,
            playout.team,
        )
        totals = [0.0] * len(candidates)
        counted = [0] * len(candidates)
        dealt = played = 0
        while dealt < deals and (not dealt or time.perf_counter() < deadline):
            chunk = min(self.search_chunk, deals - dealt)
            sums, counts = kernel.search(
                playout.rules,
                trump=playout.trump,
                kinds=beliefs.kinds,
                pool=beliefs.pool,
                room=beliefs.room,
                hands=hands,
                others=beliefs.others,
                trick=trick,
                leader=leader,
                taken=taken,
                candidates=faces,
                deals=chunk,
                playouts=playouts - played,
                rng=rng,
                score=score,
            )
            dealt += chunk
            played += sum(counts)
            for index, (total, count) in enumerate(zip(sums, counts, strict=True)):
                totals[index] += total
                counted[index] += count
        return totals, counted, dealt

    def playout(self, observation: dict[str, Any]) -> Playout:
        rules = self._rules(observation)
        seat = int(observation["seat"])
        meld = [0, 0]
        for entry in observation["melds"] or []:
            meld[int(entry["seat"]) % 2] += int(entry["total"])
        contract = observation["contract"]
        return Playout(
            rules,
            int(Suit.parse(observation["trump"])),
            int(contract["declarer"]),
            int(contract["bid"]),
            meld,
            seat,
        )

    def play(self, observation: dict[str, Any], legal: list[str]) -> str:
        faces = [int(Card.parse(text.split()[1])) for text in legal]
        if len(faces) == 1 and not self.steady:
            return legal[0]
        rules = self._rules(observation)
        sensible = choose_card(TrickView.read(observation, rules), faces)
        budget = self.work_budget(observation)
        if not budget:
            return f"play {Card(sensible)}"
        playout = self.playout(observation)
        trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]
        leader = observation["trick"]["leader"]
        leader = int(observation["seat"]) if leader is None else int(leader)
        taken = [int(points) for points in observation["counters_taken"]]

        def play_card(hands: list[list[int]], masks: list[int], face: int | None, seed: int) -> int:
            assert face is not None
            return playout.finish_seeded(hands, masks, trick, leader, taken, seed, face)

        totals = self.evaluate(
            observation, faces, play_card, budget, (playout, trick, leader, taken)
        )
        # Ties (cards that play alike) go to the greedy choice, which has card sense.
        best = max(range(len(faces)), key=lambda i: (totals[i], faces[i] == sensible))
        return f"play {Card(faces[best])}"

    def throw_in(self, observation: dict[str, Any], legal: list[str]) -> str:
        budget = self.work_budget(observation)
        if "throw-in" not in legal or not budget:
            return super().throw_in(observation, legal)
        playout = self.playout(observation)
        seat = int(observation["seat"])

        def play_on(hands: list[list[int]], masks: list[int], _: int | None, seed: int) -> int:
            return playout.finish_seeded(hands, masks, [], seat, [0, 0], seed)

        (playing,) = self.evaluate(
            observation, [None], play_on, budget, (playout, [], seat, [0, 0])
        )
        bid = int(observation["contract"]["bid"])
        # Throwing in: the declaring team loses the bid, the defenders keep their meld.
        conceded = -bid - playout.meld[1 - playout.team]
        return "throw-in" if conceded > playing else "play-on"

    # ------------------------------------------------------------------ the auction

    def auction_deals(self, observation: dict[str, Any], simulations: int) -> int:
        """Deals each of ``simulations`` whole-hand simulations of an auction decision gets
        from its budget; 0: the greedy bot's call (no kernel, or too few to trust)."""
        rules = self._rules(observation)
        if not (self.auction_search and self.in_kernel(rules)):
            return 0
        if rules.players != 4 or rules.deck != "single":
            return 0
        budget = self.work_budget(observation)
        cost = rules.hand_size * 4 + self.auction_overhead
        deals = min(self.auction_max_deals, budget // (cost * simulations))
        return deals if deals >= self.auction_min_deals else 0

    def _declared(
        self,
        observation: dict[str, Any],
        declarer: int,
        trump: int,
        deals: int,
        seed: int,
        deadline: float,
    ) -> list[tuple[int, int, int, float]]:
        """``engine.kernel.declare`` from this seat, counted as this decision's work;
        ``_Stopped`` once the safety clock has passed."""
        if self.last_deals and time.perf_counter() >= deadline:
            raise _Stopped
        rules = self._rules(observation)
        self.last_deals += deals
        self.last_card_plays += deals * rules.hand_size * 4
        return kernel.declare(
            rules,
            hand=counts_of(observation["hand"]),
            seat=int(observation["seat"]),
            declarer=declarer,
            trump=trump,
            deals=deals,
            seed=seed,
            partner_meld=partner_meld(rules),
            total=rules.total_in_tricks,
        )

    def bid(self, observation: dict[str, Any], legal: list[str]) -> str:
        """Bid the lowest legal bid when declaring there, with the best trump, scores
        better for the team on simulated deals than passing does; else the greedy pass.

        Passing is valued on the same deals: when the partner holds the contract, as the
        partner declaring it; otherwise, deal by deal, as the stronger opponent still
        bidding declaring the same bid where the greedy bot's rule would have it bid so
        high, else the partner where it would, else as even (the dealer is stuck with a
        hand nobody wants, on either side)."""
        rules = self._rules(observation)
        choices = trump_choices(counts_of(observation["hand"]), rules)
        bids = sorted(a.amount for a in map(Action.parse, legal) if isinstance(a, Bid))
        passes = [text for text in legal if not text.startswith("bid")]
        # A simulation a trump it may name, and the opponents' and the partner's contract.
        deals = self.auction_deals(observation, len(choices) + 2)
        if not passes or not bids or not choices or not deals:
            return super().bid(observation, legal)
        try:
            return self._searched_bid(observation, legal, choices, bids[0], passes, deals)
        except _Stopped:
            self._stopped(self.last_deals, deals * (len(choices) + 2))
            return super().bid(observation, legal)

    def _searched_bid(
        self,
        observation: dict[str, Any],
        legal: list[str],
        choices: list[int],
        lowest: int,
        passes: list[str],
        deals: int,
    ) -> str:
        rules = self._rules(observation)
        seat = int(observation["seat"])
        partner = (seat + 2) % 4
        counts = counts_of(observation["hand"])
        deadline = self.safety_deadline()
        auction = observation["auction"]
        seed = self.rng(observation).getrandbits(32)
        # The partner's "pass with help" promises meld well above the average one.
        helped = any(e["seat"] == partner and e["action"] == "pass-help" for e in auction)
        bonus = average_meld(rules) if helped else 0.0

        def outcome(row: tuple[int, int, int, float], bid: int, extra: float) -> float:
            ours, theirs = row[0] + extra, row[1]
            return (ours if ours >= bid else -bid) - theirs

        declaring = max(
            (
                [
                    outcome(row, lowest, bonus)
                    for row in self._declared(observation, seat, t, deals, seed, deadline)
                ]
                for t in choices
            ),
            key=sum,
        )
        bidders = [e for e in auction if str(e["action"]).startswith("bid")]
        passed = {int(e["seat"]) for e in auction if str(e["action"]).startswith("pass")}
        if bidders and int(bidders[-1]["seat"]) == partner:
            high = int(str(bidders[-1]["action"]).split()[1])
            rows = self._declared(observation, partner, -1, deals, seed, deadline)
            passing = [outcome(row, high, 0.0) for row in rows]
        else:
            # Who would take the contract at this bid were we to pass: an opponent still
            # bidding whose hand the greedy rule would bid so high, else the partner so,
            # else nobody (the dealer stuck with it, either side's: even, 0).
            margin = 0.12 * rules.total_in_tricks
            bidding = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if s not in passed]
            chosen = -1 if len(bidding) == 2 else bidding[0] if bidding else None
            theirs = (
                self._declared(observation, chosen, -1, deals, seed, deadline)
                if chosen is not None
                else None
            )
            ours = (
                self._declared(observation, partner, -1, deals, seed, deadline)
                if partner not in passed
                else None
            )
            passing = []
            for index in range(deals):
                if theirs is not None and theirs[index][3] - margin >= lowest:
                    passing.append(-outcome(theirs[index], lowest, 0.0))
                elif ours is not None and ours[index][3] - margin >= lowest:
                    passing.append(outcome(ours[index], lowest, 0.0))
                else:
                    passing.append(0.0)
        if sum(declaring) > sum(passing):
            return f"bid {lowest}"
        # The greedy bot's pass: with help when the hand's own meld is well above average.
        trump, _ = best_trump(counts, rules, choices)
        if "pass-help" in passes and meld_total(
            counts, trump, rules.meld_values
        ) >= 2 * average_meld(rules):
            return "pass-help"
        return "pass"

    def trump(self, observation: dict[str, Any], legal: list[str]) -> str:
        """The trump whose simulated deals (passing, meld and tricks) score best at the
        contract's bid; the greedy bot's trump on a tie."""
        choices = [int(a.suit) for a in map(Action.parse, legal) if isinstance(a, NameTrump)]
        deals = self.auction_deals(observation, len(choices))
        if len(choices) < 2 or not deals:
            return super().trump(observation, legal)
        sensible = int(Suit.parse(super().trump(observation, legal).split()[1]))
        seat = int(observation["seat"])
        bid = int(observation["contract"]["bid"])
        seed = self.rng(observation).getrandbits(32)
        deadline = self.safety_deadline()
        values = {}
        try:
            for suit in choices:
                rows = self._declared(observation, seat, suit, deals, seed, deadline)
                values[suit] = sum(
                    (ours if ours >= bid else -bid) - theirs for ours, theirs, _, _ in rows
                )
        except _Stopped:
            self._stopped(self.last_deals, deals * len(choices))
            return f"trump {Suit(sensible)}"
        best = max(choices, key=lambda suit: (values[suit], suit == sensible))
        return f"trump {Suit(best)}"
