"""Pinnacolo as the registry knows it (RULES.md section 8): two pairs, or two, three or
four players each for themselves, and what a reader may see of a hand.

Every seat sees the pile, the melds on the table and who drew, took or discarded what;
a hand and the stock are private.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action
from engine.forfeit import ScoreBounds, score_bounds, worst_case_bounds
from engine.interface import Deal, Game, Observer
from engine.pinnacolo.actions import parse_action
from engine.pinnacolo.game import PinnacoloGame
from engine.pinnacolo.replay import PinnacoloReplay
from engine.pinnacolo.rules import PinnacoloRules, pinnacolo_rules
from engine.pinnacolo.state import PinnacoloHand, new_hand
from engine.registry import register_game

__all__ = ["Pinnacolo", "PinnacoloObserver"]


class PinnacoloObserver(Observer[PinnacoloHand]):
    def step_mark(self, view: Mapping[str, Any]) -> str | None:
        history = view.get("history")
        if history is None:
            return None
        turns = sum(1 for entry in history if entry["action"].split()[0] in ("draw", "take"))
        return f"Turn {turns}" if turns else None


class Pinnacolo(Game[PinnacoloRules, PinnacoloHand]):
    """Pinnacolo's variants: the pairs game, and individual games of 2, 3 or 4 players."""

    name = "pinnacolo"
    variants = {
        "pinnacolo": "Pinnacolo, two pairs",
        "pinnacolo4": "Pinnacolo, four players",
        "pinnacolo3": "Pinnacolo, three players",
        "pinnacolo2": "Pinnacolo, two players",
    }
    partnered = frozenset(name for name in variants if pinnacolo_rules(name).pairs)
    observer = PinnacoloObserver()
    bot_family = "pinnacolo"
    target_game = PinnacoloGame
    card_verbs = frozenset({"discard"})

    @classmethod
    def preset(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> PinnacoloRules:
        return pinnacolo_rules(variant, overrides)

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> PinnacoloRules:
        return PinnacoloRules.from_json(data)

    def new_initial_state(self, seed: int, dealer: int = 0) -> PinnacoloHand:
        return new_hand(self.variant, seed=seed, dealer=dealer, rules=self.rules)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def write_replay(self, state: PinnacoloHand) -> PinnacoloReplay:
        return PinnacoloReplay.from_state(state)

    def read_replay(self, data: Mapping[str, Any]) -> PinnacoloReplay:
        return PinnacoloReplay.from_json(data)

    def score_bounds(self, state: PinnacoloHand) -> ScoreBounds:
        return score_bounds(state)

    def worst_case_bounds(self) -> ScoreBounds:
        return worst_case_bounds(self.rules, len(self.teams))

    def initial_deal(self, state: PinnacoloHand) -> Deal:
        hands, pile, stock = state.initial_cards()
        return Deal(hands, (("pile", pile), ("stock", stock)))


register_game(Pinnacolo)
