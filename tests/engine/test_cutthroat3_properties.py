"""Invariants over random ``cutthroat3`` hands (RULES.md 7.2, sections 5 and 10).

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

from engine import SINGLE_DECK, Card, HandOutcome, load_game
from engine.cutthroat import (
    CutthroatPhase,
    CutthroatState,
    cutthroat_from_cards,
    new_cutthroat_hand,
)
from tests.engine.helpers import dealt_parts

SEEDS = st.integers(0, 2**64 - 1)
FEW = settings(max_examples=150, deadline=None, derandomize=True)
MANY = settings(max_examples=600, deadline=None, derandomize=True)
PACK = Counter(SINGLE_DECK.cards())


def every_card(state: CutthroatState) -> Counter[Card]:
    """Hands, the widow while aside, the buried cards and every card played."""
    cards: Counter[Card] = Counter()
    for seat in range(3):
        cards.update(state.hand(seat))
    if state.declarer is None:
        cards.update(dealt_parts(state)[3])
    cards.update(state.buried)
    observation = state.observation(0)
    for trick in [*observation["tricks"], observation["trick"]]:
        cards.update(Card.parse(name) for name in trick["cards"])
    return cards


def random_step(state: CutthroatState, rng: random.Random) -> None:
    legal = state.legal_actions
    action = legal[rng.randrange(len(legal))]
    assert action in legal
    state.apply(action)


@MANY
@given(seed=SEEDS)
def test_7_2_counters_and_last_trick_total_250_buried_included(seed: int) -> None:
    state = new_cutthroat_hand("cutthroat3", seed=seed, dealer=seed % 3)
    state.play_randomly(random.Random(seed))
    result = state.result()
    assert result.outcome in (HandOutcome.MADE, HandOutcome.SET)
    assert sum(team.taken for team in result.teams) == 250
    assert sum(team.tricks for team in result.teams) == 15
    assert sum(team.last_trick for team in result.teams) == 10
    declarer = result.teams[result.declarer or 0]
    points = {0: 10, 1: 10, 2: 10}
    buried = sum(points.get(card.rank, 0) for card in state.buried)
    assert declarer.counters >= buried
    assert state.observation(1)["hand_sizes"] == [0, 0, 0]


@MANY
@given(seed=SEEDS)
def test_5_each_seat_scores_for_itself_as_the_outcome_says(seed: int) -> None:
    state = new_cutthroat_hand("cutthroat3", seed=seed, dealer=seed % 3)
    state.play_randomly(random.Random(seed), throw_in_rate=0.3)
    result = state.result()
    assert result.declarer is not None and result.bid is not None
    for seat, team in enumerate(result.teams):
        assert team.team == seat and team.seats == (seat,)
        if seat == result.declarer:
            if result.outcome is HandOutcome.MADE:
                assert team.score == team.meld + team.taken >= result.bid
            else:
                assert team.score == -result.bid
        elif result.outcome is HandOutcome.THROWN_IN:
            assert team.score == team.meld
        else:
            assert team.score == team.meld + team.taken
    json.dumps(result.to_json())


@FEW
@given(seed=SEEDS, choices=st.integers(0, 2**32))
def test_10_every_card_is_accounted_for_at_every_step_and_the_hand_ends(
    seed: int, choices: int
) -> None:
    rng = random.Random(choices)
    state = new_cutthroat_hand("cutthroat3", seed=seed, dealer=choices % 3)
    for _ in range(200):
        assert every_card(state) == PACK
        if state.is_terminal():
            break
        legal = state.legal_actions
        assert len(legal) == len(list(legal)) >= 1
        random_step(state, rng)
    assert state.is_terminal()


@FEW
@given(seed=SEEDS, choices=st.integers(0, 2**32))
def test_10_observations_do_not_change_when_hidden_cards_are_permuted(
    seed: int, choices: int
) -> None:
    state = new_cutthroat_hand("cutthroat3", seed=seed, dealer=0)
    rng = random.Random(choices)
    seat = choices % 3
    others = [other for other in range(3) if other != seat]
    deal = dealt_parts(state)
    hidden = [card for other in others for card in deal[other]] + list(deal[3])
    rng.shuffle(hidden)
    shuffled = list(deal)
    shuffled[others[0]], shuffled[others[1]] = hidden[:15], hidden[15:30]
    shuffled[3] = hidden[30:]
    twin = cutthroat_from_cards("cutthroat3", shuffled, dealer=0)
    assert twin.observation(seat) == state.observation(seat)
    # Bids do not depend on the cards, and the auction shows only the widow: the other
    # two seats' dealt cards may still be exchanged freely.
    while state.phase is CutthroatPhase.AUCTION:
        random_step(state, rng)
    pool = [card for other in others for card in deal[other]]
    rng.shuffle(pool)
    kept = list(deal)
    kept[others[0]], kept[others[1]] = pool[:15], pool[15:]
    twin = cutthroat_from_cards("cutthroat3", kept, dealer=0)
    for action in state.history:
        twin.apply(action)
    assert twin.observation(seat) == state.observation(seat)


def test_10_the_registry_deals_cutthroat3_for_three_players() -> None:
    game = load_game("cutthroat3")
    assert (game.name, game.players) == ("pinochle3", 3)
    state = game.new_initial_state(seed=5, dealer=1)
    assert state.current_player == 2
    assert state.observation(2)["game"] == "pinochle3"


def test_a_copy_plays_on_independently() -> None:
    state = new_cutthroat_hand("cutthroat3", seed=9, dealer=0)
    for action in ("bid 250", "pass", "pass"):
        state.apply(action)
    copy = state.copy()
    copy.play_randomly(random.Random(1))
    assert copy.is_terminal() and not state.is_terminal()
    assert len(state.hand(1)) == 18
