"""The pinochle games' replays: a hand dealt from a seed or from explicit cards, in the
one replay format of ``engine.replay``.

>>> import random
>>> from engine.hand import new_hand
>>> state = new_hand("single4", seed=3)
>>> state.play_randomly(random.Random(3))
>>> replay = Replay.from_state(state)
>>> Replay.from_json(replay.to_json()).verify() is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.errors import CardParseError
from engine.replay import HandReplay, read_fields
from engine.rules import Pinochle2Rules, Pinochle3Rules, Pinochle4Rules, Rules
from engine.trickstate import TrickTakingState

__all__ = ["Replay"]

_GAMES = frozenset(rules.game for rules in (Pinochle4Rules, Pinochle3Rules, Pinochle2Rules))
"""The games whose replays ``Replay`` reads: those of the pinochle rules classes. A
version-1 document names no game: it is of the four-hand game."""


def _read_cards(deal_data: Any) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(Card.parse(token) for token in hand.split()) for hand in deal_data)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


@dataclass(frozen=True, slots=True)
class Replay(HandReplay[TrickTakingState]):
    """One hand: rules, deal (``seed`` or explicit ``deal``), dealer, actions and result.

    An explicit deal lists the four hands by seat; in the three-hand game the three hands
    then the widow, in the two-hand game the two hands then the stock from the top, the
    turned-up trump last.
    """

    rules: Rules
    seed: int | None
    dealer: int
    actions: tuple[str, ...]
    result: Mapping[str, Any] | None
    deal: tuple[tuple[Card, ...], ...] | None = None

    @property
    def variant(self) -> str:
        return self.rules.name

    @classmethod
    def from_state(cls, state: TrickTakingState) -> Replay:
        """The replay of ``state``'s hand so far (its result too once it is over)."""
        return cls.of_hand(state, None if state.seed is not None else state._initial_deal())

    def _deal_json(self) -> Any:
        # In deal order: a two-hand stock's order matters (a four-hand deal is sorted).
        return None if self.deal is None else [_cards_text(part) for part in self.deal]

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str | bytes) -> Replay:
        """Read a replay (a dict, JSON text or UTF-8 bytes); ``ReplayError`` when malformed."""
        return cls(
            *read_fields(
                data,
                plays=lambda game: game is None or game in _GAMES,
                of="a pinochle game",
                read_rules=Rules.from_json,
                read_deal=_read_cards,
                refused=(CardParseError,),
            )
        )

    def initial_state(self) -> TrickTakingState:
        # Imported here: the registry's games import this module.
        from engine.pinochle import PinochleGame
        from engine.registry import load_game

        game = load_game(self.variant, rules=self.rules)
        assert isinstance(game, PinochleGame)
        if self.deal is None:
            assert self.seed is not None
            return game.new_initial_state(self.seed, self.dealer)
        return game.state_from_deal(self.deal, self.dealer)
