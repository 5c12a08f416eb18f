"""What the individual games (three-hand cutthroat, two-hand) share: the lazy view of the
legal actions, multiset helpers, and the game to the target (RULES.md sections 5, 7).

In these games every seat is its own "team": a hand's ``HandResult`` has one
``TeamResult`` per seat, with ``team == seat``.
"""

from __future__ import annotations

from engine.game import TargetGame
from engine.results import HandResult
from engine.rules import BothReach
from engine.trickstate import (
    LegalActions,
    TrickTakingState,
    cards_of,
    count_submultisets,
    submultisets,
)

__all__ = [
    "IndividualGame",
    "LegalView",
    "cards_of",
    "count_submultisets",
    "submultisets",
]


LegalView = LegalActions
"""The lazy view of legal actions every pinochle state returns (one type for all)."""


class IndividualGame(TargetGame[TrickTakingState, HandResult]):
    """Hands dealt from ``hand_seed(seed, n)``, the dealer moving one seat left each hand,
    every player scoring for themselves, until someone reaches ``rules.target``.

    When several reach it on the same hand: with ``both_reach = declarer`` the declarer
    wins if among them (RULES.md section 5), otherwise the higher total; with
    ``higher_total`` the higher total (RULES.md 7.1). Equal highest totals play another
    deal. ``max_hands`` bounds a game as in ``GameState``: after that many hands the
    single highest score wins, and a tie for it is a draw (``winner`` stays ``None``).
    Subclasses name the hand factory.
    """

    def _settle(self, result: HandResult) -> tuple[bool, int | None]:
        winner = self._winner(result)
        return winner is not None or self._at_limit(), winner

    def _winner(self, result: HandResult) -> int | None:
        scores = self.scores
        reached = [seat for seat in range(self.num_players) if scores[seat] >= self.rules.target]
        if self.rules.both_reach is BothReach.DECLARER and result.declarer in reached:
            return result.declarer
        if not reached and not self._at_limit():
            return None
        candidates = reached or list(range(self.num_players))
        best = max(scores[seat] for seat in candidates)
        leaders = [seat for seat in candidates if scores[seat] == best]
        return leaders[0] if len(leaders) == 1 else None
