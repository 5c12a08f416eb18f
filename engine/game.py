"""A game: successive hands to the target, the dealer rotating (RULES.md section 5).

>>> import random
>>> from engine.hand import Phase
>>> game = GameState("single4", seed=11)
>>> rng = random.Random(11)
>>> while not game.is_terminal():  # pass whenever allowed, otherwise play at random
...     legal = game.legal_actions
...     cautious = game.phase is Phase.AUCTION
...     game.apply(legal[0 if cautious else rng.randrange(len(legal))])
>>> game.winner in (0, 1), max(game.scores) >= 150
(True, True)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from engine.actions import Action
from engine.agents import ActionView
from engine.errors import IllegalActionError, NotOverError, RulesError
from engine.hand import HandState, new_hand
from engine.results import HandResult
from engine.rng import splitmix64_output
from engine.rules import pinochle_rules
from engine.seats import check_seat, left_of
from engine.state import Scored, State

__all__ = ["GameResult", "GameState", "TargetGame", "check_max_hands", "hand_seed"]


def check_max_hands(max_hands: int | None) -> None:
    """Refuse a bound on a game's hands that is not a whole number of at least one."""
    if max_hands is not None and (
        isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1
    ):
        raise RulesError("max_hands", f"must be an integer of at least 1, not {max_hands!r}")


def hand_seed(game_seed: int, hand_number: int) -> int:
    """The deal seed of hand ``hand_number`` (0-based): SplitMix64 outputs of the game seed."""
    return splitmix64_output(game_seed, hand_number)


R = TypeVar("R", bound=Scored)
H = TypeVar("H", bound=State[Any, Any])


@dataclass(frozen=True, slots=True)
class GameResult(Generic[R]):
    """A finished game: the winning side (``None``: a draw at the hand limit), the final
    scores by side and every hand's result.
    """

    winner: int | None
    scores: tuple[int, ...]
    hands: tuple[R, ...]

    @property
    def team_scores(self) -> tuple[int, ...]:
        """The final scores by side, as a hand's result gives its own."""
        return self.scores

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "hands": [hand.to_json() for hand in self.hands],
        }


class TargetGame(State[enum.Enum, ActionView], Generic[H, R]):
    """The one game-to-target driver of every game: hands dealt from ``hand_seed(seed,
    n)``, the dealer moving one seat left each hand, each hand's ``team_scores`` added to
    its sides' totals until ``_settle`` says the game is over.

    A whole game is a ``State`` like its hands, so that whatever drives a hand (``play``,
    a bot, the referee) drives a game the same way: ``current_player``, ``phase``,
    ``legal_actions``, ``apply``, ``observation`` and ``hand`` pass through to the
    ``current_hand``, and the next hand is dealt as soon as one ends; ``history`` is every
    hand's actions and ``result()`` the finished game. ``max_hands`` bounds a game whose
    players never reach the target (random bidders often go down forever). A game names
    its hand factory (``deal_hand``), its rules presets (``default_rules``), its action
    parser, and the rule that settles the game (``_settle``); its rules
    give ``name``, ``players`` and ``target``.
    """

    # The hand factory, a class-level hook (a ClassVar may not name ``H``, the hand).
    deal_hand: ClassVar[Callable[..., Any]]
    seed: int
    """The game's seed, from which each hand's is drawn (``hand_seed``)."""

    @staticmethod
    def default_rules(variant: str) -> Any:
        """The variant's preset, when no rules are given."""
        return pinochle_rules(variant)

    @staticmethod
    def parse_action(text: str) -> Any:
        """An action from its text form."""
        return Action.parse(text)

    def write_replay(self, state: H) -> Any:
        """The replay of a finished hand, as its game writes it (``Game.write_replay``)."""
        # Imported here: the registry's games import this module.
        from engine.registry import load_game

        return load_game(self.rules.name, rules=self.rules).write_replay(state)

    @property
    def sides(self) -> int:
        """How many totals the game keeps: one a player (a subclass may pair them)."""
        players: int = self.rules.players
        return players

    def __init__(
        self,
        variant: str,
        *,
        seed: int,
        dealer: int = 0,
        rules: Any = None,
        max_hands: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else self.default_rules(variant)
        if self.rules.name != variant:
            raise RulesError("name", f"the rules are for {self.rules.name!r}, not {variant!r}")
        check_max_hands(max_hands)
        check_seat(dealer, self.rules.players, "dealer")
        self.num_players = self.rules.players
        self.max_hands = max_hands
        self.finished = False
        self.seed = seed
        self.first_dealer = dealer
        self.results: list[R] = []
        self.replays: list[Any] = []
        self.winner: int | None = None
        self._actions: list[Any] = []
        self.scores = [0] * self.sides
        self.current_hand: H = self._deal(0)

    def _deal(self, number: int) -> H:
        self.dealer = left_of(self.first_dealer, self.num_players, number)
        hand: H = self.deal_hand(
            self.rules.name,
            seed=hand_seed(self.seed, number),
            dealer=self.dealer,
            rules=self.rules,
        )
        return hand

    @property
    def hand_number(self) -> int:
        return len(self.results)

    @property
    def phase(self) -> enum.Enum:
        phase: enum.Enum = self.current_hand.phase
        return phase

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.current_hand.current_player

    @property
    def legal_actions(self) -> ActionView:
        view: ActionView = self.current_hand.legal_actions
        return view

    def is_terminal(self) -> bool:
        return self.finished

    @property
    def history(self) -> tuple[Any, ...]:
        """Every action of the game so far, all hands in order."""
        return tuple(self._actions)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self.current_hand.teams

    def hand(self, seat: int) -> Sequence[object]:
        """The cards ``seat`` holds now, in the current hand."""
        return self.current_hand.hand(seat)

    def apply(self, action: Any) -> None:
        """Apply an action to the current hand; score it and deal the next when it ends."""
        if self.finished:
            raise IllegalActionError(action, "game_over", "the game is over")
        if isinstance(action, str):
            action = self.parse_action(action)
        self.current_hand.apply(action)
        self._actions.append(action)
        if not self.current_hand.is_terminal():
            return
        result = cast(R, self.current_hand.result())
        self.results.append(result)
        self.replays.append(self.write_replay(self.current_hand))
        for side, score in enumerate(result.team_scores):
            self.scores[side] += score
        over, self.winner = self._settle(result)
        if over:
            self.finished = True
        else:
            self.current_hand = self._deal(len(self.results))

    def _at_limit(self) -> bool:
        return self.max_hands is not None and len(self.results) >= self.max_hands

    def _settle(self, result: R) -> tuple[bool, int | None]:
        """Whether the game is over after ``result``, and its winner (``None``: a draw)."""
        raise NotImplementedError

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        other.__setstate__(self.__getstate__())
        other.scores = list(self.scores)
        other.results = list(self.results)
        other.replays = list(self.replays)
        other._actions = list(self._actions)
        other.current_hand = self.current_hand.copy()
        return other

    def observation(self, seat: int) -> dict[str, Any]:
        """The current hand's observation for ``seat`` plus the game: ``hand_number``,
        ``previous_hand`` (the last finished hand's result), ``game_scores`` (by side),
        ``target`` and ``game_winner``.
        """
        return {
            **self.current_hand.observation(seat),
            "hand_number": len(self.results),
            "previous_hand": self.results[-1].to_json() if self.results else None,
            "game_scores": list(self.scores),
            "target": self.rules.target,
            "game_winner": self.winner,
        }

    def result(self) -> GameResult[R]:
        if not self.finished:
            raise NotOverError("the game is not over: it has no result yet")
        return GameResult(self.winner, tuple(self.scores), tuple(self.results))

    # A game keeps its attributes in its ``__dict__``, which the hand states' pickling
    # (their slots and their core's fields) does not read.

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), **self.__dict__}


class GameState(TargetGame[HandState, HandResult]):
    """A four-hand game: the hands of ``rules.name`` until a team reaches ``rules.target``.

    If both reach it on the same hand the declaring team wins. After ``max_hands`` hands
    the higher score wins, and equal scores are a draw (``winner`` stays ``None``).
    """

    deal_hand = staticmethod(new_hand)
    sides = 2

    def _settle(self, result: HandResult) -> tuple[bool, int | None]:
        reached = [team for team in (0, 1) if self.scores[team] >= self.rules.target]
        if len(reached) == 2:
            return True, result.declaring_team
        if reached:
            return True, reached[0]
        if self._at_limit():
            tied = self.scores[0] == self.scores[1]
            return True, None if tied else (0 if self.scores[0] > self.scores[1] else 1)
        return False, None
