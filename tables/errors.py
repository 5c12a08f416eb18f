"""Why a table refuses a request: kinds of the services' refusals (``arena.errors``), each
with its HTTP status; none changes anything."""

from __future__ import annotations

from arena.errors import Conflict, NotFound, ServiceError


class PlayError(ServiceError):
    """A refused request; ``status`` is the HTTP status the pages and the API answer."""


class TableNotFound(PlayError, NotFound):
    """No such table, or one the reader may not see (the two are not told apart)."""


class StalePly(PlayError, Conflict):
    """The action answers a ply that is no longer the table's: a stale or repeated submit."""


class NotYourTurn(PlayError, Conflict):
    """It is a bot's turn, or the hand is over."""


class IllegalAction(PlayError):
    """The engine refused the action; ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class BadTable(PlayError):
    """A table cannot be set up as asked (variant, seats, seed, dealer)."""


class TooManyTables(PlayError, Conflict):
    """The player has as many casual tables open as one may (``PLAY_OPEN_TABLES_MAX``)."""
