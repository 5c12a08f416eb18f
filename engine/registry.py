"""The games the engine knows, found from a variant name: the one registry.

Each game declares itself in its own module, as a subclass of ``engine.interface.Game``,
and registers it there (``register_game``); ``engine`` imports the built-in games'
modules. Every other part of the service reads the games from here.

>>> game = load_game("double4")
>>> game.name, game.players, game.label
('pinochle4', 4, 'Four-hand partnership, double deck')
>>> state = game.new_initial_state(seed=1, dealer=0)
>>> state.current_player, game.seatings["B"]
(1, (1, 0, 1, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.errors import RegistryError, RulesError, UnknownVariantError

if TYPE_CHECKING:
    from engine.interface import Game

__all__ = [
    "GAMES",
    "default_variant",
    "game_class",
    "games",
    "load_game",
    "register_game",
    "rules_for",
    "unregister_game",
    "variant_choices",
    "variant_names",
]

GAMES: dict[str, type[Game[Any, Any]]] = {}
"""Every registered game's class, by its name, in registration order."""


def register_game(game: type[Game[Any, Any]]) -> type[Game[Any, Any]]:
    """Make ``game``'s variants known; a variant name belongs to one game only. Returns the
    class, so that it may be used as a decorator."""
    for other in GAMES.values():
        shared = set(other.variants) & set(game.variants)
        if shared and other.name != game.name:
            raise RegistryError(f"variant {sorted(shared)[0]!r} already belongs to {other.name!r}")
    GAMES[game.name] = game
    return game


def unregister_game(name: str) -> None:
    """Forget a game (a test that registered a game of its own puts the registry back)."""
    GAMES.pop(name, None)


def games() -> tuple[type[Game[Any, Any]], ...]:
    return tuple(GAMES.values())


def variant_names() -> tuple[str, ...]:
    """Every registered variant, game by game in registration order."""
    return tuple(variant for game in GAMES.values() for variant in game.variants)


def variant_choices() -> list[tuple[str, str]]:
    """``(variant, label)`` for every registered variant (what a form or a column offers)."""
    return [(variant, label) for game in GAMES.values() for variant, label in game.variants.items()]


def default_variant() -> str:
    """The variant the service shows where it needs one (a leaderboard link): the first
    registered game's ``main_variant``."""
    game = next(iter(GAMES.values()))
    return game.main_variant or next(iter(game.variants))


def game_class(variant: str) -> type[Game[Any, Any]]:
    """The class of the game a variant belongs to (``UnknownVariantError`` naming the
    known variants if none)."""
    for game in GAMES.values():
        if variant in game.variants:
            return game
    raise UnknownVariantError(variant, sorted(variant_names()))


def load_game(
    variant: str, *, rules: Any = None, overrides: Mapping[str, Any] | None = None
) -> Game[Any, Any]:
    """The ``Game`` of a registered variant: with ``rules`` (for that variant), or its
    preset changed by ``overrides``, or its preset. An unknown variant raises
    ``UnknownVariantError`` naming the known ones."""
    game = game_class(variant)
    if rules is not None and overrides is not None:
        raise RulesError("rules", "give either rules or overrides of the preset, not both")
    if rules is None:
        rules = game.preset(variant, overrides)
    return game(variant, rules)


def rules_for(variant: str, overrides: Mapping[str, Any] | None = None) -> Any:
    """The rules of any registered variant (its preset, with a league's ``overrides``), of
    its own game's type (``engine.rules.Pinochle4Rules``, ``engine.pinnacolo.PinnacoloRules``,
    ...)."""
    return game_class(variant).preset(variant, overrides)
