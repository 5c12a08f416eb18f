"""A Pinnacolo game: hands to the target (1500 in the presets), the dealer rotating.

>>> import random
>>> game = PinnacoloGame("pinnacolo2", seed=3, max_hands=2)
>>> rng = random.Random(3)
>>> while not game.is_terminal():
...     legal = game.legal_actions
...     game.apply(legal[rng.randrange(len(legal))])
>>> len(game.results) <= 2
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.errors import IllegalActionError, NotOverError, RulesError
from engine.game import check_max_hands
from engine.pinnacolo.results import PinnacoloResult
from engine.pinnacolo.rules import PinnacoloRules, pinnacolo_rules
from engine.pinnacolo.state import (
    PinnacoloHand,
    PinnacoloLegalActions,
    PinnacoloPhase,
    new_hand,
)
from engine.rng import splitmix64_output
from engine.seats import check_seat

__all__ = ["PinnacoloGame", "PinnacoloGameResult"]


@dataclass(frozen=True, slots=True)
class PinnacoloGameResult:
    """A finished game: the winning side (``None``: level at the hand limit), the final
    scores per side and every hand's result."""

    winner: int | None
    scores: tuple[int, ...]
    hands: tuple[PinnacoloResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "hands": [hand.to_json() for hand in self.hands],
        }


class PinnacoloGame:
    """Hands dealt from the ``n``-th SplitMix64 output of ``seed``, the dealer moving one
    seat left each hand. The game ends after the hand in which a side reaches
    ``rules.target``: the highest side wins; sides level at the top play another hand.
    ``max_hands`` stops a game early (the highest side wins, or ``None`` if level).
    """

    def __init__(
        self,
        variant: str,
        *,
        seed: int,
        dealer: int = 0,
        rules: PinnacoloRules | None = None,
        max_hands: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else pinnacolo_rules(variant)
        if self.rules.name != variant:
            raise RulesError("name", f"the rules are for {self.rules.name!r}, not {variant!r}")
        check_max_hands(max_hands)
        check_seat(dealer, self.rules.players, "dealer")
        self.num_players = self.rules.players
        self.seed = seed
        self.first_dealer = dealer
        self.max_hands = max_hands
        self.scores = [0] * self.rules.sides
        self.results: list[PinnacoloResult] = []
        self.hands: list[PinnacoloHand] = []
        self.winner: int | None = None
        self._over = False
        self._deal()

    def _deal(self) -> None:
        number = len(self.hands)
        self.hand = new_hand(
            self.rules.name,
            seed=splitmix64_output(self.seed, number),
            dealer=(self.first_dealer + number) % self.num_players,
            rules=self.rules,
        )
        self.hands.append(self.hand)

    @property
    def current_player(self) -> int | None:
        return None if self._over else self.hand.current_player

    @property
    def phase(self) -> PinnacoloPhase:
        return PinnacoloPhase.OVER if self._over else self.hand.phase

    @property
    def legal_actions(self) -> PinnacoloLegalActions:
        return self.hand.legal_actions

    def is_terminal(self) -> bool:
        return self._over

    def apply(self, action: Action | str) -> None:
        if self._over:
            raise IllegalActionError(action, "game_over", "the game is over")
        self.hand.apply(action)
        if not self.hand.is_terminal():
            return
        result = self.hand.result()
        self.results.append(result)
        for side, score in enumerate(result.side_scores):
            self.scores[side] += score
        best = max(self.scores)
        leaders = [side for side, score in enumerate(self.scores) if score == best]
        at_limit = self.max_hands is not None and len(self.results) >= self.max_hands
        if (best >= self.rules.target and len(leaders) == 1) or at_limit:
            self._over = True
            self.winner = leaders[0] if len(leaders) == 1 else None
        else:
            self._deal()

    def observation(self, seat: int) -> dict[str, Any]:
        """The current hand's observation with the game's ``scores``, ``target`` and
        ``hand_number``."""
        observation = self.hand.observation(seat)
        observation["scores"] = list(self.scores)
        observation["target"] = self.rules.target
        observation["hand_number"] = len(self.hands) - 1
        if self._over:
            observation["phase"] = PinnacoloPhase.OVER.value
        return observation

    def result(self) -> PinnacoloGameResult:
        if not self._over:
            raise NotOverError("the game is not over: it has no result yet")
        return PinnacoloGameResult(self.winner, tuple(self.scores), tuple(self.results))
