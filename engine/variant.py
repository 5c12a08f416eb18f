"""One variant with its rules fixed: the static ``Game`` every driver starts from.

In the spirit of OpenSpiel's ``Game``: what does not change while a hand is played (the
rules, the number of players, the teams, the duplicate seatings, the deal) sits here, and
``new_initial_state`` deals the ``State`` that does change. ``load_game`` builds one from
the registry (``engine.registry``), whose ``GameSpec`` is the plumbing of a whole game and
its variants.

>>> game = load_game("single4")
>>> game.num_players, game.teams, game.seatings["B"]
(4, ((0, 2), (1, 3)), (1, 0, 1, 0))
>>> state = game.new_initial_state(seed=1, dealer=0)
>>> state.current_player, str(game.parse_action("bid 250"))
(1, 'bid 250')
>>> load_game("cutthroat3", overrides={"target": 500}).rules.target
500
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import RegistryError, RulesError
from engine.game import TargetGame
from engine.registry import GameSpec, game_for
from engine.state import State

__all__ = ["Game", "load_game"]


@dataclass(frozen=True, slots=True)
class Game:
    """A variant of a registered game with its rules: ``spec`` is the game's registry
    entry, ``rules`` the variant's rules (its preset, or a league's house rules)."""

    spec: GameSpec
    variant: str
    rules: Any

    @property
    def name(self) -> str:
        """The game the variant belongs to (``pinochle4``, ``pinnacolo3``, ...)."""
        return self.spec.name

    @property
    def num_players(self) -> int:
        return self.spec.num_players

    @property
    def label(self) -> str:
        return self.spec.label(self.variant)

    @property
    def partnership(self) -> bool:
        """Whether two partnerships play (seats 0/2 against 1/3)."""
        return self.spec.partnership(self.variant)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each scoring side, in the order of a result's ``team_scores``."""
        if self.partnership:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(self.num_players))

    def side_of(self, seat: int) -> int:
        """The index of ``seat``'s side in a result's ``team_scores``."""
        return seat % 2 if self.partnership else seat

    @property
    def seatings(self) -> dict[str, tuple[int, ...]]:
        """The duplicate tables: which of two bots (0 or 1) sits in each seat at each."""
        return self.spec.seatings(self.variant)

    def forfeit_scores(
        self, state: State[Any, Any] | None, leavers: int | Iterable[int]
    ) -> tuple[int, ...]:
        """Each side's score, in ``teams`` order, when ``leavers`` (a seat, or every seat of
        one competitor) abandon the hand at ``state``: their sides at the lowest score they
        could still reach, every other side at the highest (``engine.forfeit``). Without a
        position (``state`` None) the bounds of any position under these rules."""
        seats = (leavers,) if isinstance(leavers, int) else tuple(leavers)
        leaving = {self.side_of(seat) for seat in seats}
        if state is None:
            bounds = self.spec.worst_case_bounds(self.rules, len(self.teams))
        else:
            bounds = self.spec.score_bounds(state)
        return bounds.forfeit(leaving)

    def with_rules(self, overrides: Mapping[str, Any] | None) -> Game:
        """The same variant with its preset changed by ``overrides`` (a league's rules)."""
        return Game(self.spec, self.variant, self.spec.rules_for(self.variant, overrides))

    def new_initial_state(self, seed: int, dealer: int = 0) -> State[Any, Any]:
        """A hand dealt from ``seed`` by ``dealer`` under these rules."""
        state: State[Any, Any] = self.spec.new_hand(
            self.variant, seed=seed, dealer=dealer, rules=self.rules
        )
        return state

    def new_target_game(
        self, seed: int, dealer: int = 0, *, max_hands: int | None = None
    ) -> TargetGame[Any, Any]:
        """Hands to the target under these rules (the one driver, ``TargetGame``)."""
        if self.spec.target_game is None:
            raise RegistryError(f"{self.variant!r} is played one hand at a time: no target")
        return self.spec.target_game(
            self.variant, seed=seed, dealer=dealer, rules=self.rules, max_hands=max_hands
        )

    def parse_action(self, text: str) -> Any:
        """An action of this game from its text form (``ActionParseError`` if bad)."""
        return self.spec.parse_action(text)

    def write_replay(self, state: State[Any, Any]) -> Any:
        """The replay of a hand of this game."""
        return self.spec.replay_from_state(state)

    def read_replay(self, data: Mapping[str, Any]) -> Any:
        """A replay of this game read from its JSON document."""
        return self.spec.replay_from_json(data)


def load_game(
    variant: str, *, rules: Any = None, overrides: Mapping[str, Any] | None = None
) -> Game:
    """The ``Game`` of a registered variant: with ``rules`` (for that variant), or its
    preset changed by ``overrides``, or its preset. An unknown variant raises
    ``UnknownVariantError`` naming the known ones."""
    spec = game_for(variant)
    if rules is not None and overrides is not None:
        raise RulesError("rules", "give either rules or overrides of the preset, not both")
    if rules is None:
        rules = spec.rules_for(variant, overrides)
    elif getattr(rules, "name", None) != variant:
        name = getattr(rules, "name", None)
        raise RulesError("name", f"the rules are for {name!r}, not {variant!r}")
    return Game(spec, variant, rules)
