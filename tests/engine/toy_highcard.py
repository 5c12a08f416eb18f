"""A tiny game for the registry's test: two players, three cards each, high card wins.

Its whole rules module: a ``State`` on ``engine.state.State`` and a deal. Each player
holds three cards of the single deck; they take turns leading a card and answering with
any card; the higher rank takes the trick (suits do not matter, the first played wins a
tie). A player scores one point per trick. A game goes on until, after a hand, one
player leads with ``target`` (5) tricks or more, through the engine's one driver.

``TOY_SPEC`` is its registry entry and ``registered_toy()`` registers it for a test.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Play
from engine.cards import CARDS, DECKS
from engine.errors import IllegalActionError, NotOverError
from engine.forfeit import ScoreBounds
from engine.game import TargetGame
from engine.registry import GameSpec, register_game, unregister_game
from engine.rng import shuffle
from engine.rules import pinochle_rules
from engine.seats import check_seat
from engine.state import State


class ToyPhase(enum.Enum):
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class ToyResult:
    tricks: tuple[int, int]

    @property
    def team_scores(self) -> tuple[int, ...]:
        return self.tricks

    def to_json(self) -> dict[str, Any]:
        return {"team_scores": list(self.tricks)}


class ToyState(State[ToyPhase, list[Action]]):
    __slots__ = ("_hands", "_history", "_phase", "_trick", "_turn", "_won", "dealer", "rules")

    OVER = ToyPhase.OVER
    num_players = 2

    def __init__(self, hands: list[list[int]], *, dealer: int) -> None:
        # A game brings its own rules object; the toy's only rule parameter is its name.
        self.rules = _ToyRules()
        self.dealer = dealer
        self._hands = hands
        self._history: list[Action] = []
        self._phase = ToyPhase.PLAY
        self._trick: list[tuple[int, int]] = []
        self._turn = (dealer + 1) % 2
        self._won = [0, 0]

    def _legal_view(self) -> list[Action]:
        if self._phase is ToyPhase.OVER:
            return []
        return [Play(CARDS[face]) for face in sorted(set(self._hands[self._turn]))]

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    def hand(self, seat: int) -> tuple[str, ...]:
        return tuple(str(CARDS[face]) for face in sorted(self._hands[seat]))

    def apply(self, action: Action | str) -> None:
        if isinstance(action, str):
            action = Action.parse(action)
        if action not in self._legal_view():
            raise IllegalActionError(action, "toy_play", "play a card you hold")
        assert isinstance(action, Play)
        seat = self._turn
        self._hands[seat].remove(action.card)
        self._history.append(action)
        self._trick.append((seat, action.card))
        if len(self._trick) == 1:
            self._turn = 1 - seat
            return
        (first, lead), (second, answer) = self._trick
        winner = second if answer % 6 < lead % 6 else first
        self._won[winner] += 1
        self._trick = []
        self._turn = winner
        if not self._hands[0] and not self._hands[1]:
            self._phase = ToyPhase.OVER

    def copy(self) -> ToyState:
        other = ToyState([hand[:] for hand in self._hands], dealer=self.dealer)
        other._history = self._history[:]
        other._phase, other._turn = self._phase, self._turn
        other._trick, other._won = self._trick[:], self._won[:]
        return other

    def observation(self, seat: int) -> dict[str, Any]:
        check_seat(seat, 2)
        return {
            "game": "toy",
            "variant": "highcard",
            "seat": seat,
            "phase": self._phase.value,
            "current_player": self.current_player,
            "hand": list(self.hand(seat)),
            "trick": [str(CARDS[face]) for _, face in self._trick],
            "tricks_won": list(self._won),
        }

    def result(self) -> ToyResult:
        if self._phase is not ToyPhase.OVER:
            raise NotOverError("the hand is not over: it has no result yet")
        return ToyResult((self._won[0], self._won[1]))


class _ToyRules:
    name = "highcard"
    players = 2
    target = 5

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name}


def toy_rules(variant: str, overrides: object = None) -> _ToyRules:
    return _ToyRules()


def new_toy_hand(variant: str, *, seed: int, dealer: int = 0, rules: object = None) -> ToyState:
    check_seat(dealer, 2, "dealer")
    pack = shuffle([int(card) for card in DECKS[pinochle_rules("twohand").deck].cards()], seed)
    return ToyState([pack[0:3], pack[3:6]], dealer=dealer)


def toy_bounds(state: ToyState) -> ScoreBounds:
    """A seat keeps the tricks it won and may win every trick still to play."""
    if state.is_terminal():
        return ScoreBounds(state.result().tricks, state.result().tricks)
    left = (len(state._hands[0]) + len(state._hands[1]) + len(state._trick)) // 2
    won = tuple(state._won)
    return ScoreBounds(won, tuple(tricks + left for tricks in won))


def toy_replay(state: ToyState) -> list[str]:
    """The toy keeps no replay format of its own: its replay is the actions' text."""
    return [str(action) for action in state.history]


class ToyGame(TargetGame[ToyState, ToyResult]):
    """Hands of the toy until one player leads with ``target`` tricks or more."""

    deal_hand = staticmethod(new_toy_hand)
    write_replay = staticmethod(toy_replay)

    @staticmethod
    def default_rules(variant: str) -> _ToyRules:
        return _ToyRules()

    def _settle(self, result: ToyResult) -> tuple[bool, int | None]:
        level = self.scores[0] == self.scores[1]
        winner = None if level else (0 if self.scores[0] > self.scores[1] else 1)
        over = self._at_limit() or (max(self.scores) >= self.rules.target and not level)
        return over, winner if over else None


TOY_SPEC = GameSpec(
    name="toy",
    num_players=2,
    variants=("highcard",),
    new_hand=new_toy_hand,
    labels={"highcard": "High card"},
    rules_for=toy_rules,
    replay_from_state=toy_replay,
    score_bounds=toy_bounds,
    worst_case_bounds=lambda rules, sides: ScoreBounds((0,) * sides, (3,) * sides),
    target_game=ToyGame,
)


@contextmanager
def registered_toy() -> Iterator[GameSpec]:
    """The toy registered for the ``with`` block, and the registry put back after."""
    register_game(TOY_SPEC)
    try:
        yield TOY_SPEC
    finally:
        unregister_game(TOY_SPEC.name)
