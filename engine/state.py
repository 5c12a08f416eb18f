"""The one shape of a hand of any game the engine plays (pinochle and Pinnacolo alike).

In the spirit of OpenSpiel's ``State``: whoever drives a hand (a bot, the referee, a
replay) asks ``current_player``, ``phase`` and ``legal_actions``, calls ``apply``, and at
the end reads ``result()``; ``observation(seat)`` is what that seat may know, ``copy()``
an independent state to search from, ``history`` the actions so far (actions only,
the same shape in every game), ``seed`` the seed the hand was dealt from (``None`` for a
hand dealt from explicit cards).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from engine.actions import Action
from engine.agents import ActionView

__all__ = ["Scored", "State", "attribute_names"]


class Scored(Protocol):
    """What every game's hand result offers: the sides' scores, and JSON."""

    @property
    def team_scores(self) -> tuple[int, ...]: ...

    def to_json(self) -> dict[str, Any]: ...


P = TypeVar("P", bound=enum.Enum)
V = TypeVar("V", bound=ActionView)


# Compiled, Pinnacolo's state (pure Python) derives from it, and states are pickled and
# copied without running ``__init__``.
class State(Generic[P, V]):
    """The base of every hand state, over its phase type ``P`` and its view of the legal
    actions ``V``. A game's state class keeps its phase in ``_phase`` (``OVER`` once the
    hand has ended) and the seat to act in ``_turn``, and builds its view in
    ``_legal_view``."""

    __slots__ = ()

    OVER: ClassVar[enum.Enum]
    """The phase of a finished hand."""
    num_players: int
    rules: Any
    dealer: int
    seed: int | None
    """The seed the hand was dealt from (``Game.new_initial_state``), or ``None`` for a
    hand dealt from explicit cards: the base ``Game`` replays a hand from its seed."""
    _phase: P
    _turn: int

    # These read the attributes by name: a game's class declares them (the pinochle
    # states' core overrides them).

    @property
    def variant(self) -> str:
        name: str = getattr(self, "rules").name  # noqa: B009
        return name

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        if getattr(self, "_phase") is self.OVER:  # noqa: B009
            return None
        turn: int = getattr(self, "_turn")  # noqa: B009
        return turn

    def is_terminal(self) -> bool:
        return getattr(self, "_phase") is self.OVER  # noqa: B009

    # What every game's state provides besides (the members a driver may use).

    @property
    def phase(self) -> P:
        phase: P = getattr(self, "_phase")  # noqa: B009
        return phase

    @property
    def legal_actions(self) -> V:
        """A live, lazy view of the current player's legal actions."""
        return self._legal_view()

    def _legal_view(self) -> V:
        raise NotImplementedError

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, in order: actions only, as in OpenSpiel (the seat
        that took each one is found by replaying them from the deal)."""
        raise NotImplementedError

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each scoring side, in the order of ``result().team_scores``: by
        default every player for themselves (a partnership game overrides it)."""
        players: int = getattr(self, "num_players")  # noqa: B009
        return tuple((seat,) for seat in range(players))

    def apply(self, action: Action | str) -> None:
        raise NotImplementedError

    def copy(self) -> Self:
        raise NotImplementedError

    def observation(self, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def hand(self, seat: int) -> Sequence[object]:
        """The cards ``seat`` holds now (for the referee: bots get ``observation``)."""
        raise NotImplementedError

    def result(self) -> Scored:
        raise NotImplementedError

    # Pickling: every attribute, wherever the class keeps it (its ``__slots__``, and a hand
    # state's core fields, ``engine.handcore``).

    def __getstate__(self) -> dict[str, Any]:
        return {
            name: getattr(self, name) for name in attribute_names(type(self)) if hasattr(self, name)
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)


_NAMES: dict[type, tuple[str, ...]] = {}


def attribute_names(kind: type) -> tuple[str, ...]:
    """The instance attributes of class ``kind``: its classes' ``__slots__`` and, in the
    hand state, its core's fields (``engine.handcore``), each once."""
    names = _NAMES.get(kind)
    if names is None:
        found: list[str] = []
        for klass in kind.__mro__:
            slots = klass.__dict__.get("__slots__", ())
            found += (slots,) if isinstance(slots, str) else slots
            # A hand state's core fields, kept by its C core where no ``__slots__`` lists
            # them (``engine.handcore``).
            found += klass.__dict__.get("_CORE_FIELDS", ())
        names = _NAMES[kind] = tuple(dict.fromkeys(n for n in found if n != "__dict__"))
    return names
