"""Adding a game is one module: a toy game (``tests/engine/toy_highcard.py``), registered
here, is found by name, dealt, driven through the public interface, played to its target
and refereed by ``bots.table.Table`` with SDK bots, with no edit anywhere else."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bots.local import LocalAgent
from bots.sdk import FunctionBot
from bots.table import Table
from engine.agents import play
from engine.errors import UnknownVariantError
from engine.registry import (
    game_class,
    load_game,
    register_game,
    unregister_game,
    variant_choices,
    variant_names,
)
from engine.state import State
from tests.engine.toy_highcard import HighCard, ToyGame, ToyState, registered_toy


@pytest.fixture
def toy() -> Iterator[type[HighCard]]:
    with registered_toy() as game:
        yield game


def test_a_registered_toy_variant_is_found_by_name_with_its_parts(toy: type[HighCard]) -> None:
    assert game_class("highcard") is toy
    assert "highcard" in variant_names() and ("highcard", "High card") in variant_choices()
    game = load_game("highcard")
    assert isinstance(game, HighCard) and game.label == "High card"
    assert game.seatings == {"A": (0, 1), "B": (1, 0)}
    assert (game.players, game.partnership, game.teams) == (2, False, ((0,), (1,)))
    # A fault before any trick: the leaver may still win none, the other every trick.
    assert game.forfeit_scores(game.new_initial_state(seed=1), 0) == (0, 3)


def test_the_toy_plays_to_its_end_through_the_public_interface(toy: type[HighCard]) -> None:
    state = load_game("highcard").new_initial_state(seed=11, dealer=0)
    assert isinstance(state, ToyState)
    rng = random.Random(3)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions
        before = state.copy()
        state.apply(legal[rng.randrange(len(legal))])
        assert len(before.history) + 1 == len(state.history)
    assert sum(state.result().team_scores) == 3
    assert state.current_player is None and len(state.history) == 6


def test_the_referee_plays_a_board_of_the_toy_with_sdk_bots(toy: type[HighCard]) -> None:
    game = load_game("highcard")
    agents = [LocalAgent(FunctionBot(lambda observation, legal: legal[-1], "last")) for _ in "xy"]
    table = Table(agents, game=game)
    record = table.play_board(game.new_initial_state(seed=5, dealer=1), board=1, seed=5)
    assert record.fault is None and record.result is not None
    assert len(record.moves) == 6 and sum(record.result.team_scores) == 3
    # The same board replayed through ``engine.agents.play`` with the same choices.
    again = play(
        game.new_initial_state(seed=5, dealer=1),
        [lambda observation, legal: list(legal)[-1]] * 2,
    )
    assert isinstance(again, ToyState)
    assert [str(action) for action in again.history] == [move.action for move in record.moves]


def test_after_unregistering_the_toy_is_unknown_again(toy: type[HighCard]) -> None:
    unregister_game("toy")
    assert "highcard" not in variant_names()
    with pytest.raises(UnknownVariantError):
        game_class("highcard")
    with pytest.raises(UnknownVariantError):
        load_game("highcard")
    register_game(toy)


def test_the_toy_is_a_game_like_the_others_and_plays_to_its_target(toy: type[HighCard]) -> None:
    game = load_game("highcard")
    assert isinstance(game.new_initial_state(seed=2, dealer=1), ToyState)
    match = game.new_target_game(seed=9)
    assert isinstance(match, ToyGame) and isinstance(match, State)
    choices = random.Random(9)
    while not match.is_terminal():
        legal = match.legal_actions
        match.apply(legal[choices.randrange(len(legal))])
    result = match.result()
    assert result.winner is not None and max(result.scores) >= 5
    assert result.scores[result.winner] > result.scores[1 - result.winner]
    assert sum(result.scores) == 3 * len(result.hands) == 3 * len(match.replays)
    assert [text for replay in match.replays for text in replay.actions] == [
        str(action) for action in match.history
    ]
    # The whole game is played again, by the same loop as a hand, with the same bots.
    again = play(game.new_target_game(seed=9), [lambda observation, legal: legal[0]] * 2)
    assert again.is_terminal() and max(again.result().scores) >= 5
