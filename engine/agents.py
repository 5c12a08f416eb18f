"""The loop that drives any state (a hand, or a whole game to its target) with agents.

Whatever the game, a match runner asks the current player's agent for an action among
``legal_actions`` and applies it: ``play`` below, over the one ``engine.state.State``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engine.actions import Action
from engine.errors import SeatError

if TYPE_CHECKING:
    # Only for the annotations: ``engine.state`` reads ``ActionView`` from here.
    from engine.state import State

__all__ = ["ActionView", "Agent", "play"]


class ActionView(Protocol):
    """A lazy collection of actions: ``in``, ``len``, iteration and indexing."""

    def __contains__(self, action: object) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Action]: ...
    def __getitem__(self, index: int) -> Action: ...


Agent = Callable[[dict[str, Any], ActionView], Action]
"""A bot: given its observation and its legal actions, choose one."""

S = TypeVar("S", bound="State[Any, Any]")


def play(
    state: S,
    agents: Sequence[Agent],
    *,
    on_action: Iterable[Callable[[int, Action], object]] = (),
) -> S:
    """Ask the current player's agent, apply its choice, until the state is terminal.

    ``state`` is any game's ``State``: a hand, or a whole game to its target
    (``engine.game.TargetGame``). An agent choosing an illegal action makes ``apply``
    raise ``IllegalActionError``. ``on_action`` callbacks receive ``(seat, action)`` after
    each action.
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
