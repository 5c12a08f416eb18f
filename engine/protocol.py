"""The shape every game's state has, so that bots and match runners can drive any game.

A new game (three-hand, two-hand, Pinnacolo) provides a state class with these members
and a ``new_hand``-style factory; ``play`` below then runs it with any agents.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from engine.actions import Action
from engine.errors import SeatError

__all__ = ["ActionView", "Agent", "GameLike", "play"]


class ActionView(Protocol):
    """A lazy collection of actions: ``in``, ``len``, iteration and indexing."""

    def __contains__(self, action: object) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Action]: ...
    def __getitem__(self, index: int) -> Action: ...


class GameLike(Protocol):
    """What a match runner needs from a game state (hand or whole game)."""

    num_players: int

    @property
    def current_player(self) -> int | None: ...
    @property
    def phase(self) -> enum.Enum: ...
    @property
    def legal_actions(self) -> ActionView: ...
    def apply(self, action: Action | str) -> None: ...
    def is_terminal(self) -> bool: ...
    def observation(self, seat: int) -> dict[str, Any]: ...


Agent = Callable[[dict[str, Any], ActionView], Action]
"""A bot: given its observation and its legal actions, choose one."""

State = TypeVar("State", bound=GameLike)


def play(
    state: State,
    agents: Sequence[Agent],
    *,
    on_action: Iterable[Callable[[int, Action], object]] = (),
) -> State:
    """Ask the current player's agent, apply its choice, until the state is terminal.

    An agent choosing an illegal action makes ``apply`` raise ``IllegalActionError``.
    ``on_action`` callbacks receive ``(seat, action)`` after each action.
    """
    if len(agents) != state.num_players:
        raise SeatError(f"one agent per seat: {state.num_players} are needed, got {len(agents)}")
    callbacks = list(on_action)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = agents[seat](state.observation(seat), state.legal_actions)
        state.apply(action)
        for callback in callbacks:
            callback(seat, action)
    return state
