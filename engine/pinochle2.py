"""Two-hand pinochle with a stock (RULES.md section 7.1): the game as the registry knows
it, and what a reader may see of its hands (the stock stays face down; its turned-up
card and every meld on the table are public)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.forfeit import ScoreBounds, finished_bounds
from engine.interface import seat_number
from engine.pinochle import PinochleGame, TrickObserver
from engine.pinochle_forfeit import twohand_bounds, worst_case_bounds
from engine.registry import register_game
from engine.rules import Pinochle2Rules
from engine.trickstate import TrickTakingState
from engine.twohand import TwoHandGame, TwoHandState, new_twohand_hand, twohand_from_cards

__all__ = ["Pinochle2", "Pinochle2Observer"]


class Pinochle2Observer(TrickObserver):
    def open_view(self, state: TrickTakingState) -> dict[str, Any]:
        view = super().open_view(state)
        assert isinstance(state, TwoHandState)
        view["stock"] = [str(card) for card in state.stock]
        return view

    def table(
        self,
        view: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        name: Callable[[int], str] = seat_number,
    ) -> dict[str, Any]:
        """The trick game's table with the melds laid on the table under each seat, and
        the stock: its size and turned-up trump (the whole stock in the open view)."""
        table = super().table(view, teams, name)
        for entry, laid in zip(table["seats"], (view.get("table") or ()), strict=False):
            if laid:
                rows = [{"label": None, "cards": laid}]
                entry["groups"].append({"label": "Melded, on the table", "rows": rows})
        if "stock_size" in view:
            turned_up = view.get("turned_up")
            label = f"Stock: {view['stock_size']} cards" + (", turned up:" if turned_up else "")
            table["areas"].append({"label": label, "cards": [turned_up] if turned_up else []})
        if "stock" in view:
            table["areas"].append(
                {"label": "Stock from the top (open view)", "cards": view["stock"]}
            )
        return table


class Pinochle2(PinochleGame[Pinochle2Rules]):
    """Two-hand pinochle: one variant, to the target."""

    name = "pinochle2"
    variants = {"twohand": "Two-hand with stock"}
    observer = Pinochle2Observer()
    rules_type = Pinochle2Rules
    bot_family = "twohand"
    target_game = TwoHandGame
    deals = staticmethod(new_twohand_hand)
    from_cards = staticmethod(twohand_from_cards)
    undealt = ("stock",)

    def score_bounds(self, state: TrickTakingState) -> ScoreBounds:
        """Meld laid and counters taken are kept (``engine.pinochle_forfeit``)."""
        finished = finished_bounds(state)
        if finished is not None:
            return finished
        assert isinstance(state, TwoHandState)
        return twohand_bounds(state)

    def worst_case_bounds(self) -> ScoreBounds:
        # The turned-up dix and the exchange score only where there is a stock.
        extras = self.rules.turned_dix + self.rules.dix_exchange
        return worst_case_bounds(self.rules, len(self.teams), extras)


register_game(Pinochle2)
