"""The games the engine knows, found from a variant name.

A match runner starts any hand the same way, whatever the game:

>>> spec = game_for("double4")
>>> spec.name, spec.num_players
('pinochle4', 4)
>>> state = spec.new_hand("double4", seed=1, dealer=0)
>>> state.current_player
1

A new game (three-hand, two-hand, Pinnacolo) registers a ``GameSpec`` whose ``new_hand``
returns a state with the members of ``engine.protocol.GameLike``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.cutthroat import cutthroat_from_cards, new_cutthroat_hand
from engine.errors import RegistryError, UnknownVariantError
from engine.hand import new_hand
from engine.pinnacolo.state import new_hand as new_pinnacolo_hand
from engine.protocol import GameLike
from engine.rules import PRESETS
from engine.twohand import new_twohand_hand, twohand_from_cards

__all__ = ["GAMES", "GameSpec", "game_for", "register_game"]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game: its name, its number of seats, its variants and how to deal a hand.

    ``new_hand(variant, *, seed, dealer)`` deals a hand of that variant from a seed;
    ``from_cards(variant, deal, *, dealer)``, if given, starts one from an explicit deal
    (what ``Replay.deal`` lists), so that replays of stored boards can be verified.
    """

    name: str
    num_players: int
    variants: tuple[str, ...]
    new_hand: Callable[..., GameLike]
    from_cards: Callable[..., GameLike] | None = None


GAMES: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Make ``spec``'s variants known; a variant name belongs to one game only."""
    for other in GAMES.values():
        shared = set(other.variants) & set(spec.variants)
        if shared and other.name != spec.name:
            raise RegistryError(f"variant {sorted(shared)[0]!r} already belongs to {other.name!r}")
    GAMES[spec.name] = spec


def game_for(variant: str) -> GameSpec:
    """The game a variant belongs to."""
    for spec in GAMES.values():
        if variant in spec.variants:
            return spec
    raise UnknownVariantError(variant, sorted(v for spec in GAMES.values() for v in spec.variants))


register_game(
    GameSpec(
        name="pinochle4",
        num_players=4,
        variants=tuple(name for name, rules in PRESETS.items() if rules.game == "pinochle4"),
        new_hand=new_hand,
    )
)
register_game(
    GameSpec(
        name="pinochle3",
        num_players=3,
        variants=("cutthroat3",),
        new_hand=new_cutthroat_hand,
        from_cards=cutthroat_from_cards,
    )
)
register_game(
    GameSpec(
        name="pinochle2",
        num_players=2,
        variants=("twohand",),
        new_hand=new_twohand_hand,
        from_cards=twohand_from_cards,
    )
)
register_game(
    GameSpec(
        name="pinnacolo",
        num_players=4,
        variants=("pinnacolo", "pinnacolo4"),
        new_hand=new_pinnacolo_hand,
    )
)
register_game(
    GameSpec(
        name="pinnacolo3",
        num_players=3,
        variants=("pinnacolo3",),
        new_hand=new_pinnacolo_hand,
    )
)
register_game(
    GameSpec(
        name="pinnacolo2",
        num_players=2,
        variants=("pinnacolo2",),
        new_hand=new_pinnacolo_hand,
    )
)
