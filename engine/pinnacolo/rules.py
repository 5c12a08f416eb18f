"""Pinnacolo's rule parameters (RULES.md section 8): a frozen dataclass with presets.

Every **Decision** of section 8 is a field, so that a league can choose otherwise:

>>> rules = pinnacolo_rules("pinnacolo", {"no_meld_penalty": "double_hand"})
>>> rules.pairs, rules.players, rules.no_meld_penalty
(True, 4, <NoMeldPenalty.DOUBLE_HAND: 'double_hand'>)
>>> PinnacoloRules.from_json(rules.to_json()) == rules
True
>>> pinnacolo_rules("pinnacolo3", {"players": 5})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.RulesError: rule parameter 'players': ...
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import RulesError, UnknownVariantError

# The pinochle rules' reader of enumerated parameters: the same refusal for both families.
from engine.rules import _decode_enum as decode_enum

__all__ = [
    "PINNACOLO_PRESETS",
    "EmptyStock",
    "NoMeldPenalty",
    "PinnacoloRules",
    "TakenCard",
    "pinnacolo_rules",
]


class TakenCard(enum.Enum):
    """When the deepest card taken from the discard pile must be melded the same turn."""

    ALWAYS = "always"
    """Every take, the top card alone included (the preset)."""
    BELOW_TOP = "below_top"
    """Only when it was taken from below the top card (the seed's literal reading)."""


class EmptyStock(enum.Enum):
    """How the hand ends once the stock is exhausted without a closing."""

    DRAW_ENDS = "draw_ends"
    """The preset: players may still take from the pile; the first who must draw from
    the empty stock (``draw``) ends the hand."""
    LAST_CARD_ENDS = "last_card_ends"
    """The hand ends with the discard of the player who drew the stock's last card."""


class NoMeldPenalty(enum.Enum):
    """The score of a player who has laid nothing down when the hand ends."""

    FLAT = "flat"
    """Minus ``no_meld_points`` (200 in the preset), whatever the hand holds."""
    DOUBLE_HAND = "double_hand"
    """Minus twice the value of the cards in hand."""


@dataclass(frozen=True, slots=True)
class PinnacoloRules:
    """One Pinnacolo variant. ``pairs`` seats two partnerships opposite (4 players)."""

    name: str
    players: int
    pairs: bool
    hand_size: int = 13
    taken_card: TakenCard = TakenCard.ALWAYS
    wilds_per_meld: int = 1
    """At most this many wilds in a meld (a Decision), and always fewer than its natural
    cards; a tris holds at most one, a poker none."""
    replaced_wild_melded: bool = True
    """A wild taken back by a replacement must be melded in the same turn (a Decision)."""
    empty_stock: EmptyStock = EmptyStock.DRAW_ENDS
    closing_bonus: int = 100
    one_go_bonus: int = 200
    no_meld_penalty: NoMeldPenalty = NoMeldPenalty.FLAT
    no_meld_points: int = 200
    target: int = 1500
    game: str = "pinnacolo"

    def __post_init__(self) -> None:
        def check(ok: bool, parameter: str, message: str) -> None:
            if not ok:
                raise RulesError(parameter, message)

        check(self.players in (2, 3, 4), "players", "Pinnacolo is for 2, 3 or 4 players")
        check(not self.pairs or self.players == 4, "pairs", "pairs need 4 players")
        check(
            self.hand_size >= 1 and self.hand_size * self.players < 104,
            "hand_size",
            "must be positive and leave a stock",
        )
        check(self.wilds_per_meld >= 1, "wilds_per_meld", "must be at least 1")
        check(self.closing_bonus >= 0, "closing_bonus", "must not be negative")
        check(self.one_go_bonus >= 0, "one_go_bonus", "must not be negative")
        check(self.no_meld_points >= 0, "no_meld_points", "must not be negative")
        check(self.target >= 1, "target", "must be positive")
        check(self.game == "pinnacolo", "game", "must be 'pinnacolo'")

    @property
    def sides(self) -> int:
        """The number of scoring sides: two pairs, or one per player."""
        return 2 if self.pairs else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.pairs else seat

    def replace(self, **changes: Any) -> PinnacoloRules:
        return dataclasses.replace(self, **_decode_all(changes))

    def to_json(self) -> dict[str, Any]:
        return {
            f.name: (value.value if isinstance(value, enum.Enum) else value)
            for f in dataclasses.fields(self)
            for value in (getattr(self, f.name),)
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PinnacoloRules:
        if not isinstance(data, Mapping):
            raise RulesError("rules", "expected an object")
        values = _decode_all(data)
        missing = [f.name for f in _FIELDS if f.name not in values and f.name in _REQUIRED]
        if missing:
            raise RulesError(missing[0], "missing parameter")
        return cls(**values)


_FIELDS = dataclasses.fields(PinnacoloRules)
_FIELD_NAMES = tuple(f.name for f in _FIELDS)
_REQUIRED = ("name", "players", "pairs")
_ENUMS: dict[str, type[enum.Enum]] = {
    "taken_card": TakenCard,
    "empty_stock": EmptyStock,
    "no_meld_penalty": NoMeldPenalty,
}


def _decode(name: str, value: Any) -> Any:
    if name in _ENUMS:
        return decode_enum(name, _ENUMS[name], value)
    if name in ("name", "game"):
        if not isinstance(value, str) or not value:
            raise RulesError(name, f"expected a non-empty string, got {value!r}")
        return value
    if name in ("pairs", "replaced_wild_melded"):
        if not isinstance(value, bool):
            raise RulesError(name, f"expected true or false, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(name, f"expected an integer, got {value!r}")
    return value


def _decode_all(data: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _FIELD_NAMES:
            raise RulesError(key, f"unknown parameter (known: {', '.join(_FIELD_NAMES)})")
        values[key] = _decode(key, value)
    return values


PINNACOLO_PRESETS: dict[str, PinnacoloRules] = {
    rules.name: rules
    for rules in (
        PinnacoloRules(name="pinnacolo", players=4, pairs=True),
        PinnacoloRules(name="pinnacolo2", players=2, pairs=False),
        PinnacoloRules(name="pinnacolo3", players=3, pairs=False),
        PinnacoloRules(name="pinnacolo4", players=4, pairs=False),
    )
}
"""``pinnacolo`` is two pairs; ``pinnacolo2``/``3``/``4`` are individual games."""


def pinnacolo_rules(variant: str, overrides: Mapping[str, Any] | None = None) -> PinnacoloRules:
    """The preset named ``variant``, with a league's ``overrides`` applied."""
    try:
        base = PINNACOLO_PRESETS[variant]
    except KeyError:
        raise UnknownVariantError(variant, PINNACOLO_PRESETS, "Pinnacolo") from None
    return base.replace(**overrides) if overrides else base
