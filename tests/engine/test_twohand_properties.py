"""Invariants over random ``twohand`` hands (RULES.md 7.1 and section 10).

Every random choice is seeded, so these tests are the same on every run. Replaying a
hand from its seed or its cards is checked for every variant in
``tests/engine/test_game_contract.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import SINGLE_DECK, Card, load_game
from engine.twohand import TwoHandPhase, TwoHandState, new_twohand_hand, twohand_from_cards
from tests.engine.helpers import dealt_parts

SEEDS = st.integers(0, 2**64 - 1)
FEW = settings(max_examples=120, deadline=None, derandomize=True)
MANY = settings(max_examples=500, deadline=None, derandomize=True)
PACK = Counter(SINGLE_DECK.cards())


def every_card(state: TwoHandState) -> Counter[Card]:
    """Both hands (melded cards included), the stock and every card played."""
    cards: Counter[Card] = Counter(state.stock)
    for seat in (0, 1):
        cards.update(state.hand(seat))
    observation = state.observation(0)
    for trick in [*observation["tricks"], observation["trick"]]:
        cards.update(Card.parse(name) for name in trick["cards"])
    return cards


def random_step(state: TwoHandState, rng: random.Random) -> None:
    legal = state.legal_actions
    action = legal[rng.randrange(len(legal))]
    assert action in legal
    state.apply(action)


@MANY
@given(seed=SEEDS)
def test_7_1_counters_and_last_trick_total_250_and_scores_add_up(seed: int) -> None:
    state = new_twohand_hand("twohand", seed=seed, dealer=seed % 2)
    state.play_randomly(random.Random(seed))
    result = state.result()
    assert sum(team.taken for team in result.teams) == 250
    assert sum(team.tricks for team in result.teams) == 24
    assert sum(team.last_trick for team in result.teams) == 10
    for seat, team in enumerate(result.teams):
        assert team.score == team.meld + team.taken
        assert team.meld == sum(item.value for _, item in team.meld_items)
        assert team.meld == state.observation(seat)["meld_scores"][seat]
    json.dumps(result.to_json())


@FEW
@given(seed=SEEDS, choices=st.integers(0, 2**32))
def test_10_every_card_is_accounted_for_at_every_step_and_the_hand_ends(
    seed: int, choices: int
) -> None:
    rng = random.Random(choices)
    state = new_twohand_hand("twohand", seed=seed, dealer=choices % 2)
    for _ in range(100):
        assert every_card(state) == PACK
        if state.is_terminal():
            break
        legal = state.legal_actions
        assert len(legal) == len(list(legal)) >= 1
        observation = state.observation(state.current_player or 0)
        if state.phase is TwoHandPhase.TRICKS and not observation["trick"]["cards"]:
            assert observation["hand_sizes"] == [12, 12]
        for seat in (0, 1):
            assert Counter(state.table(seat)) <= Counter(state.hand(seat))
        random_step(state, rng)
    assert state.is_terminal()


@FEW
@given(seed=SEEDS, choices=st.integers(0, 2**32))
def test_7_1_the_follower_plays_freely_from_the_stock_and_strictly_after_it(
    seed: int, choices: int
) -> None:
    rng = random.Random(choices)
    state = new_twohand_hand("twohand", seed=seed, dealer=choices % 2)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        if state.phase is TwoHandPhase.TRICKS:
            assert len(state.legal_actions) == len(set(state.hand(seat)))
        if state.phase is TwoHandPhase.PLAY_OUT:
            assert state.stock_size == 0 and state.table(seat) == ()
        random_step(state, rng)


@FEW
@given(seed=SEEDS, choices=st.integers(0, 2**32))
def test_10_observations_do_not_change_when_hidden_cards_are_permuted(
    seed: int, choices: int
) -> None:
    dealer = choices % 2
    state = new_twohand_hand("twohand", seed=seed, dealer=dealer)
    seat = (choices >> 1) % 2
    deal = dealt_parts(state)
    # The other hand and the stock are hidden, except the turned-up card.
    hidden = [*deal[1 - seat], *deal[2][:-1]]
    random.Random(choices).shuffle(hidden)
    shuffled = list(deal)
    shuffled[1 - seat] = hidden[:12]
    shuffled[2] = (*hidden[12:], deal[2][-1])
    twin = twohand_from_cards("twohand", shuffled, dealer=dealer)
    assert twin.observation(seat) == state.observation(seat)


def test_10_the_registry_deals_twohand_for_two_players() -> None:
    game = load_game("twohand")
    assert (game.name, game.players) == ("pinochle2", 2)
    state = game.new_initial_state(seed=5, dealer=1)
    assert state.current_player == 0
    assert state.observation(0)["game"] == "pinochle2"


def test_a_copy_plays_on_independently() -> None:
    state = new_twohand_hand("twohand", seed=9, dealer=0)
    rng = random.Random(3)
    for _ in range(9):
        random_step(state, rng)
    before = state.observation(0)
    copy = state.copy()
    copy.play_randomly(random.Random(1))
    assert copy.is_terminal() and not state.is_terminal()
    assert state.observation(0) == before
