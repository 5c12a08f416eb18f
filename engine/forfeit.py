"""What a hand ended by a fault or a leave scores: leaving never pays (RULES.md 5, 8, 9).

A hand that a seat abandons (a human leaving, a bot crashing, timing out or answering
illegally) is not played out, so it is scored from the position it stopped in. For every
side a game's ``Game.score_bounds`` gives a sound interval of the scores the side can
still reach from that position, whatever anyone plays: ``low`` at most its worst, ``high``
at least its best. ``Game.forfeit_scores`` then scores the leaving side at its ``low`` and
every other side at its ``high``. In the duplicate difference that matches, events and
challenges compare (a side's score minus the others'), the forfeit is therefore at most
the difference of any way the hand could have been finished: leaving is never better
than playing on.

Each game bounds its own hands, from the rules and the position alone, in its own modules
(``engine.pinochle_forfeit`` for the pinochle games, ``engine.pinnacolo.forfeit``). The
bounds are exact for a finished hand (``finished_bounds``) and tighten as it goes; a
game's ``worst_case_bounds`` gives the same without a position (every card unseen,
nothing yet decided): the bound for a hand whose position is not at hand.

``score_bounds`` and ``forfeit_scores`` below take a hand of any registered game and ask
its game.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["ScoreBounds", "finished_bounds", "forfeit_scores", "score_bounds"]


@dataclass(frozen=True, slots=True)
class ScoreBounds:
    """For each side (team, or seat in individual games): the lowest and the highest
    score it can still reach, as sound bounds."""

    low: tuple[int, ...]
    high: tuple[int, ...]

    def forfeit(self, leaving_sides: Collection[int]) -> tuple[int, ...]:
        """The leaving sides at their lowest, every other side at its highest."""
        return tuple(
            self.low[side] if side in leaving_sides else self.high[side]
            for side in range(len(self.low))
        )


def finished_bounds(state: Any) -> ScoreBounds | None:
    """The exact bounds of a finished hand (its sides' scores), ``None`` while it goes on."""
    if not state.is_terminal():
        return None
    scores = tuple(int(score) for score in state.result().team_scores)
    return ScoreBounds(scores, scores)


def _game_of(state: Any) -> Any:
    # Imported here: the registry imports every game, and the games import this module.
    from engine.registry import load_game

    return load_game(state.variant, rules=state.rules)


def score_bounds(state: Any) -> ScoreBounds:
    """Sound bounds of what each side can still score from ``state`` (a hand of any
    registered game): its game's ``score_bounds``."""
    bounds: ScoreBounds = _game_of(state).score_bounds(state)
    return bounds


def forfeit_scores(state: Any, leavers: int | Iterable[int]) -> tuple[int, ...]:
    """Each side's score when ``leavers`` (a seat, or every seat of one competitor) leave
    the hand in ``state``: their sides at the lowest they could reach, the others at the
    highest (its game's ``forfeit_scores``)."""
    scores: tuple[int, ...] = _game_of(state).forfeit_scores(state, leavers)
    return scores
