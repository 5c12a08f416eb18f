"""Driving any game generically: the agent loop over any ``State`` (a hand, or a whole game
to its target) and the game registry."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import (
    Action,
    GameState,
    IllegalActionError,
    Phase,
    RegistryError,
    game_class,
    load_game,
    new_hand,
    play,
    register_game,
)
from engine.agents import ActionView
from engine.pinochle4 import Pinochle4
from engine.state import State


def first_legal(observation: dict[str, Any], legal: ActionView) -> Action:
    return next(iter(legal))


def random_agent(seed: int) -> Any:
    rng = random.Random(seed)

    def choose(observation: dict[str, Any], legal: ActionView) -> Action:
        json.dumps(observation)
        if observation["phase"] == Phase.AUCTION.value:
            return legal[0]
        return legal[rng.randrange(len(legal))] if len(legal) < 500 else next(iter(legal))

    return choose


def test_a_hand_is_played_to_the_end_by_four_agents() -> None:
    state: State[Any, Any] = new_hand("auction4", seed=3)
    seats: list[int] = []
    play(state, [first_legal] * 4, on_action=[lambda seat, action: seats.append(seat)])
    assert state.is_terminal()
    assert seats[:3] == [1, 2, 3]


def test_a_whole_game_is_played_by_the_same_loop() -> None:
    whole = GameState("double4", seed=8)
    # A game to its target is a ``State`` like its hands: the loop drives both alike.
    assert isinstance(whole, State)
    game = play(whole, [random_agent(seat) for seat in range(4)])
    assert game is whole and game.is_terminal()
    assert game.winner in (0, 1)


def test_an_agent_choosing_an_illegal_action_is_stopped() -> None:
    def cheat(observation: dict[str, Any], legal: ActionView) -> Action:
        return Action.parse("play AS")

    with pytest.raises(IllegalActionError):
        play(new_hand("single4", seed=1), [cheat] * 4)


def test_the_number_of_agents_must_match_the_seats() -> None:
    with pytest.raises(ValueError):
        play(new_hand("single4", seed=1), [first_legal] * 3)


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_the_registry_finds_the_game_of_each_preset(variant: str) -> None:
    game = load_game(variant)
    assert (game.name, game.players, type(game)) == ("pinochle4", 4, game_class(variant))
    state = game.new_initial_state(seed=5, dealer=2)
    assert state.current_player == 3


def test_an_unknown_variant_is_not_in_the_registry() -> None:
    with pytest.raises(ValueError):
        load_game("skat")


def test_a_variant_cannot_belong_to_two_games() -> None:
    class Impostor(Pinochle4):
        name = "impostor"

    with pytest.raises(RegistryError, match="already belongs to 'pinochle4'"):
        register_game(Impostor)
    assert game_class("single4") is Pinochle4


def test_a_state_survives_pickling_for_worker_processes() -> None:
    import pickle

    state = new_hand("auction4", seed=3)
    state.apply("bid 250")
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history == state.history
    assert restored.observation(1) == state.observation(1)
    restored.play_randomly(random.Random(2))
    assert restored.is_terminal() and not state.is_terminal()
