"""Pinnacolo greedy bot: lays down as much as it can, as soon as it can.

- **draw**: take from the discard pile when a take is legal (the engine allows one only
  if the deepest card can be melded this turn), the fewest cards that bring the most
  points to meld; otherwise draw from the stock;
- **play**: lay the meld or addition worth the most points; take back a wild when it
  can (it must meld it at once); when nothing is left to lay, discard the card that
  fits least with the rest of the hand, the most valuable first, never a wild.
"""

from __future__ import annotations

from typing import Any

from bots.sdk import Bot
from engine.pinnacolo.actions import Add, Discard, MeldCards, Replace, Take, parse_action
from engine.pinnacolo.cards import VALUES, is_wild, parse_card, rank_of, suit_of


def laid_points(text: str) -> int:
    """The face value of the cards a meld or an addition lays, else 0."""
    action = parse_action(text)
    if isinstance(action, MeldCards | Add):
        return sum(VALUES[face] for face, _ in action.cards)
    return 0


def fit(face: int, hand: list[int]) -> int:
    """How many other cards of the hand could meld with ``face``: same rank, or one or
    two steps away in the same suit."""
    links = 0
    for other in hand:
        same_rank = rank_of(other) == rank_of(face) and suit_of(other) != suit_of(face)
        near = suit_of(other) == suit_of(face) and 0 < abs(rank_of(other) - rank_of(face)) <= 2
        if other != face and (same_rank or near):
            links += 1
    return links


class PinnacoloGreedyBot(Bot):
    name = "pinnacolo-greedy"

    def other(self, observation: dict[str, Any], legal: list[str]) -> str:
        if observation.get("phase") == "draw":
            return self.draw(observation, legal)
        return self.lay(observation, legal)

    def draw(self, observation: dict[str, Any], legal: list[str]) -> str:
        takes = [text for text in legal if isinstance(parse_action(text), Take)]
        if not takes:
            return "draw" if "draw" in legal else legal[0]
        pile = [parse_card(name) for name in observation["discard_pile"]]

        def worth(text: str) -> tuple[int, int]:
            action = parse_action(text)
            assert isinstance(action, Take)
            taken = pile[-action.depth :]
            return (sum(VALUES[face] for face in taken) - 5 * action.depth, -action.depth)

        return max(takes, key=worth)

    def lay(self, observation: dict[str, Any], legal: list[str]) -> str:
        melds = [text for text in legal if laid_points(text)]
        if melds:
            return max(melds, key=laid_points)
        replaces = [text for text in legal if isinstance(parse_action(text), Replace)]
        if replaces:
            return replaces[0]
        hand = [parse_card(name) for name in observation["hand"]]
        discards: list[tuple[int, int, str]] = []
        for text in legal:
            action = parse_action(text)
            if isinstance(action, Discard):
                face = action.card
                keep = 1000 if is_wild(face) else 0
                discards.append((keep + 20 * fit(face, hand) - VALUES[face], face, text))
        return min(discards)[2] if discards else legal[0]
