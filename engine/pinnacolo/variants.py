"""Pinnacolo as the registry knows it (RULES.md section 8): two pairs, or two, three or
four players each for themselves, and what a reader may see of a hand.

Every seat sees the pile, the melds on the table and who drew, took or discarded what;
a hand and the stock are private.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.forfeit import ScoreBounds, finished_bounds
from engine.interface import Deal, Game, Observer, phase_title, seat_number, sentence
from engine.pinnacolo.actions import parse_action
from engine.pinnacolo.forfeit import hand_bounds, worst_case_bounds
from engine.pinnacolo.game import PinnacoloGame
from engine.pinnacolo.replay import PinnacoloReplay
from engine.pinnacolo.rules import PinnacoloRules, pinnacolo_rules
from engine.pinnacolo.state import PinnacoloHand, new_hand
from engine.registry import register_game

__all__ = ["Pinnacolo", "PinnacoloObserver"]


class PinnacoloObserver(Observer[PinnacoloHand]):
    def step_mark(self, view: Mapping[str, Any]) -> str | None:
        history = view.get("history")
        if history is None:
            return None
        turns = sum(1 for entry in history if entry["action"].split()[0] in ("draw", "take"))
        return f"Turn {turns}" if turns else None

    def caption(
        self, actor: int, action: str, view: Mapping[str, Any], name: Callable[[int], str]
    ) -> str:
        verb, *args = action.split()
        who = name(actor)
        if verb == "draw":
            return f"{who} draws from the stock"
        if verb in ("meld", "discard") and args:
            return f"{who} {verb}s {' '.join(args)}"
        if verb == "take" and args:
            return f"{who} takes the top {args[0]} of the discard pile"
        if verb == "add" and len(args) > 1:
            return f"{who} adds {' '.join(args[1:])} to meld {args[0]}"
        if verb == "replace" and len(args) == 2:
            return f"{who} puts {args[1]} in meld {args[0]} in place of its wild"
        return super().caption(actor, action, view, name)

    def table(
        self,
        view: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        name: Callable[[int], str] = seat_number,
    ) -> dict[str, Any]:
        """The hands with each seat's melds under it, the discard pile and the stock in the
        middle, who has laid down, and each side's points on the table."""
        seats = self.table_seats(view, teams)
        for entry in seats:
            rows = [
                {
                    "label": f"Meld {meld['index']}: {meld['name']} ({meld['points']})",
                    "cards": meld["cards"],
                }
                for meld in view["melds"]
                if meld["owner"] == entry["seat"]
            ]
            if rows:
                entry["groups"].append({"label": None, "rows": rows})
        pile = view["discard_pile"]
        areas: list[dict[str, Any]] = [
            {
                "label": f"Discard pile: {len(pile)} card{'' if len(pile) == 1 else 's'} deep, "
                "top card last",
                "cards": pile,
            },
            {"label": f"Stock: {view['stock_size']} cards"},
        ]
        if view.get("must_meld"):
            areas.append(
                {
                    "label": sentence(
                        f"{name(view['current_player'])} must first meld {view['must_meld']}"
                    )
                }
            )
        down = [name(seat) for seat, laid in enumerate(view["laid_down"]) if laid]
        return {
            "title": phase_title(view),
            "seats": seats,
            "center": None,
            "areas": areas,
            "facts": [{"label": "Laid down", "value": ", ".join(down) or "nobody yet"}],
            "score": {
                "columns": ["on the table"],
                "rows": [[points] for points in view["table_points"]],
            },
        }

    def breakdown(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        result = view.get("result")
        if not result or "seats" not in result:
            return None
        details = ""
        if result.get("closer") is not None:
            details = f"seat {result['closer']} closed" + (" in one go" if result["one_go"] else "")
        columns = ["laid down", "melded", "in hand", "bonus", "score"]
        return {
            "outcome": result["outcome"],
            "details": details,
            "header": "seat",
            "columns": [{"label": label, "numeric": label != "laid down"} for label in columns],
            "rows": [
                {
                    "label": f"seat {row['seat']}",
                    "cells": [
                        {"value": "yes" if row["laid_down"] else "no", "numeric": False},
                        *(
                            {"value": str(row[key]), "numeric": True}
                            for key in ("melded", "in_hand", "bonus", "score")
                        ),
                    ],
                }
                for row in result["seats"]
            ],
        }


class Pinnacolo(Game[PinnacoloRules, PinnacoloHand]):
    """Pinnacolo's variants: the pairs game, and individual games of 2, 3 or 4 players."""

    name = "pinnacolo"
    variants = {
        "pinnacolo": "Pinnacolo, two pairs",
        "pinnacolo4": "Pinnacolo, four players",
        "pinnacolo3": "Pinnacolo, three players",
        "pinnacolo2": "Pinnacolo, two players",
    }
    partnered = frozenset(name for name in variants if pinnacolo_rules(name).pairs)
    observer = PinnacoloObserver()
    bot_family = "pinnacolo"
    target_game = PinnacoloGame
    card_verbs = frozenset({"discard"})

    @classmethod
    def preset(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> PinnacoloRules:
        return pinnacolo_rules(variant, overrides)

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> PinnacoloRules:
        return PinnacoloRules.from_json(data)

    def new_initial_state(self, seed: int, dealer: int = 0) -> PinnacoloHand:
        return new_hand(self.variant, seed=seed, dealer=dealer, rules=self.rules)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def write_replay(self, state: PinnacoloHand) -> PinnacoloReplay:
        return PinnacoloReplay.from_state(state)

    def read_replay(self, data: Mapping[str, Any]) -> PinnacoloReplay:
        return PinnacoloReplay.from_json(data)

    def score_bounds(self, state: PinnacoloHand) -> ScoreBounds:
        """``engine.pinnacolo.forfeit``'s bounds of the hand."""
        finished = finished_bounds(state)
        return hand_bounds(state) if finished is None else finished

    def worst_case_bounds(self) -> ScoreBounds:
        return worst_case_bounds(self.rules, len(self.teams))

    def initial_deal(self, state: PinnacoloHand) -> Deal:
        hands, pile, stock = state._initial_deal()
        return Deal(hands, (("pile", pile), ("stock", stock)))


register_game(Pinnacolo)
