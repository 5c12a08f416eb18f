"""The engine's exceptions: every one is a ``ValueError`` naming what was wrong."""

from __future__ import annotations

__all__ = [
    "ActionParseError",
    "CardParseError",
    "IllegalActionError",
    "ReplayError",
    "RulesError",
]


class CardParseError(ValueError):
    """A card, a suit or a list of cards is not in the notation of RULES.md section 1."""


class ActionParseError(ValueError):
    """An action's text form could not be read (``bid 260``, ``play TS``...)."""


class IllegalActionError(ValueError):
    """An action is not legal in the current state; ``rule`` names the rule it breaks.

    The state is unchanged when this is raised.
    """

    def __init__(self, action: object, rule: str, reason: str) -> None:
        super().__init__(f"illegal action {str(action)!r}: {reason} (rule: {rule})")
        self.action = action
        self.rule = rule
        self.reason = reason


class RulesError(ValueError):
    """A rule parameter is unknown or has a bad value; ``parameter`` names it."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"rule parameter {parameter!r}: {message}")
        self.parameter = parameter


class ReplayError(ValueError):
    """A replay document is malformed or of an unsupported format or version."""
