"""Building deals by hand for rule positions."""

from __future__ import annotations

from typing import Any

from engine import (
    DOUBLE_DECK,
    SINGLE_DECK,
    Card,
    HandState,
    hand_from_cards,
    load_game,
    parse_cards,
    rules_for,
)


def dealt_parts(state: Any) -> list[tuple[Card, ...]]:
    """A pinochle hand's cards as dealt, as a deal from explicit cards lists them: the
    hands by seat, then any cards dealt to nobody (the widow, the stock from the top)."""
    dealt = load_game(state.variant, rules=state.rules).initial_deal(state)
    parts = [*dealt.hands, *(cards for _, cards in dealt.undealt)]
    return [tuple(Card.parse(card) for card in part) for part in parts]


def deal(variant: str, fixed: dict[int, str], *, dealer: int = 3) -> HandState:
    """A hand where the seats in ``fixed`` hold exactly those cards and the other seats
    share the rest of the pack in card order. The default dealer 3 makes seat 0 bid first.
    """
    rules = rules_for(variant)
    deck = SINGLE_DECK if rules.deck == "single" else DOUBLE_DECK
    remaining = list(deck.copies)
    hands: dict[int, list[int]] = {}
    for seat, text in fixed.items():
        hands[seat] = [int(card) for card in parse_cards(text)]
        for face in hands[seat]:
            remaining[face] -= 1
            assert remaining[face] >= 0, f"too many copies of face {face}"
    rest = [face for face, count in enumerate(remaining) for _ in range(count)]
    for seat in range(4):
        if seat not in hands:
            hands[seat], rest = rest[: rules.hand_size], rest[rules.hand_size :]
    return hand_from_cards(variant, [hands[seat] for seat in range(4)], dealer=dealer)


def apply_all(state: HandState, *actions: str) -> HandState:
    for action in actions:
        state.apply(action)
    return state


def play_out_first_legal(state: HandState) -> HandState:
    """Finish the hand, every player choosing their first legal action."""
    while not state.is_terminal():
        state.apply(next(iter(state.legal_actions)))
    return state
