"""Four-hand partnership pinochle, single deck, auction and double deck (RULES.md 2 to 6):
the game as the registry knows it, and what a reader may see of its hands.

Partners sit opposite (seats 0/2 against 1/3). Cards passed between partners in the
auction game are seen by the two partners alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action, Give
from engine.game import GameState
from engine.hand import hand_from_cards, new_hand, sees_pass
from engine.interface import seat_number, sentence
from engine.pinochle import PinochleGame, TrickObserver
from engine.registry import register_game
from engine.rules import Pinochle4Rules
from engine.trickstate import TrickTakingState

__all__ = ["Pinochle4", "Pinochle4Observer"]


class Pinochle4Observer(TrickObserver):
    def public_view(self, state: TrickTakingState) -> dict[str, Any]:
        view = super().public_view(state)
        # Seat 0's view shows the cards of a pass it gave or received: nobody else's does.
        view["passing"] = [
            {key: value for key, value in entry.items() if key != "cards"}
            for entry in view.get("passing", ())
        ]
        return view

    def open_view(self, state: TrickTakingState) -> dict[str, Any]:
        view = super().open_view(state)
        passes = [action for action in state.history if isinstance(action, Give)]
        for entry, given in zip(view["passing"], passes, strict=False):
            entry["cards"] = [str(card) for card in given.cards]
        return view

    def heard(self, action: Action, actor: int, viewer: int | None) -> str:
        if isinstance(action, Give) and not sees_pass(viewer, actor):
            return f"give {len(action.cards)}"
        return str(action)

    def table(
        self,
        view: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        name: Callable[[int], str] = seat_number,
    ) -> dict[str, Any]:
        """The trick game's table with the cards passed between partners: their count,
        and the cards to a seat that gave or received them (all of them in the open view)."""
        table = super().table(view, teams, name)
        for entry in view.get("passing") or ():
            label = sentence(
                f"{name(entry['from'])} passed {entry['count']} cards to {name(entry['to'])}"
            )
            passed: dict[str, Any] = {"label": label}
            if entry.get("cards"):
                passed["cards"] = entry["cards"]
            table["facts"].append(passed)
        return table


class Pinochle4(PinochleGame[Pinochle4Rules]):
    """The four-hand partnership variants, played in partnerships to the target."""

    name = "pinochle4"
    variants = {
        "single4": "Four-hand partnership, single deck",
        "auction4": "Four-hand partnership auction",
        "double4": "Four-hand partnership, double deck",
    }
    partnered = frozenset(variants)
    # The auction game is the one most tables play: the site's leaderboards open on it.
    main_variant = "auction4"
    # A table reports each of them on paper; a robot partner plays each of them.
    hand_record_variants = frozenset(variants)
    robot_event_variants = frozenset(variants)
    # The IMP-like scales of ``tournaments.imps``: the 2.5%, 7.5%, ..., 97.5%
    # quantiles of simulated two-room swings, from ``python -m
    # tournaments.imp_calibration 1000 2026`` (1000 boards a variant, seed 2026).
    imp_scales = {
        "single4": (2, 3, 4, 5, 6, 7, 8, 10, 15, 18, 23, 29, 34, 38, 45, 50, 55, 61, 66, 82),
        "auction4": (
            10, 20, 30, 40, 50, 60, 70, 80, 90, 100,
            130, 200, 280, 390, 470, 570, 630, 670, 730, 870,
        ),
        "double4": (2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 16, 20, 25, 30, 38, 49, 67, 85, 110, 136),
    }  # fmt: skip
    observer = Pinochle4Observer()
    rules_type = Pinochle4Rules
    bot_family = "pinochle4"
    target_game = GameState
    deals = staticmethod(new_hand)
    from_cards = staticmethod(hand_from_cards)


register_game(Pinochle4)
