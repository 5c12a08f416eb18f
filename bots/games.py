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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from bots import protocol
from bots.reference import REFERENCE_BOTS
from engine.actions import Action
from engine.registry import seatings_for, variant_names
from engine.state import State
from engine.variant import load_game

_REFERENCE_DIR = Path(__file__).resolve().parent / "reference"

RulesLike = Any


Refereed = State[Any, Any]
"""A dealt hand of any game, as the referee drives it: the engine's one ``State``."""


"""A game's rules object (engine.rules.Rules or engine.pinnacolo.PinnacoloRules)."""


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


def game_for(variant: str) -> Game:
    """The variant's engine ``Game`` (``engine.load_game``), as the referee and the runner
    use it: its rules vary by match, so it reads them from the game rather than fixing them.

    An unknown variant raises ``UnknownVariantError`` (a ``ValueError``) naming the known.
    """
    game = load_game(variant)
    spec = game.spec
    return Game(
        variant=variant,
        players=game.num_players,
        partnership=game.partnership,
        rules_for=lambda overrides: game.with_rules(overrides).rules,
        rules_from_json=spec.rules_from_json,
        deal=cast(Callable[..., Refereed], spec.new_hand),
        parse_action=game.parse_action,
        replay_from_state=game.write_replay,
        replay_from_json=game.read_replay,
        forfeit_penalty=spec.forfeit_penalty,
    )


VARIANTS = variant_names()
"""The variants registered when this module was imported (a command line's choices)."""
