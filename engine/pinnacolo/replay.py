"""Pinnacolo replays: ``(rules, seed or deal, dealer, actions)`` plus the result, as JSON.

>>> import random
>>> state = new_hand("pinnacolo3", seed=8, dealer=2)
>>> state.play_randomly(random.Random(8))
>>> replay = PinnacoloReplay.from_state(state)
>>> PinnacoloReplay.from_json(replay.dumps()).verify() is None
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError, ReplayError, RulesError
from engine.pinnacolo.actions import parse_action
from engine.pinnacolo.rules import PinnacoloRules
from engine.pinnacolo.state import PinnacoloHand, hand_from_cards, new_hand
from engine.replay import (
    REPLAY_FORMAT,
    REPLAY_VERSION,
    ReplayDifference,
    _first_difference,
    load_replay_document,
    migrate_replay,
)
from engine.rng import DEAL_GENERATOR

__all__ = ["PINNACOLO_REPLAY_FORMAT", "PinnacoloReplay"]

PINNACOLO_REPLAY_FORMAT = REPLAY_FORMAT
"""Pinnacolo replays are written in the one replay format (version 1 had its own)."""


@dataclass(frozen=True, slots=True)
class PinnacoloDeal:
    """An explicit deal: hands, pile (bottom first), stock (next card first)."""

    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    stock: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PinnacoloReplay:
    """One hand: rules, deal (``seed`` or explicit ``deal``), dealer, actions and result."""

    rules: PinnacoloRules
    seed: int | None
    dealer: int
    actions: tuple[str, ...]
    result: Mapping[str, Any] | None
    deal: PinnacoloDeal | None = None

    @classmethod
    def from_state(cls, state: PinnacoloHand) -> PinnacoloReplay:
        deal = None
        if state.seed is None:
            hands, pile, stock = state.initial_cards()
            deal = PinnacoloDeal(hands, pile, stock)
        return cls(
            rules=state.rules,
            seed=state.seed,
            dealer=state.dealer,
            actions=tuple(str(action) for action in state.actions),
            result=state.result().to_json() if state.is_terminal() else None,
            deal=deal,
        )

    def to_json(self) -> dict[str, Any]:
        deal = self.deal
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "game": self.rules.game,
            "variant": self.rules.name,
            "rules": self.rules.to_json(),
            "generator": DEAL_GENERATOR,
            "seed": self.seed,
            "dealer": self.dealer,
            "deal": None
            if deal is None
            else {
                "hands": [" ".join(hand) for hand in deal.hands],
                "pile": " ".join(deal.pile),
                "stock": " ".join(deal.stock),
            },
            "actions": list(self.actions),
            "result": None if self.result is None else dict(self.result),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str | bytes) -> PinnacoloReplay:
        """Read a replay (a dict, JSON text or UTF-8 bytes); ``ReplayError`` when malformed."""
        data = migrate_replay(load_replay_document(data))
        if not str(data.get("game", "pinnacolo")).startswith("pinnacolo"):
            raise ReplayError(f"a replay of {data.get('game')!r}, not of Pinnacolo")
        if data.get("generator", DEAL_GENERATOR) != DEAL_GENERATOR:
            raise ReplayError(f"unknown deal generator {data.get('generator')!r}")
        try:
            rules = PinnacoloRules.from_json(data["rules"])
            seed = data.get("seed")
            deal = None
            deal_data = data.get("deal")
            if deal_data is not None:
                deal = PinnacoloDeal(
                    tuple(tuple(hand.split()) for hand in deal_data["hands"]),
                    tuple(deal_data["pile"].split()),
                    tuple(deal_data["stock"].split()),
                )
            elif not isinstance(seed, int):
                raise ReplayError("a replay needs an integer seed or an explicit deal")
            dealer = data.get("dealer", 0)
            actions = data["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise ReplayError("actions must be a list of strings")
            result = data.get("result")
            if result is not None and not isinstance(result, Mapping):
                raise ReplayError("result must be an object or null")
        except KeyError as error:
            raise ReplayError(f"missing field {error.args[0]!r}") from None
        except (RulesError, AttributeError, TypeError) as error:
            raise ReplayError(str(error)) from None
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise ReplayError("dealer must be an integer")
        return cls(rules, seed, dealer, tuple(actions), result, deal)

    def initial_state(self) -> PinnacoloHand:
        if self.deal is not None:
            return hand_from_cards(
                self.rules.name,
                self.deal.hands,
                pile=self.deal.pile,
                stock=self.deal.stock,
                dealer=self.dealer,
                rules=self.rules,
            )
        assert self.seed is not None
        return new_hand(self.rules.name, seed=self.seed, dealer=self.dealer, rules=self.rules)

    def simulate(self) -> PinnacoloHand:
        """Deal and apply every action; raises if an action is unreadable or illegal."""
        state = self.initial_state()
        for text in self.actions:
            state.apply(parse_action(text))
        return state

    def verify(self) -> ReplayDifference | None:
        """Re-simulate and compare with the recorded result: the first difference, or None."""
        try:
            state = self.initial_state()
        except EngineError as error:
            return ReplayDifference("deal", "a valid deal", str(error))
        for index, text in enumerate(self.actions):
            try:
                state.apply(parse_action(text))
            except EngineError as error:
                return ReplayDifference(f"actions[{index}]", text, str(error))
        actual = state.result().to_json() if state.is_terminal() else None
        return _first_difference("result", self.result, actual)
