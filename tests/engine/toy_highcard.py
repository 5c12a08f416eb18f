"""A tiny game, the whole of it in this one module: two players, three cards each, high
card wins. It is a ``State`` on ``engine.state.State`` and a ``Game`` on
``engine.interface.Game`` (its rules, deal, actions and forfeit bounds: its replays are
the base ``Game``'s, from the seed of each hand), and nothing else anywhere names it.
Each player holds three cards of the single deck; they take turns leading a card and answering with
any card; the higher rank takes the trick (suits do not matter, the first played wins a
tie). A player scores one point per trick. A game goes on until, after a hand, one
player leads with ``target`` (5) tricks or more, through the engine's one driver.

``HighCard`` is the game and ``registered_toy()`` registers it for a test.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Play
from engine.cards import CARDS, SINGLE_DECK
from engine.errors import IllegalActionError, NotOverError
from engine.forfeit import ScoreBounds
from engine.game import TargetGame
from engine.interface import Deal, Game, Observer
from engine.registry import register_game, unregister_game
from engine.rng import shuffle
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
    __slots__ = (
        "_hands",
        "_history",
        "_phase",
        "_trick",
        "_turn",
        "_won",
        "dealer",
        "rules",
        "seed",
    )

    OVER = ToyPhase.OVER
    num_players = 2

    def __init__(self, hands: list[list[int]], *, dealer: int) -> None:
        # A game brings its own rules object; the toy's only rule parameter is its name.
        self.rules = _ToyRules()
        self.dealer = dealer
        self.seed = 0
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
        other.seed = self.seed
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


@dataclass(frozen=True)
class _ToyRules:
    """The toy's rules: a value, equal whenever read again (its only variant's)."""

    name: str = "highcard"
    players: int = 2
    target: int = 5

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name}


def shuffled_pack(seed: int) -> list[int]:
    """The single deck in the order ``seed`` shuffles it: three cards to each player, the
    rest unused."""
    return shuffle([int(card) for card in SINGLE_DECK.cards()], seed)


def new_toy_hand(variant: str, *, seed: int, dealer: int = 0, rules: object = None) -> ToyState:
    check_seat(dealer, 2, "dealer")
    pack = shuffled_pack(seed)
    state = ToyState([pack[0:3], pack[3:6]], dealer=dealer)
    state.seed = seed
    return state


class ToyGame(TargetGame[ToyState, ToyResult]):
    """Hands of the toy until one player leads with ``target`` tricks or more."""

    deal_hand = staticmethod(new_toy_hand)

    @staticmethod
    def default_rules(variant: str) -> _ToyRules:
        return _ToyRules()

    def _settle(self, result: ToyResult) -> tuple[bool, int | None]:
        level = self.scores[0] == self.scores[1]
        winner = None if level else (0 if self.scores[0] > self.scores[1] else 1)
        over = self._at_limit() or (max(self.scores) >= self.rules.target and not level)
        return over, winner if over else None


class HighCard(Game[_ToyRules, ToyState]):
    """The toy as the registry knows it."""

    name = "toy"
    variants = {"highcard": "High card"}
    observer = Observer[ToyState]()
    target_game = ToyGame

    @classmethod
    def preset(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> _ToyRules:
        return _ToyRules()

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> _ToyRules:
        return _ToyRules()

    def new_initial_state(self, seed: int, dealer: int = 0) -> ToyState:
        return new_toy_hand(self.variant, seed=seed, dealer=dealer)

    def initial_deal(self, state: ToyState) -> Deal:
        again = self.new_initial_state(state.seed, state.dealer)
        unused = tuple(str(CARDS[face]) for face in shuffled_pack(state.seed)[6:])
        return Deal(tuple(again.hand(seat) for seat in range(2)), (("unused", unused),))

    def parse_action(self, text: str) -> Action:
        return Action.parse(text)

    def score_bounds(self, state: ToyState) -> ScoreBounds:
        """A seat keeps the tricks it won and may win every trick still to play."""
        if state.is_terminal():
            return ScoreBounds(state.result().tricks, state.result().tricks)
        left = (len(state._hands[0]) + len(state._hands[1]) + len(state._trick)) // 2
        won = tuple(state._won)
        return ScoreBounds(won, tuple(tricks + left for tricks in won))

    def worst_case_bounds(self) -> ScoreBounds:
        return ScoreBounds((0, 0), (3, 3))


@contextmanager
def registered_toy() -> Iterator[type[HighCard]]:
    """The toy registered for the ``with`` block, and the registry put back after."""
    register_game(HighCard)
    try:
        yield HighCard
    finally:
        unregister_game(HighCard.name)
