"""The strong reference bot's searches in the C kernel: the same search as its Python loop,
legal and repeatable auction decisions, work within the budget the clock gives.

Every decision is checked by the work it counts (deals, card plays), never by time.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bots.reference.greedy import GreedyBot
from bots.reference.strong import StrongBot
from engine import kernel
from engine.cards import Card
from engine.hand import HandState, Phase, new_hand
from engine.rules import pinochle_rules
from tests.bots.test_reference_strong import (
    ARENA_TIME,
    GENEROUS_TIME,
    act,
    position,
    seated,
)

needs_kernel = pytest.mark.skipif(kernel.KERNEL is None, reason="the C kernel is not built")


class AuctionBot(StrongBot):
    """The strong bot with its auction search on."""

    auction_search = True


class LoopBot(StrongBot):
    """The same bot searching in its Python loop, with the kernel's deal cap."""

    kernel_search = False
    max_deals = StrongBot.kernel_max_deals


def card_positions(variant: str, count: int) -> Iterator[HandState]:
    """Positions in the tricks where the seat to move has several legal cards."""
    found = 0
    for seed in range(400):
        state = position(variant, seed, seed % 40)
        if state is not None and len(state.legal_actions) > 1:
            yield state
            found += 1
            if found == count:
                return


def auction_positions(variant: str, count: int) -> Iterator[HandState]:
    """Auction and trump decisions of random deals, reached by random legal calls."""
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = new_hand(variant, seed=seed, dealer=seed % 4)
        calls = seed % 5
        while state.phase is Phase.AUCTION and calls:
            legal = state.legal_actions
            state.apply(legal[int(rng.random() * len(legal))])
            calls -= 1
        if state.phase in (Phase.AUCTION, Phase.TRUMP) and len(state.legal_actions) > 1:
            yield state
            found += 1
            if found == count:
                return


def searched_means(bot: StrongBot, state: HandState, *, in_kernel: bool) -> list[float]:
    """``evaluate``'s means for the legal cards, as ``play`` asks them."""
    seat = state.current_player
    assert seat is not None
    observation = state.observation(seat)
    faces = [int(Card.parse(str(action).split()[1])) for action in state.legal_actions]
    playout = bot.playout(observation)
    trick = [int(Card.parse(name)) for name in observation["trick"]["cards"]]
    leader = observation["trick"]["leader"]
    leader = seat if leader is None else int(leader)
    taken = [int(points) for points in observation["counters_taken"]]

    def play_card(hands: list[list[int]], masks: list[int], face: int | None, seed: int) -> int:
        assert face is not None
        return playout.finish_seeded(hands, masks, trick, leader, taken, seed, face)

    start = (playout, trick, leader, taken) if in_kernel else None
    return bot.evaluate(observation, faces, play_card, 30_000, start)


@needs_kernel
@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_the_kernel_search_is_the_python_loop_deal_for_deal(variant: str) -> None:
    """One kernel call a decision samples the same deals and plays the same playouts as
    the bot's own loop over them: the same mean for every card."""
    for state in card_positions(variant, 6):
        fast = seated(StrongBot(), state, boards=4, time=GENEROUS_TIME)
        loop = seated(LoopBot(), state, boards=4, time=GENEROUS_TIME)
        kernel_means = searched_means(fast, state, in_kernel=True)
        assert fast.last_deals > 0
        assert kernel_means == searched_means(loop, state, in_kernel=False)
        assert (fast.last_deals, fast.last_card_plays) == (loop.last_deals, loop.last_card_plays)


@needs_kernel
@pytest.mark.parametrize(
    ("clock", "card_plays"),
    [
        (ARENA_TIME, 300_000),  # a tenth of 1 s is 1,000,000 card plays: capped
        ({"decision_ms": 40, "bank_ms": 60_000}, 40_000),  # 4 ms at 10,000 a millisecond
        ({"decision_ms": 1000, "bank_ms": 1_500}, 100_000),  # 1.5 s over 15 decisions
        ({"decision_ms": 1, "bank_ms": 60_000}, 0),  # 0.1 ms: 1,000, under 1,200
        (None, 300_000),  # no clock announced
    ],
)
def test_in_the_kernel_its_budget_follows_the_clock_at_the_kernels_speed(
    clock: dict[str, int] | None, card_plays: int
) -> None:
    state = next(card_positions("auction4", 1))
    bot = seated(StrongBot(), state, boards=10, time=clock)
    assert bot.work_budget(state.observation(state.current_player)) == card_plays


@needs_kernel
@pytest.mark.parametrize("variant", ["single4", "auction4"])
def test_a_card_search_stays_within_its_budget(variant: str) -> None:
    for state in card_positions(variant, 4):
        bot = seated(StrongBot(), state, boards=4, time=GENEROUS_TIME)
        action = act(bot, state)
        assert action in [str(legal) for legal in state.legal_actions]
        assert 0 < bot.last_card_plays <= bot.work_budget(state.observation(state.current_player))
        assert bot.last_deals <= StrongBot.kernel_max_deals


@needs_kernel
@pytest.mark.parametrize("variant", ["single4", "auction4"])
def test_auction_decisions_are_legal_repeatable_and_within_their_budget(variant: str) -> None:
    searched = 0
    for state in auction_positions(variant, 8):
        seat = state.current_player
        assert seat is not None
        first = seated(AuctionBot(), state, boards=4, time=GENEROUS_TIME)
        again = seated(AuctionBot(), state, boards=4, time=GENEROUS_TIME)
        action = act(first, state)
        assert action in [str(legal) for legal in state.legal_actions]
        assert act(again, state) == action
        assert first.last_card_plays <= first.work_budget(state.observation(seat))
        searched += first.last_deals > 0
        assert first.safety_stops == 0
    assert searched  # the simulations ran


def test_it_bids_and_names_the_trump_as_the_greedy_bot_and_so_does_the_baseline() -> None:
    """The auction search is off by default; the baseline a benchmark keeps (no kernel
    search) has the CPython budget."""

    class Before(StrongBot):
        kernel_search = False

    for state in auction_positions("auction4", 8):
        greedy = act(seated(GreedyBot(), state, boards=4, time=ARENA_TIME), state)
        for bot in (Before(), StrongBot()):
            assert act(seated(bot, state, boards=4, time=ARENA_TIME), state) == greedy
            assert bot.last_deals == 0
        before = seated(Before(), state, boards=4, time=ARENA_TIME)
        assert before.work_budget(state.observation(state.current_player)) == 12_000


@needs_kernel
def test_simulated_hands_deal_the_same_cards_whatever_the_declarer() -> None:
    """The same seed: the same deals, so that bidding and passing compare on the same cards;
    every counter is taken by one side or the other."""
    rules = pinochle_rules("auction4")
    state = new_hand("auction4", seed=3, dealer=0)
    hand = [0] * 24
    for card in state.hand(1):
        hand[int(card)] += 1
    common: dict[str, Any] = {
        "hand": hand,
        "seat": 1,
        "deals": 40,
        "seed": 77,
        "partner_meld": 100.0,
        "total": rules.total_in_tricks,
    }
    mine = kernel.declare(rules, declarer=1, trump=2, **common)
    assert mine == kernel.declare(rules, declarer=1, trump=2, **common)
    assert all(declarer == 1 for _, _, declarer, _ in mine)
    assert all(ours + theirs >= rules.total_in_tricks for ours, theirs, _, _ in mine)
    theirs = kernel.declare(rules, declarer=-1, trump=-1, **common)
    assert all(declarer in (0, 2) for _, _, declarer, _ in theirs)
