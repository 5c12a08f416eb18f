"""The engine's exceptions: every refusal is an ``EngineError``, a ``ValueError`` naming
what was wrong. A refused call changes nothing; ``python -m engine`` prints the message
on one line and exits 2.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ActionParseError",
    "CardError",
    "CardParseError",
    "CardsContradicted",
    "EngineError",
    "EntryRejected",
    "IllegalActionError",
    "MeldError",
    "NotOverError",
    "RegistryError",
    "ReplayError",
    "RulesError",
    "SeatError",
    "SeedError",
    "StateError",
    "TrickError",
    "UnknownVariantError",
]


class EngineError(ValueError):
    """Base of every refusal by the engine: bad input, and nothing was changed."""


class CardError(EngineError):
    """Cards do not fit the deck or the deal: no such face, too many copies, wrong hand size."""


class CardParseError(CardError):
    """A card, a suit or a list of cards is not in the notation of RULES.md section 1."""


class ActionParseError(EngineError):
    """An action's text form could not be read (``bid 260``, ``play TS``...)."""


class IllegalActionError(EngineError):
    """An action is not legal in the current state; ``rule`` names the rule it breaks.

    The state is unchanged when this is raised.
    """

    def __init__(self, action: object, rule: str, reason: str) -> None:
        super().__init__(f"illegal action {str(action)!r}: {reason} (rule: {rule})")
        self.action = action
        self.rule = rule
        self.reason = reason


class MeldError(EngineError):
    """Pinnacolo cards do not form the meld they were offered as; ``rule`` names the rule."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} (rule: {rule})")
        self.rule = rule
        self.reason = reason


class RulesError(EngineError):
    """A rule parameter is unknown or has a bad value; ``parameter`` names it."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"rule parameter {parameter!r}: {message}")
        self.parameter = parameter


class UnknownVariantError(RulesError):
    """A variant name is not known to the engine, or not one of the game it was given to."""

    def __init__(self, variant: object, known: Iterable[str], game: str | None = None) -> None:
        names = ", ".join(known)
        where = f"a {game} variant" if game else "a known variant"
        EngineError.__init__(self, f"{variant!r} is not {where} (known: {names})")
        self.parameter = "variant"
        self.variant = variant


class ReplayError(EngineError):
    """A replay document is malformed or of an unsupported format or version."""


class SeatError(EngineError):
    """A seat (a dealer, an observer, one agent per seat) is not a seat of the game."""


class SeedError(EngineError):
    """A seed is not an integer from 0 to 2**64 - 1, or an output index is negative."""


class StateError(EngineError):
    """A hand state's fields were changed from outside: it holds no hand to play on."""


class TrickError(EngineError):
    """A trick is empty where a card is needed, or holds more cards than a trick can."""


class NotOverError(EngineError):
    """A result was asked of a hand or a game that is not over yet."""


class RegistryError(EngineError):
    """A game cannot be registered: one of its variants already belongs to another game."""


class EntryRejected(EngineError):
    """A table's paper score entry breaks a rule of the variant; ``rule`` names it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class CardsContradicted(EntryRejected):
    """The entry is impossible with the dealt cards; the message says what the cards hold."""
