"""The ``Game`` and ``State`` contract every registered variant keeps (RULES.md section
10), the toy of ``tests/engine/toy_highcard.py`` included: a ``Game`` from ``load_game``
holds the static parameters (rules, players, teams, seatings) and deals hands and whole
games through the one driver; ``history`` is the actions only, in the order applied, and
the seats are found again by replaying it from the deal.

A game registered in ``engine.registry`` is covered here without a test file of its own.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.cards import Card
from engine.errors import RegistryError, RulesError, UnknownVariantError
from engine.game import TargetGame, hand_seed
from engine.interface import Game
from engine.pinochle import PinochleGame
from engine.registry import game_class, load_game, variant_names
from engine.state import State
from tests.engine.toy_highcard import HighCard, registered_toy

REGISTERED = sorted(variant_names())
VARIANTS = [*REGISTERED, *HighCard.variants]
# The pinochle games also start a hand from explicit cards (a stored board's deal).
FROM_CARDS = sorted(v for v in REGISTERED if issubclass(game_class(v), PinochleGame))
FEW = settings(max_examples=150, deadline=None, derandomize=True)


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered_toy():
        yield


def play_randomly(state: Any, seed: int) -> list[tuple[int, Action]]:
    """Play to the end at random; the ``(seat, action)`` of every step, checked as it goes."""
    choices = random.Random(seed)
    steps = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions
        action = legal[choices.randrange(len(legal))]
        before = len(state.history)
        state.apply(action)
        assert len(state.history) == before + 1 and state.history[-1] == action
        steps.append((seat, action))
    return steps


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_holds_the_static_parameters_of_its_variant(variant: str) -> None:
    game = load_game(variant)
    assert isinstance(game, Game) and game.variant == variant and game.rules.name == variant
    assert type(game) is game_class(variant)
    assert game.label == game_class(variant).variants[variant]
    seats = sorted(seat for team in game.teams for seat in team)
    assert seats == list(range(game.players))
    assert all(game.side_of(seat) == side for side, team in enumerate(game.teams) for seat in team)
    for lineup in game.seatings.values():
        assert len(lineup) == game.players and set(lineup) == {0, 1}
    state = game.new_initial_state(seed=4, dealer=1)
    assert isinstance(state, State) and state.num_players == game.players
    assert state.teams == game.teams
    assert state.observation(0) == game.new_initial_state(seed=4, dealer=1).observation(0)
    for action in list(state.legal_actions):
        assert game.parse_action(str(action)) == action
    forfeit = game.forfeit_scores(state, 0)
    assert len(forfeit) == len(game.teams) and all(isinstance(score, int) for score in forfeit)


@pytest.mark.parametrize("variant", VARIANTS)
def test_history_is_the_actions_in_order_and_replaying_it_finds_every_seat(variant: str) -> None:
    game = load_game(variant)
    state = game.new_initial_state(seed=17, dealer=1)
    steps = play_randomly(state, seed=17)
    assert state.history == tuple(action for _, action in steps)
    assert all(isinstance(action, Action) for action in state.history)
    again = game.new_initial_state(seed=17, dealer=1)
    for seat, action in steps:
        assert again.current_player == seat
        again.apply(action)
    assert again.is_terminal() and again.history == state.history
    assert again.result().to_json() == state.result().to_json()
    assert len(state.result().team_scores) == len(game.teams)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_copy_keeps_its_own_history(variant: str) -> None:
    state = load_game(variant).new_initial_state(seed=2)
    state.apply(state.legal_actions[0])
    copy = state.copy()
    play_randomly(copy, seed=2)
    assert len(state.history) == 1 and copy.history[:1] == state.history


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_game_plays_to_its_target_through_the_one_driver(variant: str) -> None:
    game = load_game(variant)
    match = game.new_target_game(seed=6, dealer=1, max_hands=3)
    assert isinstance(match, TargetGame) and isinstance(match, State)
    assert match.rules is game.rules
    play_randomly(match, seed=6)
    result = match.result()
    assert 1 <= len(result.hands) <= 3 and len(match.replays) == len(result.hands)
    assert len(result.scores) == len(game.teams)
    for side, total in enumerate(result.scores):
        assert total == sum(hand.team_scores[side] for hand in result.hands)
    assert result.winner is None or result.scores[result.winner] == max(result.scores)
    json.dumps(result.to_json())
    # Each hand of the game is the hand its seed deals, played with the same actions.
    moves = iter(match.history)
    for number, hand in enumerate(result.hands):
        dealer = (1 + number) % game.players
        alone = game.new_initial_state(seed=hand_seed(6, number), dealer=dealer)
        while not alone.is_terminal():
            alone.apply(next(moves))
        assert alone.result().to_json() == hand.to_json()
    assert next(moves, None) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_state_offers_the_same_members_under_the_same_names(variant: str) -> None:
    game = load_game(variant)
    states = [game.new_initial_state(seed=3, dealer=1), game.new_target_game(seed=3)]
    for state in states:
        # One name for the actions, the sides only as ``teams`` (or ``Game.side_of``).
        for other_name in (
            "actions",
            "team_of",
            "seated_actions",
            "initial_cards",
            "dealt",
            "deal",
        ):
            assert not hasattr(state, other_name), other_name
        assert state.teams == game.teams
        assert state.seed == 3
    # The cards dealt are the game's to tell, the same whatever the hand's history.
    hand = states[0]
    dealt = game.initial_deal(hand)
    play_randomly(hand, seed=3)
    assert game.initial_deal(hand) == dealt


@pytest.mark.parametrize("variant", REGISTERED)
def test_the_game_writes_replays_it_reads_back(variant: str) -> None:
    game = load_game(variant)
    state = game.new_initial_state(seed=9)
    play_randomly(state, seed=9)
    replay = game.read_replay(json.loads(json.dumps(game.write_replay(state).to_json())))
    assert replay.verify() is None
    assert list(replay.actions) == [str(action) for action in state.history]


@pytest.mark.parametrize("variant", FROM_CARDS)
@FEW
@given(seed=st.integers(0, 2**64 - 1), choices=st.integers(0, 2**32))
def test_a_hand_replays_exactly_from_its_seed_or_its_cards(
    variant: str, seed: int, choices: int
) -> None:
    game = load_game(variant)
    assert isinstance(game, PinochleGame)
    state: Any = game.new_initial_state(seed=seed, dealer=choices % game.players)
    play_randomly(state, seed=choices)
    replay = game.read_replay(json.loads(json.dumps(game.write_replay(state).to_json())))
    assert replay.verify() is None
    assert replay.simulate().result() == state.result()
    # The deal as a stored board lists it: the hands by seat, then any undealt cards.
    dealt = game.initial_deal(state)
    parts = [*dealt.hands, *(cards for _, cards in dealt.undealt)]
    again = game.state_from_deal(
        [[Card.parse(card) for card in part] for part in parts], dealer=state.dealer
    )
    assert again.seed is None and state.seed == seed
    for action in state.history:
        again.apply(str(action))
    explicit = game.read_replay(json.loads(game.write_replay(again).dumps()))
    assert explicit.deal is not None and explicit.verify() is None
    assert again.observation(1) == state.observation(1)


def test_loading_a_game_refuses_what_is_wrong_by_name() -> None:
    with pytest.raises(UnknownVariantError):
        load_game("single5")
    with pytest.raises(RulesError, match="'single4', not 'double4'"):
        load_game("double4", rules=load_game("single4").rules)
    with pytest.raises(RulesError, match="either rules or overrides"):
        load_game("single4", rules=load_game("single4").rules, overrides={"target": 100})
    with pytest.raises(RulesError, match="target"):
        load_game("single4", overrides={"target": "high"})
    assert load_game("single4", overrides={"target": 300}).rules.target == 300

    # A game registered without a target game deals hands but plays no game to a target.
    class HandsOnly(HighCard):
        target_game = None

    game: Game[Any, Any] = HandsOnly("highcard")
    assert not game.new_initial_state(seed=1).is_terminal()
    with pytest.raises(RegistryError, match="one hand at a time"):
        game.new_target_game(seed=1)
