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

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

import engine.pinnacolo as pinnacolo
from bots.reference import REFERENCE_BOTS
from engine.actions import Action
from engine.protocol import GameLike
from engine.registry import game_for as engine_game_for
from engine.replay import Replay
from engine.rules import Rules, rules_for

_REFERENCE_DIR = Path(__file__).resolve().parent / "reference"

RulesLike = Any


class Refereed(GameLike, Protocol):
    """A dealt hand of any game, as the referee drives it."""

    def hand(self, seat: int) -> Sequence[object]: ...

    def result(self) -> Any: ...


"""A game's rules object (engine.rules.Rules or engine.pinnacolo.PinnacoloRules)."""


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


@dataclass(frozen=True)
class Game:
    """What the referee and the match runner need to know of one variant."""

    variant: str
    players: int
    partnership: bool
    rules_for: Callable[[Mapping[str, Any] | None], RulesLike]
    rules_from_json: Callable[[Mapping[str, Any]], RulesLike]
    deal: Callable[..., Refereed]
    parse_action: Callable[[str], Action]
    replay_from_state: Callable[[Any], Any]
    replay_from_json: Callable[[Mapping[str, Any]], Any]
    forfeit_penalty: Callable[[RulesLike], int]

    @property
    def seatings(self) -> dict[str, tuple[int, ...]]:
        return seatings_for(self.players, self.partnership)

    def side_of(self, seat: int) -> int:
        """The index of the seat's side in a result's ``team_scores``."""
        return seat % 2 if self.partnership else seat

    def new_state(self, rules: RulesLike, *, seed: int, dealer: int) -> Refereed:
        return self.deal(self.variant, seed=seed, dealer=dealer, rules=rules)

    @property
    def reference_bots(self) -> dict[str, Path]:
        """The reference bots that play this variant, by short name (random, greedy, ...)."""
        if self.players == 4 and not self.variant.startswith("pinnacolo"):
            return dict(REFERENCE_BOTS)
        prefix = {"cutthroat3": "cutthroat", "twohand": "twohand"}.get(self.variant, "pinnacolo")
        # A uniformly random legal action needs no knowledge of the game: one bot serves all.
        return {"random": REFERENCE_BOTS["random"]} | {
            path.stem.removeprefix(f"{prefix}_"): path
            for path in sorted(_REFERENCE_DIR.glob(f"{prefix}_*.py"))
        }


def _pinochle(variant: str) -> Game:
    spec = engine_game_for(variant)
    return Game(
        variant=variant,
        players=spec.num_players,
        partnership=spec.num_players == 4,
        rules_for=lambda overrides: rules_for(variant, overrides),
        rules_from_json=Rules.from_json,
        deal=cast(Callable[..., Refereed], spec.new_hand),
        parse_action=Action.parse,
        replay_from_state=Replay.from_state,
        replay_from_json=Replay.from_json,
        # Minus the minimum bid and every point in the tricks: more than being set.
        forfeit_penalty=lambda rules: int(rules.min_bid + rules.total_in_tricks),
    )


def _pinnacolo(variant: str) -> Game:
    rules = pinnacolo.pinnacolo_rules(variant)
    return Game(
        variant=variant,
        players=rules.players,
        partnership=rules.pairs,
        rules_for=lambda overrides: pinnacolo.pinnacolo_rules(variant, overrides),
        rules_from_json=pinnacolo.PinnacoloRules.from_json,
        deal=pinnacolo.new_hand,
        parse_action=pinnacolo.parse_action,
        replay_from_state=pinnacolo.PinnacoloReplay.from_state,
        replay_from_json=pinnacolo.PinnacoloReplay.from_json,
        # Twice what a player who lays nothing down loses: a fault never pays.
        forfeit_penalty=lambda rules: 400,
    )


_BUILDERS: dict[str, Callable[[str], Game]] = {
    "single4": _pinochle,
    "auction4": _pinochle,
    "double4": _pinochle,
    "cutthroat3": _pinochle,
    "twohand": _pinochle,
    "pinnacolo": _pinnacolo,
    "pinnacolo2": _pinnacolo,
    "pinnacolo3": _pinnacolo,
    "pinnacolo4": _pinnacolo,
}
VARIANTS = tuple(_BUILDERS)


def game_for(variant: str) -> Game:
    builder = _BUILDERS.get(variant)
    if builder is None:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return builder(variant)
