"""A table's game rebuilt from its seed and its action log, through the engine's TargetGame.

A game is nothing but its variant, rules, target, seed, first dealer and the actions taken:
the engine deals each hand from the game's seed and re-applies the log, so a reload, a
second worker or a restarted server see exactly the same game. Replaying a whole game for
every move would cost more with each hand, so each process keeps the latest rebuilt game
of each table (``_CACHE``) and only applies the actions added since; what it keeps is a
copy, so a caller's changes never reach it, and it is keyed by the table's seed and log
prefix, so a table made anew under a reused number is rebuilt from scratch.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.game import TargetGame
from engine.interface import AnyGame, AnyState
from engine.registry import load_game
from tables.referee import Hand

__all__ = ["GameReplay", "forget", "rebuild", "rules_of", "target_rules"]

HANDS_TARGET_SCORE = 10**9
"""The score target of a game played to a number of hands: never reached, so the hands
limit ends the game (the higher score wins; equal scores are a draw)."""

CACHE_TABLES = 256
"""How many tables' games a process keeps rebuilt (the least recently used go first)."""


def rules_of(variant: str, rules: Mapping[str, Any]) -> Any:
    """The table's rules, read back from their JSON by the variant's game."""
    return load_game(variant).rules_from_json(rules)


def target_rules(
    game: AnyGame, target: Mapping[str, Any], overrides: Mapping[str, Any] | None
) -> Any:
    """The rules of a table: the variant's preset changed by ``overrides``, its ``target``
    the table's score target, or (a game of a number of hands) a target never reached, so
    that the hands limit ends the game."""
    score = int(target["value"]) if target["kind"] == "score" else HANDS_TARGET_SCORE
    return game.rules_for({**(overrides or {}), "target": score})


@dataclass
class GameReplay:
    """A table's game rebuilt from its log: the live game and who made each move."""

    game: AnyGame
    state: TargetGame[Any, Any]
    actors: list[int] = field(default_factory=list)
    hands: list[int] = field(default_factory=list)
    """The hand (0-based) each action belongs to."""
    actions: list[str] = field(default_factory=list)
    hand_start: int = 0
    """The ply at which the current hand began."""
    initial_hands: list[list[str]] = field(default_factory=list)
    """The cards each seat was dealt in the current hand."""
    last_hand: AnyState | None = None
    """The previous hand as it ended (none before the first hand ends)."""

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def current(self) -> int | None:
        return None if self.state.is_terminal() else self.state.current_player

    @property
    def hand_no(self) -> int:
        """The current hand's number, from 1 (the last hand's once the game is over)."""
        return self.state.hand_number + (0 if self.state.is_terminal() else 1)

    @property
    def hand(self) -> AnyState:
        """The hand in play (the last hand, as it ended, once the game is over)."""
        if self.state.is_terminal():
            assert self.last_hand is not None
            return self.last_hand
        hand: AnyState = self.state.current_hand
        return hand

    def apply(self, text: str) -> str:
        """Apply one action (the engine referees); return its canonical text."""
        action = self.game.parse_action(text)
        actor = self.state.current_player
        number = self.state.hand_number
        before = self.state.current_hand
        self.state.apply(action)
        assert actor is not None
        canonical = str(action)
        self.actors.append(actor)
        self.hands.append(number)
        self.actions.append(canonical)
        if self.state.hand_number != number:
            self.last_hand = before
            if not self.state.is_terminal():
                self._hand_dealt()
        return canonical

    def _hand_dealt(self) -> None:
        self.hand_start = len(self.actions)
        hand = self.state.current_hand
        self.initial_hands = [[str(card) for card in hand.hand(s)] for s in range(self.players)]

    @property
    def players(self) -> int:
        return self.game.players

    def hand_for_bots(self) -> Hand:
        """The current hand as the play tables' referee holds one, so that its bots (the
        reference bots in this process, arena versions in the sandbox) decide here too: a
        bot hears the current hand from its deal, as at the start of a board."""
        return Hand(
            game=self.game,
            rules=self.game.rules,
            state=self.state.current_hand.copy(),
            actors=self.actors[self.hand_start :],
            actions=self.actions[self.hand_start :],
            initial_hands=[list(cards) for cards in self.initial_hands],
        )

    def copy(self) -> GameReplay:
        return GameReplay(
            game=self.game,
            state=self.state.copy(),
            actors=list(self.actors),
            hands=list(self.hands),
            actions=list(self.actions),
            hand_start=self.hand_start,
            initial_hands=[list(cards) for cards in self.initial_hands],
            last_hand=None if self.last_hand is None else self.last_hand.copy(),
        )


_CACHE: OrderedDict[int, tuple[tuple[Any, ...], GameReplay]] = OrderedDict()
_LOCK = threading.Lock()


def _fresh(
    variant: str, rules: Mapping[str, Any], target: Mapping[str, Any], seed: int, dealer: int
) -> GameReplay:
    game = load_game(variant, rules=rules_of(variant, rules))
    max_hands = int(target["value"]) if target["kind"] == "hands" else None
    state = game.new_target_game(seed, dealer, max_hands=max_hands)
    replay = GameReplay(game=game, state=state)
    replay._hand_dealt()
    return replay


def rebuild(
    *,
    table_id: int,
    variant: str,
    rules: Mapping[str, Any],
    target: Mapping[str, Any],
    seed: int,
    dealer: int,
    actions: Sequence[str],
) -> GameReplay:
    """The table's game after ``actions``: the process's latest copy of it carried forward
    when it is a prefix of this log, else dealt again from the seed."""
    key = (variant, seed, dealer, repr(sorted(rules.items())), repr(sorted(target.items())))
    with _LOCK:
        kept = _CACHE.get(table_id)
        if kept is not None:
            _CACHE.move_to_end(table_id)
    replay: GameReplay | None = None
    if kept is not None:
        kept_key, kept_replay = kept
        done = kept_replay.ply
        if kept_key == key and done <= len(actions) and kept_replay.actions == list(actions[:done]):
            replay = kept_replay.copy()
    if replay is None:
        replay = _fresh(variant, rules, target, seed, dealer)
    for text in actions[replay.ply :]:
        replay.apply(text)
    with _LOCK:
        _CACHE[table_id] = (key, replay.copy())
        _CACHE.move_to_end(table_id)
        while len(_CACHE) > CACHE_TABLES:
            _CACHE.popitem(last=False)
    return replay


def forget(table_id: int | None = None) -> None:
    """Drop what the process keeps of one table (``None``: of every table)."""
    with _LOCK:
        if table_id is None:
            _CACHE.clear()
        else:
            _CACHE.pop(table_id, None)
