"""What the three pinochle games share as games: rules, actions, replays, bounds, and what
a reader may see of a trick-taking hand (RULES.md sections 2 to 7, 10).

Each game is declared in its own module (``engine.pinochle4``, ``engine.pinochle3``,
``engine.pinochle2``) on ``PinochleGame`` below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.actions import Action
from engine.cards import Card
from engine.entry import HandScore, ScoreEntry, score_entry, score_totals
from engine.forfeit import ScoreBounds, score_bounds, worst_case_bounds
from engine.interface import Deal, Game, Observer
from engine.replay import Replay
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


class PinochleGame(Game[Rules, TrickTakingState]):
    """A pinochle game: the flat ``Rules`` of ``engine.rules`` (a variant's preset),
    ``Action``s, the one ``Replay`` and the bounds of ``engine.forfeit``."""

    deals: ClassVar[Any]
    """The hand factory: ``deals(variant, *, seed, dealer, rules)``."""
    from_cards: ClassVar[Any]
    """A hand from explicit cards: ``from_cards(variant, deal, *, dealer, rules)``, the
    deal as a replay lists it (the hands by seat, then any cards dealt to nobody)."""

    @classmethod
    def preset(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> Rules:
        return pinochle_rules(variant, overrides)

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(data)

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
        return score_bounds(state)

    def worst_case_bounds(self) -> ScoreBounds:
        return worst_case_bounds(self.rules, len(self.teams))

    def initial_deal(self, state: TrickTakingState) -> Deal:
        """The hands dealt by seat (and, in a game that has them, the undealt cards)."""
        return Deal(tuple(tuple(str(c) for c in state.dealt(s)) for s in range(self.players)))

    def score_entry(self, deal: Deal, entry: ScoreEntry) -> HandScore:
        return score_entry(self, deal, entry)

    def score_accepted(self, entry: ScoreEntry) -> HandScore:
        return score_totals(self, entry)
