"""Why a card table refuses a request: the services' refusals (``arena.errors``), each with
its HTTP status; none changes anything."""

from __future__ import annotations

from arena.errors import Conflict, InvalidInput, NotAllowed, NotFound, ServiceError


class LobbyError(ServiceError):
    """A refused request; ``status`` is the HTTP status the pages and the API answer."""


class TableNotFound(LobbyError, NotFound):
    """No such table."""


class BadTable(LobbyError, InvalidInput):
    """A table cannot be set up as asked (variant, rules, target, clock, seats)."""


class SeatTaken(LobbyError, Conflict):
    """The seat is not free, or the person already sits at the table."""


class TooManyTables(LobbyError, Conflict):
    """The person hosts as many open tables as one may (``LOBBY_OPEN_TABLES_MAX``)."""


class NotSeated(LobbyError, NotAllowed):
    """The person does not sit at the table (or may not sit where they asked)."""


class NotHost(LobbyError, NotAllowed):
    """Only the table's host may do this."""


class StalePly(LobbyError, Conflict):
    """The action answers a ply that is no longer the table's: a stale or repeated submit."""


class NotYourTurn(LobbyError, Conflict):
    """Another seat is to act, the game has not started, or it is over."""


class IllegalAction(LobbyError):
    """The engine refused the action; ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule
