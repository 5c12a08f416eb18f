"""The auction shared by the bidding pinochle games (RULES.md section 2.2).

Four-hand and three-hand pinochle bid the same way: in turn from the dealer's left, each
player bids higher on the variant's ladder or passes for good; when all but one have
passed after a bid, the last bid is the contract; with nobody bidding, the dealer is stuck
at the minimum (or, under ``all_pass = redeal``, the hand is passed out). A state class
mixes this in and keeps its own seats, ``_end_auction`` (what follows the contract) and
``_finish``.
"""

from __future__ import annotations

from typing import Protocol

from engine.actions import PASS, PASS_WITH_HELP, Action, Bid, PassWithHelp
from engine.errors import IllegalActionError
from engine.results import HandOutcome
from engine.rules import AllPass, Rules

__all__ = ["AuctionMixin", "Bidding"]


class Bidding(Protocol):
    """What the auction needs of a state (its slots hold these)."""

    num_players: int
    rules: Rules
    _turn: int
    _active: int
    """Players who have not passed."""
    _passed: list[bool]
    _high_rung: int
    """Index in ``rules.bids`` of the highest bid so far, -1 before any bid."""
    _high_bidder: int
    _auction: list[tuple[int, Action]]

    def _end_auction(self) -> None: ...
    def _finish(self, outcome: HandOutcome) -> None: ...
    def _dealer_stuck(self) -> bool: ...
    def _bid_rungs(self) -> range: ...
    def _next_bidder(self) -> None: ...


class AuctionMixin:
    """Bidding, mixed into a state class that satisfies ``Bidding``."""

    __slots__ = ()

    def _dealer_stuck(self: Bidding) -> bool:
        return (
            self._active == 1
            and self._high_bidder < 0
            and self.rules.all_pass is AllPass.DEALER_STUCK
        )

    def _bid_rungs(self: Bidding) -> range:
        """The ladder rungs (indexes into ``rules.bids``) the current player may bid."""
        if self._dealer_stuck():
            return range(1)
        low = self._high_rung + 1
        high = len(self.rules.bids)
        limit = self.rules.max_raise_rungs
        if limit is not None:
            high = min(high, low + limit)
        return range(low, high)

    def _pass_actions(self: Bidding) -> tuple[Action, ...]:
        if self._dealer_stuck():
            return ()
        return (PASS, PASS_WITH_HELP) if self.rules.pass_with_help else (PASS,)

    def _apply_bid(self: Bidding, action: Action) -> None:
        assert isinstance(action, Bid)
        rung = self.rules._tables.bid_index.get(action.amount)
        if rung is None:
            raise IllegalActionError(
                action, "bid_ladder", f"{action.amount} is not on the bid ladder"
            )
        rungs = self._bid_rungs()
        if rung not in rungs:
            if self._dealer_stuck():
                rule, reason = "dealer_stuck", f"the stuck dealer must bid {self.rules.min_bid}"
            elif rung < rungs.start:
                high = self.rules.bids[self._high_rung]
                rule, reason = "bid_ladder", f"a bid must be higher than {high}"
            else:
                limit = self.rules.max_raise_rungs
                rule, reason = "bid_ladder", f"a bid may rise at most {limit} steps at once"
            raise IllegalActionError(action, rule, reason)
        self._high_rung = rung
        self._high_bidder = self._turn
        self._auction.append((self._turn, action))
        self._next_bidder()

    def _apply_pass(self: Bidding, action: Action) -> None:
        if self._dealer_stuck():
            raise IllegalActionError(
                action,
                "dealer_stuck",
                f"everybody else passed: the dealer must bid {self.rules.min_bid}",
            )
        if isinstance(action, PassWithHelp) and not self.rules.pass_with_help:
            raise IllegalActionError(action, "pass_with_help", "this variant has no pass with help")
        self._passed[self._turn] = True
        self._active -= 1
        self._auction.append((self._turn, action))
        self._next_bidder()

    def _next_bidder(self: Bidding) -> None:
        if self._active == 0:
            self._finish(HandOutcome.PASSED_OUT)
            return
        if self._active == 1 and self._high_bidder >= 0:
            self._end_auction()
            return
        players = self.num_players
        seat = (self._turn + 1) % players
        while self._passed[seat]:
            seat = (seat + 1) % players
        self._turn = seat
