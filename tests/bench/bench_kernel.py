"""Random hands per second through the C kernel, beside the naive pure-Python loop.

    python tests/bench/bench_kernel.py [--hands 200000] [--repeat 3] [--only pinnacolo]

First the loop itself: a deal, a trump, the meld of the four seats and 12 tricks with
every card chosen among the legal ones, no auction. The naive loop plays it with cards as
strings, hands as lists and legality by list comprehensions (``bench_engine``'s baseline
helpers); the kernel plays it in one batch (``_kernel.random_deals``: uniform cards, and
the strong bot's card sense, ``greedy``). Goal: the kernel's random loop at least 100x the
naive one. Then whole hands per variant (auction, trump, pass or bury, meld, tricks,
score; two-hand: stock tricks, melds and draws, then the play-out): the kernel's batch
(``engine.kernel.random_summary``), the engine's ``play_randomly``, and
``bench_engine``'s list-based baseline (four-hand only);
each variant's kernel rate against single4's of the same round (goal: every variant
within 2x of single4). Rates are per CPU second of this process, the best of
``--repeat`` rounds in which every contender runs once: a change of the machine's load
weighs on all of them alike. Last, the strong reference bot's playouts and sampled deals
through the kernel against their pure Python. Then Pinnacolo's whole random hands (deal,
draws and takes from the pile, melds, additions, replacements, discards, score) per
variant: the kernel's batch against ``PinnacoloHand.play_randomly``, the pure engine, in
the same rounds (goal: the kernel at least 20x the pure engine). ``--only`` runs one of
the sections (``pinochle``: all but Pinnacolo's). The load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.cards import DECKS  # noqa: E402
from engine.game import hand_seed  # noqa: E402
from engine.kernel import KERNEL, config_of, kernel_status, random_summary  # noqa: E402
from engine.pinnacolo import PinnacoloRules, pinnacolo_rules  # noqa: E402
from engine.registry import load_game  # noqa: E402
from engine.rules import Rules, pinochle_rules  # noqa: E402
from engine.trickstate import Phase  # noqa: E402
from tests.bench.bench_engine import (  # noqa: E402
    SUITS,
    baseline_deck,
    baseline_hands,
    baseline_legal,
    baseline_meld,
    beats,
)

GOAL = 100
PINNACOLO_GOAL = 20
"""Pinnacolo's kernel hands at least this many times the pure engine's."""
PINNACOLO_VARIANTS = ("pinnacolo2", "pinnacolo3", "pinnacolo4", "pinnacolo")
VARIANT_GOAL = 2
"""Every variant's kernel hands within this factor of single4's."""
VARIANTS = ("single4", "auction4", "double4", "cutthroat3", "twohand")


def naive_loop(rules: Rules, hands: int) -> None:
    """Deal, trump, meld for four seats, 12 tricks of random legal cards: lists of strings."""
    choices = random.Random(1)
    counters = "ATK"
    for number in range(hands):
        deck = baseline_deck(rules)
        random.Random(number).shuffle(deck)
        size = len(deck) // 4
        seats = [deck[i * size : (i + 1) * size] for i in range(4)]
        trump = choices.choice(SUITS)
        melds = [baseline_meld(hand, trump, rules) for hand in seats]
        taken = [0, 0]
        leader = (number % 4 + 1) % 4
        for _ in range(size):
            trick: list[str] = []
            for offset in range(4):
                hand = seats[(leader + offset) % 4]
                card = choices.choice(baseline_legal(hand, trick, trump, rules))
                hand.remove(card)
                trick.append(card)
            best = 0
            for index in range(1, 4):
                if beats(trick[index], trick[best], trump):
                    best = index
            leader = (leader + best) % 4
            taken[leader % 2] += sum(rules.counter_value for card in trick if card[0] in counters)
        taken[leader % 2] += rules.last_trick_bonus
        assert melds[0] + melds[2] + taken[0] >= 0


def kernel_loop(rules: Rules, hands: int, greedy: bool) -> None:
    assert KERNEL is not None
    KERNEL.random_deals(config_of(rules), 1, 0, hands, 1, greedy)


def engine_hands(rules: Rules, hands: int) -> None:
    game = load_game(rules.name)
    choices = random.Random(1)
    for number in range(hands):
        state = game.new_initial_state(seed=hand_seed(1, number), dealer=number % game.players)
        state.play_randomly(choices)
        state.result()


def kernel_hands(rules: Rules | PinnacoloRules, hands: int) -> None:
    random_summary(rules, game_seed=1, first=0, count=hands, rng=random.Random(1))


def pinnacolo_hands(rules: PinnacoloRules, hands: int) -> None:
    """The pure engine's random hands, as ``python -m engine play`` plays them without the
    kernel (the same hands as ``kernel_hands``)."""
    game = load_game(rules.name)
    choices = random.Random(1)
    for number in range(hands):
        state = game.new_initial_state(seed=hand_seed(1, number), dealer=number % rules.players)
        state.play_randomly(choices)
        state.result()


def pinnacolo_rates(many: int, few: int, repeat: int) -> None:
    print("Pinnacolo's whole hands (deal, turns, melds, score), hands/s:")
    print(f"{'variant':10} {'kernel':>9} {'engine':>8} {'k/engine':>9}  goal")
    for variant in PINNACOLO_VARIANTS:
        rules = pinnacolo_rules(variant)
        rates = best(
            {
                "kernel": (partial(kernel_hands, rules, many), many),
                "engine": (partial(pinnacolo_hands, rules, few), few),
            },
            repeat,
        )
        ratio = rates["kernel"] / rates["engine"]
        verdict = f">= {PINNACOLO_GOAL}x {'met' if ratio >= PINNACOLO_GOAL else 'MISSED'}"
        print(
            f"{variant:10} {rates['kernel']:9,.0f} {rates['engine']:8,.0f} {ratio:8.0f}x  {verdict}"
        )


def strong_bot_rates(count: int, repeat: int) -> tuple[dict[str, float], dict[str, float]]:
    """``Playout.finish_seeded`` and ``Beliefs.sample`` of the strong bot, through the
    kernel and in their pure Python (the same playouts and deals, tested)."""
    from bots.reference.strong import Beliefs, Playout
    from engine.hand import new_hand

    rules = pinochle_rules("single4")
    state = new_hand("single4", seed=3)
    state.apply("bid 16")
    for _ in range(3):
        state.apply("pass")
    state.apply("trump H")
    while state.phase is not Phase.TRICKS:
        state.apply(state.legal_actions[0])
    seat = state.current_player
    assert seat is not None and state.declarer is not None
    hands = [DECKS["single"].counts(state.hand(s)) for s in range(4)]
    masks = [sum(1 << f for f in range(24) if counts[f]) for counts in hands]
    beliefs = Beliefs(state.observation(seat), rules)
    playout = Playout(rules, 1, state.declarer, 16, [0, 0], seat)

    def playouts(kernel: bool) -> None:
        playout.kernel = kernel
        for seed in range(count):
            playout.finish_seeded([h[:] for h in hands], masks[:], [], seat, [0, 0], seed)

    def deals(kernel: bool) -> None:
        beliefs.kernel = kernel
        rng = random.Random(1)
        for _ in range(count):
            beliefs.sample(rng)

    playout_rates = best(
        {"kernel": (partial(playouts, True), count), "pure": (partial(playouts, False), count)},
        repeat,
    )
    deal_rates = best(
        {"kernel": (partial(deals, True), count), "pure": (partial(deals, False), count)}, repeat
    )
    return playout_rates, deal_rates


def rate(run: Callable[[], None], hands: int) -> float:
    started = time.process_time()
    run()
    return hands / max(time.process_time() - started, 1e-9)


def best(contenders: dict[str, tuple[Callable[[], None], int]], repeat: int) -> dict[str, float]:
    rates = dict.fromkeys(contenders, 0.0)
    for _ in range(repeat):
        for name, (run, hands) in contenders.items():
            rates[name] = max(rates[name], rate(run, hands))
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="kernel hands a round")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("pinochle", "pinnacolo"), help="one section")
    args = parser.parse_args()
    if KERNEL is None:
        print(f"the C kernel is {kernel_status()}")
        return 1
    many, few = args.hands, max(args.hands // 400, 20)
    print(f"C kernel: {kernel_status()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    if args.only != "pinnacolo":
        pinochle_rates(args, many, few)
    if args.only != "pinochle":
        # Pinnacolo's pure hands are slower than pinochle's: fewer of them a round.
        pinnacolo_rates(max(many // 40, 200), max(many // 4000, 10), args.repeat)
        print()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores here)")
    print("rates per CPU second of this process, best of --repeat rounds")
    return 0


def pinochle_rates(args: argparse.Namespace, many: int, few: int) -> None:
    print("The loop (deal, trump, meld for four seats, 12 tricks, no auction), hands/s:")
    print(f"{'variant':9} {'kernel':>10} {'greedy':>10} {'naive':>8} {'ratio':>7}  goal")
    for variant in ("single4", "double4"):
        rules = pinochle_rules(variant)
        rates = best(
            {
                "kernel": (partial(kernel_loop, rules, many, False), many),
                "greedy": (partial(kernel_loop, rules, many, True), many),
                "naive": (partial(naive_loop, rules, few), few),
            },
            args.repeat,
        )
        ratio = rates["kernel"] / rates["naive"]
        verdict = f">= {GOAL}x {'met' if ratio >= GOAL else 'MISSED'}"
        print(
            f"{variant:9} {rates['kernel']:10,.0f} {rates['greedy']:10,.0f} "
            f"{rates['naive']:8,.0f} {ratio:6.0f}x  {verdict}"
        )
    print()
    print("Whole hands (auction, trump, pass or bury, meld, tricks, score), hands/s:")
    print(
        f"{'variant':10} {'kernel':>9} {'engine':>8} {'baseline':>9} {'k/engine':>9} {'k/base':>7}"
        f" {'single4/k':>9}  goal"
    )
    single4 = 0.0
    for variant in VARIANTS:
        rules = pinochle_rules(variant)
        contenders: dict[str, tuple[Callable[[], None], int]] = {
            "kernel": (partial(kernel_hands, rules, many // 2), many // 2),
            "engine": (partial(engine_hands, rules, few), few),
        }
        if rules.players == 4:
            contenders["baseline"] = (partial(baseline_hands, variant, few), few)
        rates = best(contenders, args.repeat)
        base = rates.get("baseline")
        base_text = f"{base:9,.0f}" if base else f"{'-':>9}"
        ratio_text = f"{rates['kernel'] / base:6.0f}x" if base else f"{'-':>7}"
        single4 = single4 or rates["kernel"]
        slower = single4 / rates["kernel"]
        verdict = f"<= {VARIANT_GOAL}x {'met' if slower <= VARIANT_GOAL else 'MISSED'}"
        print(
            f"{variant:10} {rates['kernel']:9,.0f} {rates['engine']:8,.0f} {base_text} "
            f"{rates['kernel'] / rates['engine']:8.0f}x {ratio_text} {slower:8.2f}x  {verdict}"
        )
    print()
    print("The strong reference bot's work (single4, from a hand's first trick), per second:")
    playout_rates, deal_rates = strong_bot_rates(max(args.hands // 20, 500), args.repeat)
    print(f"{'':16} {'kernel':>9} {'pure':>8} {'ratio':>6}")
    for name, rates in (("playouts", playout_rates), ("sampled deals", deal_rates)):
        print(
            f"{name:16} {rates['kernel']:9,.0f} {rates['pure']:8,.0f} "
            f"{rates['kernel'] / rates['pure']:5.1f}x"
        )
    print()


if __name__ == "__main__":
    sys.exit(main())
