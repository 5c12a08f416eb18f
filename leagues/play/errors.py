"""Why a table refuses a request. Each names its HTTP status; none changes anything."""

from __future__ import annotations


class PlayError(Exception):
    """A refused request; ``status`` is the HTTP status the pages and the API answer."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TableNotFound(PlayError):
    """No such table, or one the reader may not see (the two are not told apart)."""

    status = 404


class StalePly(PlayError):
    """The action answers a ply that is no longer the table's: a stale or repeated submit."""

    status = 409


class NotYourTurn(PlayError):
    """It is a bot's turn, or the hand is over."""

    status = 409


class IllegalAction(PlayError):
    """The engine refused the action; ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class BadTable(PlayError):
    """A table cannot be set up as asked (variant, seats, seed, dealer)."""


class TooManyTables(PlayError):
    """The player has as many casual tables open as one may (``PLAY_OPEN_TABLES_MAX``)."""

    status = 409
