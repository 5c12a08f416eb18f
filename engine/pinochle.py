"""What the three pinochle games share as games: rules, actions, replays, bounds, and what
a reader may see of a trick-taking hand (RULES.md sections 2 to 7, 10).

Each game is declared in its own module (``engine.pinochle4``, ``engine.pinochle3``,
``engine.pinochle2``) on ``PinochleGame`` below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from engine.actions import Action
from engine.cards import Card
from engine.entry import HandScore, ScoreEntry, score_entry, score_totals
from engine.errors import RulesError
from engine.forfeit import ScoreBounds, finished_bounds
from engine.interface import Deal, Game, Observer, phase_title, seat_number
from engine.pinochle_forfeit import contract_bounds, worst_case_bounds
from engine.pinochle_replay import Replay
from engine.rules import Rules, pinochle_rules
from engine.trickstate import TrickTakingState

__all__ = ["PinochleGame", "TrickObserver"]


class TrickObserver(Observer[TrickTakingState]):
    """A pinochle hand as a reader sees it: the seat views are the state's observations."""

    def step_mark(self, view: Mapping[str, Any]) -> str | None:
        tricks = view.get("tricks")
        trick = view.get("trick")
        if tricks is None or trick is None:
            return None
        played = len(tricks) + (1 if trick["cards"] else 0)
        return f"Trick {played}" if played else None

    def caption(
        self, actor: int, action: str, view: Mapping[str, Any], name: Callable[[int], str]
    ) -> str:
        verb, *args = action.split()
        rest = " ".join(args)
        if verb in _WORDS:
            text = f"{name(actor)} {_WORDS[verb]}"
        elif verb == "bid":
            text = f"{name(actor)} bids {rest}"
        elif verb == "trump":
            text = f"{name(actor)} names {rest} trump"
        elif verb in _THIRD_PERSON:
            # A pass or a burial the reader did not see is heard as its count alone.
            cards = f"{rest} cards" if rest.isdigit() else rest
            text = f"{name(actor)} {_THIRD_PERSON[verb]} {cards}"
        else:
            return super().caption(actor, action, view, name)
        tricks = view.get("tricks")
        trick = view.get("trick")
        if verb == "play" and tricks and trick is not None and not trick["cards"]:
            text += f"; trick {len(tricks)} won by {name(tricks[-1]['winner'])}"
        return text

    def table(
        self,
        view: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        name: Callable[[int], str] = seat_number,
    ) -> dict[str, Any]:
        """The hands, the melds under each seat, the trick in the middle, the contract,
        trump and auction, and the running score of meld, counters and tricks."""
        seats = self.table_seats(view, teams)
        contract = view.get("contract")
        melds = {meld["seat"]: meld for meld in (view.get("melds") or ()) if "items" in meld}
        for entry in seats:
            if contract is not None and contract["declarer"] == entry["seat"]:
                entry["tags"].insert(1 if "dealer" in entry["tags"] else 0, "declarer")
            meld = melds.get(entry["seat"])
            if meld is not None:
                rows = [
                    {"label": _meld_label(item), "cards": item["cards"]} for item in meld["items"]
                ]
                entry["groups"].append({"label": f"Meld {meld['total']}", "rows": rows})
        facts: list[dict[str, Any]] = []
        if contract is not None:
            facts.append(
                {"label": "Contract", "value": f"{contract['bid']} by {name(contract['declarer'])}"}
            )
        if view.get("trump"):
            facts.append({"label": "Trump", "value": _suit_text(view["trump"])})
        if view.get("auction"):
            calls = [f"{name(call['seat'])}: {call['action']}" for call in view["auction"]]
            facts.append({"label": "Auction", "items": calls})
        return {
            "title": phase_title(view),
            "seats": seats,
            "center": _trick_center(self, view, sum(len(team) for team in teams), name),
            "areas": [],
            "facts": facts,
            "score": _running_score(view, teams),
        }

    def breakdown(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        result = view.get("result")
        if not result or "teams" not in result:
            return None
        details = []
        if result.get("declarer") is not None:
            details += [f"declarer seat {result['declarer']}", f"bid {result['bid']}"]
        if result.get("trump"):
            details.append(f"trump {result['trump']}")
        columns = ["meld", "meld counted", "counters", "last trick", "tricks", "score"]
        return {
            "outcome": result["outcome"],
            "details": ", ".join(details),
            "header": "side",
            "columns": [{"label": label, "numeric": label != "meld counted"} for label in columns],
            "rows": [
                {
                    "label": ("seats " if len(team["seats"]) > 1 else "seat ")
                    + " and ".join(map(str, team["seats"])),
                    "cells": [
                        {"value": str(team["meld"]), "numeric": True},
                        {"value": "yes" if team["meld_counted"] else "no", "numeric": False},
                        *(
                            {"value": str(team[key]), "numeric": True}
                            for key in ("counters", "last_trick", "tricks", "score")
                        ),
                    ],
                }
                for team in result["teams"]
            ],
        }


_WORDS = {
    "pass": "passes",
    "pass-help": "passes with help",
    "throw-in": "throws in",
    "play-on": "plays on",
    "no-meld": "lays no meld",
    "dix": "exchanges the dix for the turned-up trump",
}
_THIRD_PERSON = {"give": "gives", "bury": "buries", "meld": "melds", "play": "plays"}
_SUITS = {"S": ("\u2660", "spades"), "H": ("\u2665", "hearts"), "D": ("\u2666", "diamonds")}
_SUITS["C"] = ("\u2663", "clubs")


def _suit_text(suit: str) -> str:
    """A suit for people: its symbol, its name and its letter (``♥ hearts (H)``)."""
    symbol, name = _SUITS[suit]
    return f"{symbol} {name} ({suit})"


def _meld_label(item: Mapping[str, Any]) -> str:
    suit = f" {_SUITS[item['suit']][0]}" if item.get("suit") else ""
    return f"{item['name']}{suit} ({item['value']})"


def _trick_center(
    observer: Observer[Any], view: Mapping[str, Any], players: int, name: Callable[[int], str]
) -> dict[str, Any] | None:
    """The trick in play, or the last one taken until the next is led."""
    trick, tricks = view.get("trick"), view.get("tricks")
    if trick is None or tricks is None:
        return None
    shown = trick
    label = f"Trick {len(tricks) + 1}"
    if not trick["cards"] and tricks:
        shown = tricks[-1]
        label = f"Trick {len(tricks)}, won by {name(shown['winner'])}"
    return {
        "label": label if shown["cards"] else "No card played yet",
        "plays": [
            {"seat": seat, "card": card} for seat, card in observer.trick_plays(shown, players)
        ],
    }


def _running_score(view: Mapping[str, Any], teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Each side's meld so far (the seats' meld summed), counters and tricks taken."""
    if "meld_scores" in view:
        by_seat = dict(enumerate(view["meld_scores"]))
    else:
        by_seat = {
            meld["seat"]: meld["total"] for meld in (view.get("melds") or ()) if "items" in meld
        }
    return {
        "columns": ["meld", "counters", "tricks"],
        "rows": [
            [
                sum(by_seat.get(seat, 0) for seat in seats),
                view["counters_taken"][index],
                view["tricks_won"][index],
            ]
            for index, seats in enumerate(teams)
        ],
    }


RulesT = TypeVar("RulesT", bound=Rules)


class PinochleGame(Game[RulesT, TrickTakingState]):
    """A pinochle game: its own rules class of ``engine.rules`` (``rules_type``, whose
    instances are its variants' presets), ``Action``s, the one ``Replay`` and the bounds
    of ``engine.pinochle_forfeit``."""

    rules_type: ClassVar[type[Rules]]
    """The game's rules class (``Pinochle4Rules``): its presets and documents are of it."""

    deals: ClassVar[Any]
    """The hand factory: ``deals(variant, *, seed, dealer, rules)``."""
    pick_verbs = frozenset({"give", "bury"})
    amount_verbs = frozenset({"bid"})
    rule_summaries = {
        "must_follow": "you must follow suit",
        "must_head": "you must beat the trick",
        "must_trump": "you must trump",
        "must_overtrump": "you must play a higher trump",
        "card_not_in_hand": "you do not hold that card",
        "bid_ladder": "that bid is not allowed",
        "dealer_stuck": "the stuck dealer must bid",
        "phase": "that is not a move of this phase",
    }
    undealt: ClassVar[tuple[str, ...]] = ()
    """The names of the parts of the pack dealt to nobody (``Deal.undealt``), in the
    order a deal from explicit cards lists them after the hands."""
    from_cards: ClassVar[Any]
    """A hand from explicit cards: ``from_cards(variant, deal, *, dealer, rules)``, the
    deal as a replay lists it (the hands by seat, then any cards dealt to nobody)."""

    @classmethod
    def preset(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> RulesT:
        """The variant's preset, of the game's own rules class; an override naming a
        parameter the game does not have is refused (``RulesError`` naming it)."""
        return cls._own(pinochle_rules(variant, overrides))

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> RulesT:
        return cls._own(cls.rules_type.from_json(data))

    @classmethod
    def _own(cls, rules: Rules) -> RulesT:
        """``rules``, checked to be of this game (another game's preset is not)."""
        if not isinstance(rules, cls.rules_type):
            raise RulesError("game", f"the rules are of the {rules.game} game, not {cls.name}")
        own: RulesT = rules  # type: ignore[assignment]
        return own

    def new_initial_state(self, seed: int, dealer: int = 0) -> TrickTakingState:
        state: TrickTakingState = type(self).deals(
            self.variant, seed=seed, dealer=dealer, rules=self.rules
        )
        return state

    def state_from_deal(self, deal: Sequence[Sequence[Card]], dealer: int = 0) -> TrickTakingState:
        """A hand from explicit cards, as a replay lists them."""
        state: TrickTakingState = type(self).from_cards(
            self.variant, deal, dealer=dealer, rules=self.rules
        )
        return state

    def parse_action(self, text: str) -> Action:
        return Action.parse(text)

    def write_replay(self, state: TrickTakingState) -> Replay:
        return Replay.from_state(state)

    def read_replay(self, data: Mapping[str, Any]) -> Replay:
        return Replay.from_json(data)

    def score_bounds(self, state: TrickTakingState) -> ScoreBounds:
        """The contract games' bounds (``engine.pinochle_forfeit``): the cards dealt to
        nobody (the three-hand widow) go to the auction's winner."""
        finished = finished_bounds(state)
        if finished is not None:
            return finished
        undealt = state._initial_deal()[self.players :] if self.undealt else ()
        return contract_bounds(state, state.teams, [card for part in undealt for card in part])

    def worst_case_bounds(self) -> ScoreBounds:
        return worst_case_bounds(self.rules, len(self.teams))

    def initial_deal(self, state: TrickTakingState) -> Deal:
        """The hands dealt by seat, then the cards dealt to nobody, named by ``undealt``."""
        parts = [tuple(str(card) for card in part) for part in state._initial_deal()]
        hands, rest = parts[: self.players], parts[self.players :]
        return Deal(tuple(hands), tuple(zip(self.undealt, rest, strict=True)))

    def score_entry(self, deal: Deal, entry: ScoreEntry) -> HandScore:
        return score_entry(self, deal, entry)

    def score_accepted(self, entry: ScoreEntry) -> HandScore:
        return score_totals(self, entry)
