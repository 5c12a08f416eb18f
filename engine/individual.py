"""What the individual games (three-hand cutthroat, two-hand) share: the lazy view of the
legal actions, multiset helpers, and the game to the target (RULES.md sections 5, 7).

In these games every seat is its own "team": a hand's ``HandResult`` has one
``TeamResult`` per seat, with ``team == seat``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, ClassVar

from engine.actions import Action
from engine.errors import IllegalActionError, NotOverError, RulesError
from engine.game import GameResult, check_max_hands, hand_seed
from engine.replay import Replay
from engine.results import HandResult
from engine.rules import BothReach, Rules, rules_for
from engine.seats import check_seat
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


class IndividualGame:
    """Hands dealt from ``hand_seed(seed, n)``, the dealer moving one seat left each hand,
    every player scoring for themselves, until someone reaches ``rules.target``.

    When several reach it on the same hand: with ``both_reach = declarer`` the declarer
    wins if among them (RULES.md section 5), otherwise the higher total; with
    ``higher_total`` the higher total (RULES.md 7.1). Equal highest totals play another
    deal. ``max_hands`` bounds a game as in ``GameState``: after that many hands the
    single highest score wins, and a tie for it is a draw (``winner`` stays ``None``).
    Subclasses name the hand factory.
    """

    deal_hand: ClassVar[Callable[..., TrickTakingState]]

    def __init__(
        self,
        variant: str,
        *,
        seed: int,
        dealer: int = 0,
        rules: Rules | None = None,
        max_hands: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else rules_for(variant)
        if self.rules.name != variant:
            raise RulesError("name", f"the rules are for {self.rules.name!r}, not {variant!r}")
        check_max_hands(max_hands)
        check_seat(dealer, self.rules.players, "dealer")
        self.num_players = self.rules.players
        self.max_hands = max_hands
        self.finished = False
        self.seed = seed
        self.first_dealer = dealer
        self.scores = [0] * self.num_players
        self.results: list[HandResult] = []
        self.replays: list[Replay] = []
        self.winner: int | None = None
        self._actions: list[Action] = []
        self.hand = self._deal(0)

    def _deal(self, number: int) -> TrickTakingState:
        return self.deal_hand(
            self.rules.name,
            seed=hand_seed(self.seed, number),
            dealer=(self.first_dealer + number) % self.num_players,
            rules=self.rules,
        )

    @property
    def hand_number(self) -> int:
        return len(self.results)

    @property
    def phase(self) -> enum.Enum:
        return self.hand.phase

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.hand.current_player

    @property
    def legal_actions(self) -> LegalView:
        return self.hand.legal_actions

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action of the game so far, all hands in order."""
        return tuple(self._actions)

    def is_terminal(self) -> bool:
        return self.finished

    def apply(self, action: Action | str) -> None:
        """Apply an action to the current hand; score it and deal the next when it ends."""
        if self.finished:
            raise IllegalActionError(action, "game_over", "the game is over")
        if isinstance(action, str):
            action = Action.parse(action)
        self.hand.apply(action)
        self._actions.append(action)
        if not self.hand.is_terminal():
            return
        result = self.hand.result()
        self.results.append(result)
        self.replays.append(Replay.from_state(self.hand))
        for seat, score in enumerate(result.team_scores):
            self.scores[seat] += score
        self.winner = self._winner(result)
        if self.winner is None and (self.max_hands is None or len(self.results) < self.max_hands):
            self.hand = self._deal(len(self.results))
            return
        self.finished = True

    def _winner(self, result: HandResult) -> int | None:
        scores = self.scores
        reached = [seat for seat in range(self.num_players) if scores[seat] >= self.rules.target]
        if self.rules.both_reach is BothReach.DECLARER and result.declarer in reached:
            return result.declarer
        if not reached and (self.max_hands is None or len(self.results) < self.max_hands):
            return None
        candidates = reached or list(range(self.num_players))
        best = max(scores[seat] for seat in candidates)
        leaders = [seat for seat in candidates if scores[seat] == best]
        return leaders[0] if len(leaders) == 1 else None

    def copy(self) -> IndividualGame:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.scores = list(self.scores)
        other.results = list(self.results)
        other.replays = list(self.replays)
        other._actions = list(self._actions)
        other.hand = self.hand.copy()
        return other

    def observation(self, seat: int) -> dict[str, Any]:
        """The current hand's observation for ``seat`` plus the game: ``hand_number``,
        ``previous_hand``, ``game_scores`` (per seat), ``target`` and ``game_winner``.
        """
        return {
            **self.hand.observation(seat),
            "hand_number": len(self.results),
            "previous_hand": self.results[-1].to_json() if self.results else None,
            "game_scores": list(self.scores),
            "target": self.rules.target,
            "game_winner": self.winner,
        }

    def result(self) -> GameResult:
        if not self.finished:
            raise NotOverError("the game is not over: it has no result yet")
        return GameResult(self.winner, tuple(self.scores), tuple(self.results))
