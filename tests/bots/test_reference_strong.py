"""The strong reference bot's beliefs and samples are consistent with what a seat knows.

Positions come from random legal play of random deals; each seat's beliefs are checked
against the real hands (everything it infers must be true), and its sampled deals against
the facts any seat sees directly (the cards in its own hand and on the table, the suits a
seat failed to follow, the cards shown in meld and not yet played).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.reference.greedy import GreedyBot
from bots.reference.strong import Beliefs, StrongBot
from engine.actions import Action
from engine.cards import DECKS, NUM_FACES, Card
from engine.hand import HandState, Phase, new_hand
from engine.rules import rules_for


def counts(cards: list[str] | tuple[Card, ...]) -> list[int]:
    vector = [0] * NUM_FACES
    for card in cards:
        vector[Card.parse(card) if isinstance(card, str) else card] += 1
    return vector


def position(variant: str, seed: int, plays: int) -> HandState | None:
    """A deal played at random up to ``plays`` cards into the tricks (None if it ends first)."""
    rng = random.Random(seed)
    state = new_hand(variant, seed=seed, dealer=seed % 4)
    while not state.is_terminal():
        if state.phase is Phase.TRICKS and plays == 0:
            return state
        if state.phase is Phase.TRICKS:
            plays -= 1
        if state.phase is Phase.THROW_IN:
            action = Action.parse("play-on")
        else:
            legal = state.legal_actions
            action = legal[int(rng.random() * len(legal))]
        state.apply(action)
    return None


def plays_by(observation: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    """(card, led suit) of every card ``seat`` played, the current trick included."""
    tricks = list(observation["tricks"])
    if observation["trick"]["cards"]:
        tricks.append(observation["trick"])
    return [
        (card, trick["cards"][0][1])
        for trick in tricks
        for index, card in enumerate(trick["cards"])
        if (trick["leader"] + index) % 4 == seat
    ]


@settings(max_examples=120, deadline=None)
@given(
    variant=st.sampled_from(["single4", "auction4", "double4"]),
    seed=st.integers(0, 2**32),
    plays=st.integers(0, 10_000),
)
def test_beliefs_hold_for_the_real_hands_and_samples_respect_what_is_seen(
    variant: str, seed: int, plays: int
) -> None:
    rules = rules_for(variant)
    state = position(variant, seed, plays % (4 * rules.hand_size))
    if state is None:
        return
    copies = DECKS[rules.deck].copies
    for seat in range(4):
        observation = state.observation(seat)
        beliefs = Beliefs(observation, rules)
        assert beliefs.consistent()
        real = [counts(state.hand(other)) for other in range(4)]
        for other in beliefs.others:
            assert all(real[other][face] >= beliefs.held[other][face] for face in range(24))
            assert not any(
                real[other][face] and beliefs.excluded[other] >> face & 1 for face in range(24)
            )
        played = counts(
            [card for trick in observation["tricks"] for card in trick["cards"]]
            + list(observation["trick"]["cards"])
        )
        rng = random.Random(seed + seat)
        for _ in range(5):
            hands = beliefs.sample(rng)
            assert hands[seat] == counts(observation["hand"])
            assert [sum(hand) for hand in hands] == observation["hand_sizes"]
            for face in range(24):
                assert sum(hand[face] for hand in hands) + played[face] == copies[face]
            for other in beliefs.others:
                plays = plays_by(observation, other)
                # A suit it failed to follow: it holds none.
                voids = {led for card, led in plays if card[1] != led}
                assert not any(
                    hands[other][face] and "SHDC"[face // 6] in voids for face in range(24)
                )
                # Every meld it showed is still in its hand, but for the cards played since.
                since = counts([card for card, _ in plays])
                for entry in observation["melds"] or []:
                    if entry["seat"] == other:
                        for item in entry["items"]:
                            needed = counts(item["cards"])
                            assert all(hands[other][f] + since[f] >= needed[f] for f in range(24))
                assert all(hands[other][face] >= beliefs.held[other][face] for face in range(24))
                assert not any(
                    hands[other][face] and beliefs.excluded[other] >> face & 1 for face in range(24)
                )


def act(bot: Any, state: HandState, time_left_ms: int) -> str:
    seat = state.current_player
    assert seat is not None
    reply = bot.handle(
        {
            "type": "act",
            "id": 1,
            "board": 1,
            "observation": state.observation(seat),
            "legal": [str(action) for action in state.legal_actions],
            "time_left_ms": time_left_ms,
        }
    )
    return str(reply["action"])


def seated(bot: Any, state: HandState, *, boards: int) -> Any:
    seat = state.current_player
    bot.handle(
        {
            "type": "hello",
            "id": 0,
            "protocol": 1,
            "variant": state.variant,
            "seat": seat,
            "boards": boards,
            "time": {"decision_ms": 1000, "bank_ms": 60_000, "startup_ms": 5000},
        }
    )
    bot.handle({"type": "hand_start", "board": 1, "dealer": state.dealer, "seat": seat})
    return bot


def a_choice_of_cards() -> HandState:
    """An auction4 position in the tricks where the seat to move has several legal cards."""
    for seed in range(100):
        state = position("auction4", seed, 5)
        if state is not None and len(state.legal_actions) > 2:
            return state
    raise AssertionError("no position with a choice")


def test_it_spreads_the_bank_over_the_decisions_left_at_the_table() -> None:
    state = a_choice_of_cards()
    bot = seated(StrongBot(), state, boards=100)
    act(bot, state, time_left_ms=60_000)
    observation = state.observation(bot.seat)
    # 60 s for about 100 boards of 15 decisions: half of the 40 ms share, under the cap.
    assert 15 <= bot.budget_ms(observation) <= 25
    bot.time_left_ms = 600_000
    assert bot.budget_ms(observation) == StrongBot.cap_ms  # the 50 ms cap
    bot.hello["time"]["decision_ms"] = 40
    assert bot.budget_ms(observation) == 10  # a quarter of the decision clock


def test_it_plays_the_greedy_card_without_searching_when_the_bank_is_nearly_gone() -> None:
    state = a_choice_of_cards()
    strong = act(seated(StrongBot(), state, boards=100), state, time_left_ms=200)
    greedy = act(seated(GreedyBot(), state, boards=100), state, time_left_ms=200)
    assert strong == greedy
