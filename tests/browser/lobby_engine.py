"""The engine's own account of a table's game, for the lobby's browser tests to compare the
pages with: the scores it gives, and the cards each seat (or a spectator) may know at each
ply. Built from the engine alone (the seed, the rules and the log), not the lobby's code.
"""

from __future__ import annotations

from typing import Any

from engine.registry import load_game
from lobby.models import GameTable
from tests.cards import card_tokens


def engine_game(table: GameTable) -> Any:
    game = load_game(table.variant, rules=load_game(table.variant).rules_from_json(table.rules))
    hands = int(table.target["value"]) if table.target["kind"] == "hands" else None
    return game, game.new_target_game(table.seed, table.dealer, max_hands=hands)


def engine_scores(table: GameTable) -> tuple[list[list[int]], list[int]]:
    """Each hand's scores by side and the totals, by the engine."""
    game, state = engine_game(table)
    for text in table.actions:
        state.apply(game.parse_action(text))
    assert state.is_terminal()
    hands = [[int(score) for score in result.team_scores] for result in state.results]
    return hands, [int(score) for score in state.scores]


def known_faces(table: GameTable, seat: int | None) -> list[set[str]]:
    """By ply, the card faces ``seat`` (None: a spectator) may know: its view of the hand in
    play, of the hand just ended, and every action of the game as it heard them. After the
    game is over every card is everybody's: the last entry is the whole game open."""
    game, state = engine_game(table)
    observer = game.observer

    def view(hand: Any) -> Any:
        return observer.public_view(hand) if seat is None else observer.seat_view(hand, seat)

    heard: set[str] = set()
    ended: set[str] = set()
    known = [set(card_tokens(view(state.current_hand)))]
    for text in table.actions:
        action = game.parse_action(text)
        actor = state.current_player
        before = state.current_hand
        number = state.hand_number
        state.apply(action)
        heard |= set(card_tokens(observer.heard(action, actor, seat)))
        if state.hand_number != number:
            ended = set(card_tokens(view(before)))
            if state.is_terminal():
                ended |= set(card_tokens(observer.open_view(before)))
        current = set() if state.is_terminal() else set(card_tokens(view(state.current_hand)))
        known.append(current | ended | heard)
    return known


def frame_faces(frame: dict[str, Any]) -> set[str]:
    """The card faces a frame names (its words, names and hash hold none)."""
    return set(card_tokens(frame))
