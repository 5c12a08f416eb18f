"""The strong reference bot's beliefs and samples are consistent with what a seat knows.

Positions come from random legal play of random deals; each seat's beliefs are checked
against the real hands (everything it infers must be true), and its sampled deals against
the facts any seat sees directly (the cards in its own hand and on the table, the suits a
seat failed to follow, the cards shown in meld and not yet played).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.play import run
from bots.protocol import TimeControl
from bots.reference import REFERENCE_BOTS
from bots.reference.greedy import GreedyBot
from bots.reference.strong import Beliefs, StrongBot
from bots.sdk import Bot, bot_from_module, load_module
from engine import kernel
from engine.actions import Action
from engine.cards import DECKS, NUM_FACES, Card
from engine.hand import HandState, Phase, new_hand
from engine.registry import load_game
from engine.rules import pinochle_rules


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
    rules = pinochle_rules(variant)
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


def act(bot: Any, state: HandState, time_left_ms: int = 60_000) -> str:
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


class PythonStrongBot(StrongBot):
    """The strong bot searching in CPython, as it does where the kernel is not built."""

    kernel_search = False


FULL_BUDGET = StrongBot.kernel_max_card_plays if kernel.KERNEL else StrongBot.max_card_plays
"""The strong bot's budget at the arena's clock: the kernel's cap where it is built."""

ARENA_TIME = {"decision_ms": 1000, "bank_ms": 60_000, "startup_ms": 10_000}
GENEROUS_TIME = {"decision_ms": 60_000, "bank_ms": 600_000, "startup_ms": 60_000}
"""The same full budget as the arena's clock, with the safety stop out of reach however
busy the machine (45 s a decision): the tests that compare decisions use it."""


def seated(bot: Any, state: HandState, *, boards: int, time: dict[str, int] | None = None) -> Any:
    seat = state.current_player
    hello: dict[str, Any] = {
        "type": "hello",
        "id": 0,
        "protocol": 1,
        "variant": state.variant,
        "seat": seat,
        "boards": boards,
    }
    if time is not None:
        hello["time"] = time
    bot.handle(hello)
    bot.handle({"type": "hand_start", "board": 1, "dealer": state.dealer, "seat": seat})
    return bot


def choices_of_cards() -> Iterator[HandState]:
    """auction4 positions in the tricks where the seat to move has several legal cards."""
    for seed in range(200):
        state = position("auction4", seed, 5 + seed % 30)
        if state is not None and len(state.legal_actions) > 2:
            yield state


def a_choice_of_cards() -> HandState:
    return next(choices_of_cards())


@pytest.mark.parametrize(
    ("clock", "card_plays"),
    [
        (ARENA_TIME, 12_000),  # a tenth of 1 s is 40,000 card plays: capped
        ({"decision_ms": 40, "bank_ms": 60_000}, 1_600),  # 4 ms at 400 a millisecond
        ({"decision_ms": 1000, "bank_ms": 1_500}, 4_000),  # 1.5 s over 15 decisions, a tenth
        ({"decision_ms": 20, "bank_ms": 60_000}, 0),  # 2 ms: under 3 ms, the greedy card
        (None, 12_000),  # no clock announced
    ],
)
def test_its_work_budget_follows_the_announced_clock_by_the_documented_formula(
    clock: dict[str, int] | None, card_plays: int
) -> None:
    """The pure-Python search's calibration (the kernel's: test_strong_kernel_search)."""
    state = a_choice_of_cards()
    bot = seated(PythonStrongBot(), state, boards=10, time=clock)
    assert bot.work_budget(state.observation(state.current_player)) == card_plays


def test_its_budget_depends_neither_on_the_boards_at_the_table_nor_on_the_bank_left() -> None:
    state = a_choice_of_cards()
    observation = state.observation(state.current_player)
    short = seated(StrongBot(), state, boards=4, time=ARENA_TIME)
    long = seated(StrongBot(), state, boards=2378, time=ARENA_TIME)
    act(short, state, time_left_ms=60_000)
    act(long, state, time_left_ms=3_000)
    assert short.work_budget(observation) == long.work_budget(observation) == FULL_BUDGET


def test_a_long_table_does_not_degrade_it_to_the_greedy_card() -> None:
    """Late in a table of 2,378 boards the bot still searches, and plays as on board 1."""
    for state in choices_of_cards():
        greedy = act(seated(GreedyBot(), state, boards=4, time=GENEROUS_TIME), state)
        searched = act(seated(StrongBot(), state, boards=4, time=GENEROUS_TIME), state)
        if searched != greedy:
            break
    else:
        raise AssertionError("no position where the search and the greedy card differ")
    late = seated(StrongBot(), state, boards=2378, time=GENEROUS_TIME)
    assert act(late, state, time_left_ms=100_000) == searched
    assert late.last_deals >= StrongBot.min_deals
    assert late.safety_stops == 0


def test_it_plays_the_greedy_card_without_searching_when_the_clock_is_too_tight() -> None:
    state = a_choice_of_cards()
    # A tenth of 1 ms: 1,000 card plays in the kernel, 40 in CPython, both under 1,200.
    tight = {"decision_ms": 1, "bank_ms": 60_000, "startup_ms": 1000}
    strong = seated(StrongBot(), state, boards=100, time=tight)
    greedy = seated(GreedyBot(), state, boards=100, time=tight)
    assert act(strong, state) == act(greedy, state)
    assert strong.last_deals == 0


def test_the_safety_clock_stops_a_search_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    state = a_choice_of_cards()
    bot = seated(StrongBot(), state, boards=4, time=GENEROUS_TIME)
    # An already spent bank: the safety clock has passed before the first deal is done.
    act(bot, state, time_left_ms=0)
    assert bot.safety_stops == 1
    # The first kernel call (or the first deal, in CPython) runs before the clock is read.
    first = StrongBot.search_chunk if bot.in_kernel(bot._rules(state.observation(0))) else 1
    assert bot.last_deals == first
    err = capsys.readouterr().err
    assert f"the safety clock stopped a search at board 1 after {first} of" in err


def test_the_same_seed_and_budget_give_the_same_play_on_a_busy_machine() -> None:
    """Two runs of the same match, the second with every core kept busy, play alike.

    The clock is generous (a minute a decision, as for a board's par) so that the safety
    clock is far out of reach however loaded the machine: the budget alone decides.
    """
    game = load_game("single4")
    rules = game.rules_for(None)
    strong = load_module(REFERENCE_BOTS["strong"])
    greedy = load_module(REFERENCE_BOTS["greedy"])

    def play_once() -> tuple[list[list[str]], list[Any]]:
        made: list[Any] = []

        def make_strong() -> Bot:
            bot = bot_from_module(strong)
            made.append(bot)
            assert bot is not None
            return bot

        def make_greedy() -> Bot:
            bot = bot_from_module(greedy)
            assert bot is not None
            return bot

        actions: list[list[str]] = []
        run(
            make_strong,
            make_greedy,
            game=game,
            rules=rules,
            boards=1,
            seed=31,
            clock=TimeControl(decision_ms=60_000, bank_ms=600_000, startup_ms=60_000),
            on_board=lambda table, record: actions.append(record.actions),
        )
        return actions, made

    quiet, quiet_bots = play_once()
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        busy, busy_bots = play_once()
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert busy == quiet
    assert sum(bot.safety_stops for bot in quiet_bots + busy_bots) == 0


def test_a_seed_salt_draws_other_deals_and_no_salt_keeps_the_documented_seeds() -> None:
    """Replays stay as they were with no salt; a salted run searches other sampled deals."""
    state = a_choice_of_cards()
    observation = state.observation(state.current_player)
    plain = seated(StrongBot(), state, boards=4, time=GENEROUS_TIME)
    salted = seated(StrongBot(), state, boards=4, time=GENEROUS_TIME)
    salted.seed_salt = "second run/"
    played = sum(len(entry["cards"]) for entry in observation["tricks"])
    played += len(observation["trick"]["cards"])
    seed = f"{observation['seat']}/{plain.board}/{observation['phase']}/{played}/"
    expected = random.Random(seed + " ".join(observation["hand"])).random()
    assert plain.rng(observation).random() == expected
    assert salted.rng(observation).random() != expected
