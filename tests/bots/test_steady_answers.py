"""At a human's table a bot's answer costs the same work whether its card was forced or not.

A bot that answers at once when it holds a single legal card tells the human, by the time
it takes, that it is void in the suit led (RULES.md 4: a player holding the led suit must
play it): a hidden card leaks (RULES.md 10: a seat sees its own hand only). So the strong
bot at a human's table searches its whole work budget on every card, forced or not. Work
is counted, not timed: the deals it sampled and the cards its playouts played.
"""

from __future__ import annotations

import json
import random

import pytest

from bots.protocol import TimeControl
from bots.reference.strong import StrongBot
from tables import referee

CLOCK = TimeControl(decision_ms=600_000, bank_ms=36_000_000, startup_ms=10_000)
"""A clock whose safety net (three quarters of it) never stops a search however busy the
machine: the work is then the budget's alone (the strong bot's cap), never the machine's."""


def strong_decisions(
    variant: str, seed: int, *, steady: bool = True
) -> list[tuple[int, int, int, int, int]]:
    """Every card decision of three strong bots at a table with a random human at seat 0:
    (legal cards, cards left in the hands, budget, deals sampled, cards played out).
    ``steady`` False: the bots as they play in the arena."""
    hand = referee.rebuild(variant, rules=None, seed=seed, dealer=0, actions=[])
    rng = random.Random(seed)
    decisions = []
    while (seat := hand.current) is not None:
        legal = [str(action) for action in hand.state.legal_actions]
        if seat == 0:
            hand.apply(rng.choice(legal))
            continue
        bot = referee.reference_bot(hand, seat, name="strong", variant=variant, clock=CLOCK)
        assert isinstance(bot, StrongBot) and bot.steady
        bot.steady = steady
        request, legal = referee.act_request(hand, seat, clock=CLOCK)
        request = json.loads(json.dumps(request))
        reply = bot.handle(request)
        assert reply is not None
        observation = request["observation"]
        if all(text.startswith("play ") for text in legal):
            left = sum(observation["hand_sizes"])
            budget = bot.work_budget(observation)
            decisions.append((len(legal), left, budget, bot.last_deals, bot.last_card_plays))
        hand.apply(str(reply["action"]))
    return decisions


@pytest.mark.parametrize("variant", ["single4", "auction4"])
def test_a_forced_card_costs_a_strong_bot_the_same_work_as_a_free_choice(variant: str) -> None:
    decisions = [d for seed in (1, 2, 3) for d in strong_decisions(variant, seed)]
    forced = [d for d in decisions if d[0] == 1]
    free = [d for d in decisions if d[0] > 1]
    assert forced and free, "the hands hold both forced and free cards"
    overhead = StrongBot.playout_overhead
    for _, left, budget, deals, plays in decisions:
        # The whole budget in whole playouts, one deal sampled per playout, whatever the
        # number of legal cards: the work depends on the cards left only, which is public.
        assert budget > 0
        playouts = budget // (left + overhead)
        assert (deals, plays) == (playouts, playouts * left)
    by_left: dict[int, set[tuple[int, int]]] = {}
    for _, left, _, deals, plays in decisions:
        by_left.setdefault(left, set()).add((deals, plays))
    assert all(len(work) == 1 for work in by_left.values())


def test_in_an_arena_match_a_forced_card_is_answered_without_a_search() -> None:
    # Only a human's table asks for steady answers: in a match a forced card costs nothing,
    # which is the difference a human could otherwise time.
    decisions = strong_decisions("single4", 1, steady=False)
    assert all(deals == 0 for legal, _, _, deals, _ in decisions if legal == 1)
    assert all(deals > 0 for legal, _, _, deals, _ in decisions if legal > 1)
