"""The games the engine knows, found from a variant name: the one registry.

A match runner starts any hand the same way, whatever the game:

>>> spec = game_for("double4")
>>> spec.name, spec.num_players
('pinochle4', 4)
>>> state = spec.new_hand("double4", seed=1, dealer=0)
>>> state.current_player
1
>>> spec.label("double4"), spec.seatings("double4")["B"]
('Four-hand partnership, double deck', (1, 0, 1, 0))

Each ``GameSpec`` carries what every other part of the service needs of its variants:
their labels, the rules presets and how to read rules, the action parser, the replay
reader and writer, the duplicate seatings and the bounds a forfeit is scored from. Adding
a game is a ``register_game`` call with its spec and the module of its rules (a state class on
``engine.state.State``); the bots' referee, the arena and the leagues read it from here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import engine.pinnacolo as pinnacolo
from engine.actions import Action
from engine.cutthroat import CutthroatGame, cutthroat_from_cards, new_cutthroat_hand
from engine.errors import RegistryError, UnknownVariantError
from engine.forfeit import ScoreBounds, score_bounds, worst_case_bounds
from engine.game import GameState, TargetGame
from engine.hand import new_hand
from engine.pinnacolo.game import PinnacoloGame
from engine.pinnacolo.state import new_hand as new_pinnacolo_hand
from engine.rules import PRESETS, Rules, pinochle_rules
from engine.twohand import TwoHandGame, new_twohand_hand, twohand_from_cards

__all__ = [
    "GAMES",
    "GameSpec",
    "game_for",
    "register_game",
    "rules_for",
    "seatings_for",
    "unregister_game",
    "variant_choices",
    "variant_names",
]


def seatings_for(players: int, partnership: bool) -> dict[str, tuple[int, ...]]:
    """Which of the two bots (0 = X, 1 = Y) sits in each seat, table by table.

    Duplicate (RULES.md section 9): partners at 0/2 and 1/3 swap sides at the second table;
    in individual games the board is played once for each arrangement of the two bots over
    the seats in which both play (2 players: 2 tables; 3 players: 6), so each bot meets
    every position equally often.
    """
    if partnership:
        return {"A": (0, 1, 0, 1), "B": (1, 0, 1, 0)}
    if players == 2:
        return {"A": (0, 1), "B": (1, 0)}
    arrangements = [
        lineup
        for lineup in itertools.product((0, 1), repeat=players)
        if 0 in lineup and 1 in lineup and (players != 4 or lineup.count(0) == 2)
    ]
    return {chr(ord("A") + index): lineup for index, lineup in enumerate(arrangements)}


def _replay_from_state(state: Any) -> Any:
    # Imported here: the replay module reads this registry to verify any game's replay.
    from engine.replay import Replay

    return Replay.from_state(state)


def _replay_from_json(data: Mapping[str, Any]) -> Any:
    from engine.replay import Replay

    return Replay.from_json(data)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game: its name, its number of seats, its variants and everything needed to play,
    referee, score and replay them.

    ``new_hand(variant, *, seed, dealer, rules=None)`` deals a hand of that variant from a
    seed; ``from_cards(variant, deal, *, dealer)``, if given, starts one from an explicit
    deal (what ``Replay.deal`` lists), so that replays of stored boards can be verified.
    ``labels`` names each variant for people; ``partnered`` lists the variants played by
    two partnerships (the others are every player for themselves). ``rules_for(variant,
    overrides)`` gives a variant's rules (its preset, with a league's overrides),
    ``rules_from_json`` reads stored rules, ``parse_action`` reads an action's text,
    ``replay_from_state`` and ``replay_from_json`` write and read its replays,
    ``score_bounds(state)`` bounds what each side can still score from a position, and
    ``worst_case_bounds(rules, sides)`` from any position (a forfeit scores the leaving
    side at its lowest and the others at their highest: ``engine.forfeit``);
    ``target_game`` (a ``TargetGame``, if the game is played to a target) plays hands to
    the target. ``bot_family`` names the family of reference bots that play the game
    (``bots.reference.family_bots``: the engine names them, the bots package holds them);
    ``None``, only the random bot, which needs no knowledge of the game.
    ``engine.variant.load_game`` gives one variant with its rules as a ``Game``.
    """

    name: str
    num_players: int
    variants: tuple[str, ...]
    new_hand: Callable[..., Any]
    from_cards: Callable[..., Any] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    partnered: frozenset[str] = frozenset()
    rules_for: Callable[[str, Mapping[str, Any] | None], Any] = pinochle_rules
    rules_from_json: Callable[[Mapping[str, Any]], Any] = Rules.from_json
    parse_action: Callable[[str], Action] = Action.parse
    replay_from_state: Callable[[Any], Any] = _replay_from_state
    replay_from_json: Callable[[Mapping[str, Any]], Any] = _replay_from_json
    score_bounds: Callable[[Any], ScoreBounds] = score_bounds
    worst_case_bounds: Callable[[Any, int], ScoreBounds] = worst_case_bounds
    target_game: type[TargetGame[Any, Any]] | None = None
    bot_family: str | None = None

    def label(self, variant: str) -> str:
        """The variant's name for people (the variant itself when none is given)."""
        return self.labels.get(variant, variant)

    def partnership(self, variant: str) -> bool:
        """Whether ``variant`` is played by two partnerships (seats 0/2 against 1/3)."""
        return variant in self.partnered

    def seatings(self, variant: str) -> dict[str, tuple[int, ...]]:
        """The duplicate tables of ``variant``: which bot sits in each seat at each."""
        return seatings_for(self.num_players, self.partnership(variant))


GAMES: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Make ``spec``'s variants known; a variant name belongs to one game only."""
    for other in GAMES.values():
        shared = set(other.variants) & set(spec.variants)
        if shared and other.name != spec.name:
            raise RegistryError(f"variant {sorted(shared)[0]!r} already belongs to {other.name!r}")
    GAMES[spec.name] = spec


def unregister_game(name: str) -> None:
    """Forget a game (a test that registered a game of its own puts the registry back)."""
    GAMES.pop(name, None)


def variant_names() -> tuple[str, ...]:
    """Every registered variant, game by game in registration order."""
    return tuple(variant for spec in GAMES.values() for variant in spec.variants)


def variant_choices() -> list[tuple[str, str]]:
    """``(variant, label)`` for every registered variant (what a form or a column offers)."""
    return [(variant, spec.label(variant)) for spec in GAMES.values() for variant in spec.variants]


def game_for(variant: str) -> GameSpec:
    """The game a variant belongs to."""
    for spec in GAMES.values():
        if variant in spec.variants:
            return spec
    raise UnknownVariantError(variant, sorted(variant_names()))


def rules_for(variant: str, overrides: Mapping[str, Any] | None = None) -> Any:
    """The rules of any registered variant (its preset, with a league's ``overrides``), of
    its own game's type (``engine.rules.Rules``, ``engine.pinnacolo.PinnacoloRules``, ...)."""
    return game_for(variant).rules_for(variant, overrides)


register_game(
    GameSpec(
        name="pinochle4",
        num_players=4,
        variants=tuple(name for name, rules in PRESETS.items() if rules.game == "pinochle4"),
        new_hand=new_hand,
        labels={
            "single4": "Four-hand partnership, single deck",
            "auction4": "Four-hand partnership auction",
            "double4": "Four-hand partnership, double deck",
        },
        partnered=frozenset(name for name, rules in PRESETS.items() if rules.game == "pinochle4"),
        target_game=GameState,
        bot_family="pinochle4",
    )
)
# The individual pinochle games: one variant each, every player for themselves.
for _name, _players, _variant, _label, _deal, _from_cards, _game, _bots in (
    ("pinochle3", 3, "cutthroat3", "Three-hand with widow", new_cutthroat_hand,
     cutthroat_from_cards, CutthroatGame, "cutthroat"),
    ("pinochle2", 2, "twohand", "Two-hand with stock", new_twohand_hand,
     twohand_from_cards, TwoHandGame, "twohand"),
):  # fmt: skip
    register_game(
        GameSpec(
            name=_name,
            num_players=_players,
            variants=(_variant,),
            new_hand=_deal,
            from_cards=_from_cards,
            labels={_variant: _label},
            target_game=_game,
            bot_family=_bots,
        )
    )


def _pinnacolo(name: str, players: int, variants: tuple[str, ...], labels: dict[str, str]) -> None:
    register_game(
        GameSpec(
            name=name,
            num_players=players,
            variants=variants,
            new_hand=new_pinnacolo_hand,
            labels=labels,
            partnered=frozenset(v for v in variants if pinnacolo.pinnacolo_rules(v).pairs),
            rules_for=pinnacolo.pinnacolo_rules,
            rules_from_json=pinnacolo.PinnacoloRules.from_json,
            parse_action=pinnacolo.parse_action,
            replay_from_state=pinnacolo.PinnacoloReplay.from_state,
            replay_from_json=pinnacolo.PinnacoloReplay.from_json,
            target_game=PinnacoloGame,
            bot_family="pinnacolo",
        )
    )


_pinnacolo(
    "pinnacolo",
    4,
    ("pinnacolo", "pinnacolo4"),
    {"pinnacolo": "Pinnacolo, two pairs", "pinnacolo4": "Pinnacolo, four players"},
)
_pinnacolo("pinnacolo3", 3, ("pinnacolo3",), {"pinnacolo3": "Pinnacolo, three players"})
_pinnacolo("pinnacolo2", 2, ("pinnacolo2",), {"pinnacolo2": "Pinnacolo, two players"})
