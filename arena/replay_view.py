"""A stored replay as frames for the replay viewer, computed on the server from the engine.

Each frame is the table after one step (step 0 is the deal): the actor, the action and the
table as a reader may see it. The engine re-plays the recorded actions; nothing is read
from the record but the rules, the deal (its seed or its cards) and the actions.

Two views, and nothing else:

- a seat's view: each frame's ``observation`` is exactly the seat's view
  (``Observer.seat_view``), and an action is written as that seat hears of it
  (``Observer.heard``), so the reader of a seat's view gets no card that seat could not
  see at that step;
- the open view (finished matches only): every card, on and under the table
  (``Observer.open_view``).

Everything about the game is asked of its ``Game`` and ``Observer``: the seats and sides,
each step's words (``caption``), the part of the hand it belongs to (``step_mark``), the
table to draw (``table``, a description any game shares) and the final score's breakdown.

>>> from engine.registry import variant_names
>>> frames = replay_frames(new_replay(variant_names()[0], seed=3), seat=1)
>>> deal = frames["frames"][0]
>>> deal["action"], [seat["cards"] is not None for seat in deal["table"]["seats"]][:2]
(None, [False, True])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.interface import AnyGame
from engine.registry import load_game

__all__ = [
    "ViewError",
    "new_replay",
    "replay_deal",
    "replay_frames",
    "side_rows",
]


class ViewError(ValueError):
    """A view the replay does not have: its game has no such seat."""


def new_replay(variant: str, *, seed: int, dealer: int = 0) -> dict[str, Any]:
    """A hand played at random from ``seed``, as the stored ``hand`` replay JSON."""
    game = load_game(variant)
    state = game.with_rules(game.rules_for(None)).new_initial_state(seed=seed, dealer=dealer)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = list(state.legal_actions)
        state.apply(legal[rng.randrange(len(legal))])
    replay: dict[str, Any] = game.write_replay(state).to_json()
    return replay


def _state_of(game: AnyGame, hand: Mapping[str, Any]) -> tuple[Any, list[Action]]:
    replay = game.read_replay(hand)
    return replay.initial_state(), [game.parse_action(text) for text in replay.actions]


def replay_deal(variant: str, hand: Mapping[str, Any]) -> dict[str, Any]:
    """The cards dealt in a stored hand: ``{"hands": [[card, ...], ...]}`` by seat, then
    each named part of the cards dealt to nobody, as ``Game.initial_deal`` tells."""
    game = load_game(variant)
    state, _ = _state_of(game, hand)
    return game.initial_deal(state).to_json()


def _steps(
    game: AnyGame, hand: Mapping[str, Any]
) -> Iterator[tuple[Any, int | None, Action | None]]:
    """Re-play the hand: the live state after each step, with who acted and how.

    The state is the same object throughout: read it before asking for the next step.
    """
    state, actions = _state_of(game, hand)
    yield state, None, None
    for action in actions:
        actor = state.current_player
        state.apply(action)
        yield state, actor, action


def replay_frames(
    hand: Mapping[str, Any],
    *,
    seat: int | None,
    names: Sequence[str] | None = None,
    fault: Mapping[str, Any] | None = None,
    team_scores: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The frames of a stored hand for one seat's view, or the open view (``seat=None``).

    ``names`` label the seats; ``fault`` and ``team_scores`` are the stored game's (a
    board that ended with a fault is scored by forfeit, not by the engine). A seat's view
    tells the fault's seat and kind, not its reason, which may name a card of that hand.
    """
    variant = str(hand["variant"])
    game = load_game(variant)
    if seat is not None and not 0 <= seat < game.players:
        raise ViewError(f"{variant} has seats 0 to {game.players - 1}, not {seat}")
    observer = game.observer

    def name(who: int) -> str:
        return f"Seat {who}" if names is None else f"Seat {who} ({names[who]})"

    frames = []
    view: dict[str, Any] = {}
    for number, (state, actor, played) in enumerate(_steps(game, hand)):
        action = None
        if seat is None:
            view = observer.open_view(state)
            action = None if played is None else str(played)
        else:
            view = observer.seat_view(state, seat)
            if played is not None and actor is not None:
                action = observer.heard(played, actor, seat)
        table = observer.table(view, game.teams)
        if actor is None or action is None:
            caption = _deal_caption(table, seat, name)
        else:
            caption = observer.caption(actor, action, view, name)
        frames.append(
            {
                "step": number,
                "actor": actor,
                "action": action,
                "caption": caption,
                "mark": observer.step_mark(view),
                "over": state.is_terminal(),
                "observation": view,
                "table": table,
            }
        )
    shown_fault = None
    if fault is not None:
        shown_fault = {"seat": fault.get("seat"), "kind": fault.get("kind")}
        if seat is None:
            shown_fault["reason"] = fault.get("reason")
    return {
        "variant": variant,
        "game": str(hand.get("game", "")),
        "players": game.players,
        "partnership": game.partnership,
        "view": "open" if seat is None else "seat",
        "seat": seat,
        "names": list(names) if names is not None else [f"Seat {s}" for s in range(game.players)],
        "sides": [list(seats) for seats in game.teams],
        "marks": _marks(frames),
        "frames": frames,
        "breakdown": observer.breakdown(view),
        "fault": shown_fault,
        "team_scores": None if team_scores is None else list(team_scores),
    }


def _deal_caption(table: Mapping[str, Any], seat: int | None, name: Callable[[int], str]) -> str:
    """The deal in words, from the table the reader sees: the reader's hand (every hand in
    the open view) and any cards face up elsewhere."""
    if seat is not None:
        parts = ["Your hand: " + (" ".join(table["seats"][seat]["cards"] or ()) or "no cards")]
    else:
        parts = [
            f"{name(entry['seat'])}: {' '.join(entry['cards'])}"
            for entry in table["seats"]
            if entry["cards"] is not None
        ]
    parts += [
        f"{area['label'].rstrip(':')}: {' '.join(area['cards'])}"
        for area in table["areas"]
        if area.get("cards")
    ]
    return "The deal. " + "; ".join(parts)


def side_rows(frames: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The viewer's score table of a replay's frames: each side's seats, names and score."""
    scores = frames["team_scores"] or [None] * len(frames["sides"])
    return [
        {
            "label": " and ".join(f"seat {s}" for s in seats),
            "names": ", ".join(frames["names"][s] for s in seats),
            "score": scores[index],
        }
        for index, seats in enumerate(frames["sides"])
    ]


def _marks(frames: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Where each part of the hand that the game marks (``Observer.step_mark``) starts,
    for the jump menu and the digit keys."""
    marks = [{"label": "Deal", "step": 0}]
    seen: set[str] = set()
    for frame in frames:
        label = frame["mark"]
        if label is not None and label not in seen:
            seen.add(label)
            marks.append({"label": label, "step": frame["step"]})
    marks.append({"label": "End", "step": len(frames) - 1})
    return marks
