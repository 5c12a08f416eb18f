"""Pinnacolo replays: ``(rules, seed or deal, dealer, actions)`` plus the result, as JSON.

>>> import random
>>> state = new_hand("pinnacolo3", seed=8, dealer=2)
>>> state.play_randomly(random.Random(8))
>>> replay = PinnacoloReplay.from_state(state)
>>> PinnacoloReplay.from_json(replay.dumps()).verify() is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.pinnacolo.actions import parse_action
from engine.pinnacolo.rules import PinnacoloRules
from engine.pinnacolo.state import PinnacoloHand, hand_from_cards, new_hand
from engine.replay import REPLAY_FORMAT, HandReplay, read_fields

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
class PinnacoloReplay(HandReplay[PinnacoloHand]):
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
            hands, pile, stock = state._initial_deal()
            deal = PinnacoloDeal(hands, pile, stock)
        return cls.of_hand(state, deal)

    def _deal_json(self) -> Any:
        deal = self.deal
        if deal is None:
            return None
        return {
            "hands": [" ".join(hand) for hand in deal.hands],
            "pile": " ".join(deal.pile),
            "stock": " ".join(deal.stock),
        }

    @staticmethod
    def _parse(text: str) -> Action:
        return parse_action(text)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str | bytes) -> PinnacoloReplay:
        """Read a replay (a dict, JSON text or UTF-8 bytes); ``ReplayError`` when malformed."""
        return cls(
            *read_fields(
                data,
                plays=lambda game: str(game or "pinnacolo").startswith("pinnacolo"),
                of="Pinnacolo",
                read_rules=PinnacoloRules.from_json,
                read_deal=_read_deal,
            )
        )

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


def _read_deal(deal_data: Any) -> PinnacoloDeal:
    return PinnacoloDeal(
        tuple(tuple(hand.split()) for hand in deal_data["hands"]),
        tuple(deal_data["pile"].split()),
        tuple(deal_data["stock"].split()),
    )
