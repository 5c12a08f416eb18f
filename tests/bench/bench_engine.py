"""Random whole hands per second: the engine beside a straightforward list-based baseline.

    python tests/bench/bench_engine.py [--hands 3000] [--repeat 3]

A hand is a deal, a random auction, trump, the passing (if any), the meld of every seat,
12 or 20 tricks with every card chosen among the legal ones, and the hand's score. The
engine side is ``HandState.play_randomly`` (cards chosen among ``legal_mask``, the
function ``apply`` checks with) plus ``result()``. The baseline plays the same rules with
cards as strings, hands as lists and legality by list comprehensions, the way one would
first write it. Both run in this process, one after the other, on one core; the best of
``--repeat`` runs is printed, and whether the C kernel ran (``ENGINE_KERNEL=off`` leaves
it out). Targets: 8,000 hands/s for single4, 3,000 for double4.
A third column plays the same policy through the public interface only (every action
taken from ``legal_actions`` and checked again by ``apply``): the public path, whose goal
for single4 is 5x the baseline (``APPLY_GOAL``); a fourth, the same driver reading
``Phase.X`` at each action (see ``engine_hands_through_apply`` for why it differs).
With the C kernel built, the hand's core (``engine.handcore``) is its C twin and the
hands are dealt through its shuffle.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import Give, Phase, PlayOn, new_hand, rules_for  # noqa: E402
from engine.kernel import kernel_status  # noqa: E402
from engine.rules import AllPass, MustHead, MustTrump, Rules  # noqa: E402

TARGETS = {"single4": 8000, "double4": 3000}
APPLY_GOAL = {"single4": 5.0}
"""The public path's goal: via apply / baseline."""
BUILD = "kernel" if kernel_status() == "loaded" else "pure"
"""Which engine runs: with the C kernel's core, or pure Python."""
PLAY_ON = PlayOn()
RANKS = "ATKQJ9"
SUITS = "SHDC"


def engine_hands(variant: str, hands: int) -> None:
    choices = random.Random(1)
    for number in range(hands):
        state = new_hand(variant, seed=number, dealer=number % 4)
        state.play_randomly(choices)
        state.result()


def engine_hands_through_apply(variant: str, hands: int) -> None:
    """The same policy through the public interface only: every action is chosen from
    ``legal_actions`` and checked again by ``apply``.

    The phases it compares with are bound once, as any hot loop binds its constants.
    ``engine_hands_reading_members`` reads them as ``Phase.X`` at each action: on Python
    3.11 such a read goes through ``EnumType.__getattr__``'s hook (about 65 ns, three
    reads an action, some 12 µs a single4 hand) unless the C kernel is built, which reads
    the phases as plain class attributes (``engine/_enums.c``; 3.12 dropped the hook).
    """
    choices = random.Random(1)
    draw = choices.random
    to_declarer, back, throw_in = Phase.PASS_TO_DECLARER, Phase.PASS_BACK, Phase.THROW_IN
    for number in range(hands):
        state = new_hand(variant, seed=number, dealer=number % 4)
        while not state.is_terminal():
            phase = state.phase
            if phase is to_declarer or phase is back:
                seat = state.current_player
                assert seat is not None
                state.apply(Give(choices.sample(state.hand(seat), state.rules.pass_count)))
            elif phase is throw_in:
                state.apply(PLAY_ON)
            else:
                legal = state.legal_actions
                state.apply(legal[int(draw() * len(legal))])
        state.result()


def engine_hands_reading_members(variant: str, hands: int) -> None:
    """``engine_hands_through_apply`` reading ``Phase.X`` at every action."""
    choices = random.Random(1)
    draw = choices.random
    for number in range(hands):
        state = new_hand(variant, seed=number, dealer=number % 4)
        while not state.is_terminal():
            phase = state.phase
            if phase is Phase.PASS_TO_DECLARER or phase is Phase.PASS_BACK:
                seat = state.current_player
                assert seat is not None
                state.apply(Give(choices.sample(state.hand(seat), state.rules.pass_count)))
            elif phase is Phase.THROW_IN:
                state.apply(PLAY_ON)
            else:
                legal = state.legal_actions
                state.apply(legal[int(draw() * len(legal))])
        state.result()


# --------------------------------------------------------------------------- baseline


def baseline_deck(rules: Rules) -> list[str]:
    copies = 2 if rules.deck == "single" else 4
    ranks = RANKS if rules.deck == "single" else RANKS[:5]
    return [rank + suit for suit in SUITS for rank in ranks for _ in range(copies)]


def strength(card: str) -> int:
    return RANKS.index(card[0])


def beats(card: str, winning: str, trump: str) -> bool:
    if card[1] == winning[1]:
        return strength(card) < strength(winning)
    return card[1] == trump


def baseline_legal(hand: list[str], trick: list[str], trump: str, rules: Rules) -> list[str]:
    if not trick:
        return hand
    led = trick[0][1]
    winning = trick[0]
    for card in trick[1:]:
        if beats(card, winning, trump):
            winning = card
    follow = [card for card in hand if card[1] == led]
    if follow:
        head = rules.must_head
        if head is MustHead.NEVER:
            return follow
        if head is MustHead.LEAD_SUIT_EVEN_IF_TRUMPED:
            best = min((c for c in trick if c[1] == led), key=strength)
            higher = [card for card in follow if strength(card) < strength(best)]
            return higher or follow
        if winning[1] != led:
            return follow
        if head is MustHead.TRUMP_LED_ONLY and led != trump:
            return follow
        higher = [card for card in follow if strength(card) < strength(winning)]
        return higher or follow
    trumps = [card for card in hand if card[1] == trump]
    if not trumps:
        return hand
    if winning[1] == trump:
        over = [card for card in trumps if strength(card) < strength(winning)]
    else:
        over = trumps
    if rules.must_trump is MustTrump.ONLY_IF_WINNING:
        if not over:
            return hand
        return over if rules.must_overtrump else trumps
    if rules.must_overtrump and over:
        return over
    return trumps


def baseline_meld(hand: list[str], trump: str, rules: Rules) -> int:
    table = rules.meld_table
    scale = rules.meld_scale

    def value(entries: tuple[int, ...], times: int) -> int:
        return entries[times - 1] * scale if times else 0

    runs = min(hand.count(rank + trump) for rank in "ATKQJ")
    kings, queens = hand.count("K" + trump), hand.count("Q" + trump)
    royal = min(kings - runs, queens - runs)
    total = value(table.run, runs) + royal * table.royal_marriage * scale
    total += hand.count("9" + trump) * table.dix * scale
    for suit in SUITS:
        if suit != trump:
            total += min(hand.count("K" + suit), hand.count("Q" + suit)) * table.marriage * scale
    arounds = (
        ("A", table.aces_around),
        ("K", table.kings_around),
        ("Q", table.queens_around),
        ("J", table.jacks_around),
    )
    for rank, entries in arounds:
        total += value(entries, min(hand.count(rank + suit) for suit in SUITS))
    return total + value(table.pinochle, min(hand.count("QS"), hand.count("JD")))


def baseline_hand(rules: Rules, seed: int, dealer: int, rng: random.Random) -> list[int]:
    deck = baseline_deck(rules)
    random.Random(seed).shuffle(deck)
    size = len(deck) // 4
    hands = [deck[i * size : (i + 1) * size] for i in range(4)]
    ladder = list(rules.bids)
    passed = [False] * 4
    high, high_bidder, seat = -1, -1, (dealer + 1) % 4
    while True:
        active = passed.count(False)
        if active == 1 and high_bidder >= 0:
            break
        stuck = active == 1 and rules.all_pass is AllPass.DEALER_STUCK
        top = len(ladder) if rules.max_raise_rungs is None else high + 1 + rules.max_raise_rungs
        options = ["pass"] if not stuck else []
        options += [f"bid {bid}" for bid in ladder[high + 1 : 1 if stuck else top]]
        choice = rng.choice(options)
        if choice == "pass":
            passed[seat] = True
        else:
            high, high_bidder = ladder.index(int(choice.split()[1])), seat
        seat = (seat + 1) % 4
        while passed[seat]:
            seat = (seat + 1) % 4
    declarer, bid = high_bidder, ladder[high]
    suits = [s for s in SUITS if "K" + s in hands[declarer] and "Q" + s in hands[declarer]]
    if rules.trump_needs_marriage and not suits:
        return [-bid, 0] if declarer % 2 == 0 else [0, -bid]
    trump = rng.choice(suits if rules.trump_needs_marriage else list(SUITS))
    partner = (declarer + 2) % 4
    for giver, taker in ((partner, declarer), (declarer, partner)):
        for card in rng.sample(hands[giver], rules.pass_count):
            hands[giver].remove(card)
            hands[taker].append(card)
    melds = [baseline_meld(hand, trump, rules) for hand in hands]
    taken = [0, 0]
    leader = declarer
    for trick_number in range(size):
        trick: list[str] = []
        for offset in range(4):
            player = (leader + offset) % 4
            card = rng.choice(baseline_legal(hands[player], trick, trump, rules))
            hands[player].remove(card)
            trick.append(card)
        best = 0
        for index in range(1, 4):
            if beats(trick[index], trick[best], trump):
                best = index
        leader = (leader + best) % 4
        points = sum(rules.counter_value for card in trick if card[0] in "ATK")
        taken[leader % 2] += points
        if trick_number == size - 1:
            taken[leader % 2] += rules.last_trick_bonus
    scores = [melds[team] + melds[team + 2] + taken[team] for team in (0, 1)]
    if scores[declarer % 2] < bid:
        scores[declarer % 2] = -bid
    return scores


def baseline_hands(variant: str, hands: int) -> None:
    rules = rules_for(variant)
    choices = random.Random(1)
    for number in range(hands):
        baseline_hand(rules, number, number % 4, choices)


def rate(run: Callable[[str, int], None], variant: str, hands: int) -> float:
    # CPU time of this process, not wall time: on a shared machine other processes take
    # turns on the core, and the target is a rate per core.
    started = time.process_time()
    run(variant, hands)
    return hands / (time.process_time() - started)


def best_rates(variant: str, hands: int, repeat: int) -> tuple[float, float, float, float]:
    """The best of ``repeat`` rounds of the engine, the public path (phases bound once,
    then read as ``Phase.X``) and the baseline, taking turns in each round: a change of
    the machine's load then weighs on all alike rather than on whichever ran during it."""
    engine_rate = apply_rate = members_rate = baseline_rate = 0.0
    for _ in range(repeat):
        engine_rate = max(engine_rate, rate(engine_hands, variant, hands))
        apply_rate = max(apply_rate, rate(engine_hands_through_apply, variant, hands // 2))
        members_rate = max(members_rate, rate(engine_hands_reading_members, variant, hands // 2))
        baseline_rate = max(baseline_rate, rate(baseline_hands, variant, max(hands // 5, 1)))
    return engine_rate, apply_rate, members_rate, baseline_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # ENGINE_KERNEL=off measures the pure-Python engine when the kernel is built.
    print(f"engine: {BUILD}; C kernel: {kernel_status()} (ENGINE_KERNEL=off to leave it out)")
    print(
        f"{'variant':9} {'engine':>9} {'via apply':>10} {'Phase.X':>8} {'baseline':>9} "
        f"{'ratio':>6} {'apply ratio':>11}  {'build':8} target"
    )
    for variant in ("single4", "auction4", "double4"):
        engine_rate, apply_rate, members_rate, baseline_rate = best_rates(
            variant, args.hands, args.repeat
        )
        target = TARGETS.get(variant)
        verdict = ""
        if target is not None:
            verdict = f"{target:,} {'met' if engine_rate >= target else 'MISSED'}"
        goal = APPLY_GOAL.get(variant)
        if goal is not None:
            met = apply_rate / baseline_rate >= goal
            verdict += f"; apply {goal:.0f}x {'met' if met else 'MISSED'}"
        print(
            f"{variant:9} {engine_rate:9,.0f} {apply_rate:10,.0f} {members_rate:8,.0f} "
            f"{baseline_rate:9,.0f} {engine_rate / baseline_rate:5.1f}x "
            f"{apply_rate / baseline_rate:10.1f}x  {BUILD:8} {verdict}"
        )
    print("hands per CPU second, best of --repeat rounds (all take turns in each);")
    print("ratio: engine / baseline;")
    print("apply ratio: via apply / baseline (targets for single4: ratio 3x, apply ratio 5x)")
    print("via apply: the same policy through legal_actions and apply() only, the phases")
    print("  it compares with bound once; Phase.X: the same, reading Phase.X at each action")


if __name__ == "__main__":
    main()
