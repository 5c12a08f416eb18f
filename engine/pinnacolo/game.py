"""A Pinnacolo game: hands to the target (1500 in the presets), the dealer rotating.

It is the one game-to-target driver (``engine.game.TargetGame``) with Pinnacolo's hands,
rules, actions and replays, and its own way of settling a game.

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

from engine.game import GameResult, TargetGame
from engine.pinnacolo.actions import parse_action
from engine.pinnacolo.results import PinnacoloResult
from engine.pinnacolo.rules import pinnacolo_rules
from engine.pinnacolo.state import PinnacoloHand, new_hand

__all__ = ["PinnacoloGame", "PinnacoloGameResult"]


PinnacoloGameResult = GameResult[PinnacoloResult]
"""A finished game: the winning side (``None``: level at the hand limit), the final
scores per side and every hand's result."""


class PinnacoloGame(TargetGame[PinnacoloHand, PinnacoloResult]):
    """Hands dealt from the ``n``-th SplitMix64 output of ``seed``, the dealer moving one
    seat left each hand. The game ends after the hand in which a side reaches
    ``rules.target``: the highest side wins; sides level at the top play another hand.
    ``max_hands`` stops a game early (the highest side wins, or ``None`` if level).
    """

    deal_hand = staticmethod(new_hand)
    default_rules = staticmethod(pinnacolo_rules)
    parse_action = staticmethod(parse_action)

    @property
    def sides(self) -> int:
        """Two in pairs, otherwise one a player."""
        sides: int = self.rules.sides
        return sides

    def _settle(self, result: PinnacoloResult) -> tuple[bool, int | None]:
        best = max(self.scores)
        leaders = [side for side, score in enumerate(self.scores) if score == best]
        if (best >= self.rules.target and len(leaders) == 1) or self._at_limit():
            return True, leaders[0] if len(leaders) == 1 else None
        return False, None
