"""Every game the arena runs, seen through one interface.

The engine gives each game its own state, rules and action parser; the referee, the
duplicate scoring and the match runner only need what this module collects per variant:
how many seats, partners or individuals, how to read rules and actions, how to deal, how
to replay, and what a seat scored.

>>> game = game_for("twohand")
>>> game.players, game.partnership
(2, False)
>>> game_for("auction4").seatings["B"]
(1, 0, 1, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from bots import protocol
from bots.reference import family_bots
from engine.actions import Action
from engine.registry import variant_names
from engine.state import State
from engine.variant import Game as EngineGame
from engine.variant import load_game

RulesLike = Any
"""A game's rules object (engine.rules.Rules or engine.pinnacolo.PinnacoloRules)."""

Refereed = State[Any, Any]
"""A dealt hand of any game, as the referee drives it: the engine's one ``State``."""


@dataclass(frozen=True)
class Game:
    """What the referee and the match runner need to know of one variant: the engine's
    ``Game`` (``engine.load_game``) read through, with its rules given per match (a
    league's house rules) rather than fixed, and what the bots' side adds (the hello, the
    reference bots)."""

    engine: EngineGame

    @property
    def variant(self) -> str:
        return self.engine.variant

    @property
    def players(self) -> int:
        return self.engine.num_players

    @property
    def partnership(self) -> bool:
        return self.engine.partnership

    @property
    def seatings(self) -> dict[str, tuple[int, ...]]:
        return self.engine.seatings

    def side_of(self, seat: int) -> int:
        """The index of the seat's side in a result's ``team_scores``."""
        return self.engine.side_of(seat)

    def rules_for(self, overrides: Mapping[str, Any] | None) -> RulesLike:
        """The variant's preset changed by ``overrides`` (none: the preset itself)."""
        rules: RulesLike = self.engine.with_rules(overrides).rules
        return rules

    def rules_from_json(self, data: Mapping[str, Any]) -> RulesLike:
        rules: RulesLike = self.engine.spec.rules_from_json(data)
        return rules

    def parse_action(self, text: str) -> Action:
        action: Action = self.engine.parse_action(text)
        return action

    def replay_from_state(self, state: Any) -> Any:
        return self.engine.write_replay(state)

    def replay_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.engine.read_replay(data)

    def forfeit_scores(
        self, rules: RulesLike, state: Refereed | None, leavers: int | Iterable[int]
    ) -> tuple[int, ...]:
        """Each side's score when ``leavers`` (a seat, or every seat of one bot) abandon the
        hand at ``state`` under ``rules``: their sides at the lowest score they could still
        reach, the others at the highest, so that leaving never pays (``engine.forfeit``).
        ``state`` None: the bounds of any position."""
        game = EngineGame(self.engine.spec, self.variant, rules)
        return game.forfeit_scores(state, leavers)

    def hello(
        self, rules: RulesLike, *, seat: int, boards: int, time: protocol.TimeControl
    ) -> dict[str, Any]:
        """The hello a seat of this variant hears, with the game named as its rules name it."""
        return protocol.hello_message(
            game=str(getattr(rules, "game", self.variant)),
            variant=self.variant,
            rules=rules.to_json(),
            seat=seat,
            players=self.players,
            boards=boards,
            time=time,
        )

    def new_state(self, rules: RulesLike, *, seed: int, dealer: int) -> Refereed:
        state = self.engine.spec.new_hand(self.variant, seed=seed, dealer=dealer, rules=rules)
        return cast(Refereed, state)

    @property
    def reference_bots(self) -> dict[str, Path]:
        """The reference bots that play this variant, by short name (random, greedy, ...):
        the family its game names where it is registered."""
        return family_bots(self.engine.spec.bot_family)


def game_for(variant: str) -> Game:
    """The variant's engine ``Game``, as the referee and the runner use it.

    An unknown variant raises ``UnknownVariantError`` (a ``ValueError``) naming the known.
    """
    return Game(load_game(variant))


VARIANTS = variant_names()
"""The variants registered when this module was imported (a command line's choices)."""


def variants_played_by(bots: Mapping[str, Path]) -> tuple[str, ...]:
    """The registered variants in which every one of ``bots`` (short name: file) is a
    reference bot."""
    return tuple(
        variant
        for variant in variant_names()
        if bots.items() <= game_for(variant).reference_bots.items()
    )
