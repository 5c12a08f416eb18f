"""Three-hand pinochle with a widow, every player for themselves (RULES.md section 7):
the game as the registry knows it, and what a reader may see of its hands.

The widow is shown to every seat once the declarer takes it, or to the declarer alone
(``widow_public``); the buried cards to the declarer until the tricks are played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action, Bury
from engine.cutthroat import (
    CutthroatGame,
    CutthroatState,
    cutthroat_from_cards,
    new_cutthroat_hand,
)
from engine.interface import seat_number
from engine.pinochle import PinochleGame, TrickObserver
from engine.registry import register_game
from engine.rules import Pinochle3Rules
from engine.trickstate import TrickTakingState

__all__ = ["Pinochle3", "Pinochle3Observer"]


class Pinochle3Observer(TrickObserver):
    def public_view(self, state: TrickTakingState) -> dict[str, Any]:
        # A seat that is not the declarer knows what every seat knows of the widow and
        # the buried cards.
        declarer = getattr(state, "declarer", None)
        outsider = 1 if declarer == 0 else 0
        view = dict(state.observation(outsider))
        view.pop("hand", None)
        view["seat"] = None
        return view

    def open_view(self, state: TrickTakingState) -> dict[str, Any]:
        view = super().open_view(state)
        assert isinstance(state, CutthroatState)
        view["widow"] = [str(card) for card in state._initial_deal()[-1]]
        if state.buried:
            view["buried"] = [str(card) for card in state.buried]
        return view

    def heard(self, action: Action, actor: int, viewer: int | None) -> str:
        if isinstance(action, Bury) and viewer != actor:
            # The declarer's buried cards stay hidden until they score.
            return f"bury {len(action.cards)}"
        return str(action)

    def table(
        self,
        view: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        name: Callable[[int], str] = seat_number,
    ) -> dict[str, Any]:
        """The trick game's table with the widow (face up once shown, else face down) and
        the buried cards to those who see them."""
        table = super().table(view, teams, name)
        if "widow_size" in view:
            label = f"Widow ({view['widow_size']} cards)"
            widow = view.get("widow")
            if widow is None:
                table["areas"].append({"label": label, "count": view["widow_size"]})
            else:
                table["areas"].append({"label": label, "cards": widow})
        if view.get("buried"):
            table["areas"].append({"label": "Buried", "cards": view["buried"]})
        return table


class Pinochle3(PinochleGame[Pinochle3Rules]):
    """Three-hand cutthroat: one variant, to the target."""

    name = "pinochle3"
    variants = {"cutthroat3": "Three-hand with widow"}
    hand_record_variants = frozenset(variants)
    observer = Pinochle3Observer()
    rules_type = Pinochle3Rules
    bot_family = "cutthroat"
    target_game = CutthroatGame
    deals = staticmethod(new_cutthroat_hand)
    from_cards = staticmethod(cutthroat_from_cards)
    undealt = ("widow",)


register_game(Pinochle3)
