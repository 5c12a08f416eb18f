"""A stored replay as frames for the replay viewer, computed on the server from the engine.

Each frame is the table after one step (step 0 is the deal): the actor, the action and the
table as a reader may see it. The engine re-plays the recorded actions; nothing is read
from the record but the rules, the deal (its seed or its cards) and the actions.

Two views, and nothing else:

- a seat's view: each frame's ``observation`` is exactly ``state.observation(seat)``,
  and an action is written as that seat hears of it (``Observer.heard``), so the
  reader of a seat's view gets no card that seat could not see at that step;
- the open view (finished matches only): every hand, the widow and the stock as well.

>>> frames = replay_frames(new_replay("single4", seed=3), seat=1)
>>> frames["frames"][0]["observation"]["hand_sizes"], frames["frames"][0]["action"]
([12, 12, 12, 12], None)
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.actions import Action, Give
from engine.interface import AnyGame
from engine.registry import load_game

__all__ = [
    "CARD_TOKEN",
    "ViewError",
    "card_tokens",
    "new_replay",
    "replay_deal",
    "replay_frames",
    "step_caption",
]

CARD_TOKEN = re.compile(r"\b(?:[ATKQJ98765432][SHDC]|JK)\b")
"""A card in the engines' notation (pinochle ``AS`` ... ``9C``; Pinnacolo ``2S`` ... ``JK``)."""


class ViewError(ValueError):
    """A view the replay does not have: its game has no such seat."""


def card_tokens(data: Any) -> Counter[str]:
    """Every card named anywhere in ``data`` (JSON or text), counted.

    A wild laid as ``JK=7H`` is one card, the joker: what it stands for is not a card.
    """
    found: Counter[str] = Counter()
    for text in _strings(data):
        found.update(CARD_TOKEN.findall(re.sub(r"=\w+", "", text)))
    return found


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, Sequence):
        for value in data:
            yield from _strings(value)


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


def replay_deal(variant: str, hand: Mapping[str, Any]) -> Any:
    """The cards dealt in a stored hand, in the engine replays' ``deal`` form.

    Four-hand: the four hands by seat; three-hand: the hands, then the widow; two-hand:
    the hands, then the stock from the top (the turned-up trump last); Pinnacolo:
    ``{"hands": [...], "pile": ..., "stock": ...}``, the stock's next card first.
    """
    state, _ = _state_of(load_game(variant), hand)
    if hasattr(state, "initial_cards"):
        hands, pile, stock = state.initial_cards()
        return {
            "hands": [" ".join(h) for h in hands],
            "pile": " ".join(pile),
            "stock": " ".join(stock),
        }
    parts = state.deal if hasattr(state, "deal") else [state.dealt(s) for s in range(4)]
    return [" ".join(str(card) for card in part) for part in parts]


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
    frames = []
    for number, (state, actor, played) in enumerate(_steps(game, hand)):
        if seat is None:
            observation = _open_observation(state, game)
            action = None if played is None else str(played)
        else:
            observation = state.observation(seat)
            action = (
                None
                if played is None or actor is None
                else game.observer.heard(played, actor, seat)
            )
        frames.append(
            {
                "step": number,
                "actor": actor,
                "action": action,
                "caption": step_caption(actor, action, observation, names),
                "mark": _mark(observation, number),
                "observation": observation,
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
        "sides": _sides(game),
        "marks": _marks(frames),
        "frames": frames,
        "fault": shown_fault,
        "team_scores": None if team_scores is None else list(team_scores),
    }


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


def _sides(game: AnyGame) -> list[list[int]]:
    if game.partnership:
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(game.players)]


def _open_observation(state: Any, game: AnyGame) -> dict[str, Any]:
    """Everything on and under the table: the public observation with every hand.

    The declarer's observation is the base once there is one (it holds both passes of
    cards, the widow and the buried cards; before the auction ends no seat knows more than
    its hand); the hands of all seats replace its one hand.
    """
    declarer = getattr(state, "declarer", None)
    observation: dict[str, Any] = state.observation(declarer if declarer is not None else 0)
    observation.pop("hand")
    observation["seat"] = None
    observation["hands"] = [[str(card) for card in state.hand(s)] for s in range(game.players)]
    if hasattr(state, "deal") and "widow" in observation and observation["widow"] is None:
        observation["widow"] = [str(card) for card in state.deal[-1]]
    if hasattr(state, "stock") and "stock_size" in observation:
        observation["stock"] = [str(card) for card in state.stock]
    if "passing" in observation:
        # Cards given went to the declarer's partner and back: both are in the actions.
        passes = [a for a in state.actions if isinstance(a, Give)]
        for entry, given in zip(observation["passing"], passes, strict=False):
            entry["cards"] = [str(card) for card in given.cards]
    if hasattr(state, "buried") and state.buried:
        observation["buried"] = [str(card) for card in state.buried]
    return observation


def _mark(observation: Mapping[str, Any], step: int) -> str | None:
    """The trick (or Pinnacolo turn) this step belongs to, as a label, or None."""
    if "tricks" in observation:
        played = len(observation["tricks"]) + (1 if observation["trick"]["cards"] else 0)
        return f"Trick {played}" if played else None
    if "history" in observation:
        turns = sum(1 for e in observation["history"] if e["action"].split()[0] in ("draw", "take"))
        return f"Turn {turns}" if turns else None
    return None


def _marks(frames: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Where each trick (or turn) starts, for the jump menu and the digit keys."""
    marks = [{"label": "Deal", "step": 0}]
    seen: set[str] = set()
    for frame in frames:
        label = frame["mark"]
        if label is not None and label not in seen:
            seen.add(label)
            marks.append({"label": label, "step": frame["step"]})
    marks.append({"label": "End", "step": len(frames) - 1})
    return marks


def _seat_name(seat: int, names: Sequence[str] | None) -> str:
    if names is None:
        return f"Seat {seat}"
    return f"Seat {seat} ({names[seat]})"


_WORDS = {
    "pass": "passes",
    "pass-help": "passes with help",
    "throw-in": "throws in",
    "play-on": "plays on",
    "no-meld": "lays no meld",
    "dix": "exchanges the dix for the turned-up trump",
    "draw": "draws from the stock",
}
_THIRD_PERSON = {
    "give": "gives",
    "bury": "buries",
    "meld": "melds",
    "play": "plays",
    "discard": "discards",
}


def step_caption(
    actor: int | None,
    action: str | None,
    observation: Mapping[str, Any],
    names: Sequence[str] | None = None,
) -> str:
    """One step in words, naming no card the observation does not show."""
    if actor is None or action is None:
        hand = observation.get("hand")
        if hand is not None:
            return "The deal. Your hand: " + (" ".join(hand) or "no cards")
        parts = [
            f"{_seat_name(s, names)}: {' '.join(cards)}"
            for s, cards in enumerate(observation.get("hands", []))
        ]
        for key, label in (("widow", "widow"), ("stock", "stock from the top")):
            if observation.get(key):
                parts.append(f"{label}: {' '.join(observation[key])}")
        if observation.get("discard_pile"):
            parts.append(f"discard pile: {' '.join(observation['discard_pile'])}")
        return "The deal. " + "; ".join(parts)
    who = _seat_name(actor, names)
    verb, *args = action.split()
    rest = " ".join(args)
    if verb in _WORDS:
        text = f"{who} {_WORDS[verb]}"
    elif verb == "bid":
        text = f"{who} bids {rest}"
    elif verb == "trump":
        text = f"{who} names {rest} trump"
    elif verb in ("give", "bury") and rest.isdigit():
        text = f"{who} {_THIRD_PERSON[verb]} {rest} cards"
    elif verb in _THIRD_PERSON:
        text = f"{who} {_THIRD_PERSON[verb]} {rest}"
    elif verb == "take":
        text = f"{who} takes the top {rest} of the discard pile"
    elif verb == "add" and args:
        text = f"{who} adds {' '.join(args[1:])} to meld {args[0]}"
    elif verb == "replace" and len(args) == 2:
        text = f"{who} puts {args[1]} in meld {args[0]} in place of its wild"
    else:
        text = f"{who}: {action}"
    tricks = observation.get("tricks")
    trick = observation.get("trick")
    if tricks and trick is not None and not trick["cards"] and verb == "play":
        text += f"; trick {len(tricks)} won by {_seat_name(tricks[-1]['winner'], names)}"
    return text
