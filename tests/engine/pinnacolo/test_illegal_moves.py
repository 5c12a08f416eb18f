"""Every class of illegal move is refused with an error naming its rule, and changes
nothing (RULES.md sections 8 and 10)."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalActionError
from engine.pinnacolo import PinnacoloHand, hand_from_cards, pinnacolo_rules


def after(state: PinnacoloHand, *texts: str) -> PinnacoloHand:
    for text in texts:
        state.apply(text)
    return state


def refuses(state: PinnacoloHand, text: str, rule: str) -> IllegalActionError:
    before = json.dumps([state.observation(seat) for seat in range(state.num_players)])
    assert text not in [str(action) for action in state.legal_actions]
    with pytest.raises(IllegalActionError) as caught:
        state.apply(text)
    assert caught.value.rule == rule
    assert json.dumps([state.observation(seat) for seat in range(state.num_players)]) == before
    return caught.value


def seat1_to_meld(cards: str, stock: str = "QD") -> PinnacoloHand:
    """Seat 1 has drawn and may meld from ``cards`` plus the drawn card."""
    return after(hand_from_cards("pinnacolo2", ["9S 9S", cards], pile="KD", stock=stock), "draw")


def test_a_poker_holds_no_wild() -> None:
    # Section 8: "No wild may be added to a poker".
    state = seat1_to_meld("7S 7H 7D JK 9C 9C")
    refuses(state, "meld 7S 7H 7D JK=7C", "poker_no_wild")
    state.apply("meld 7S 7H 7D")
    refuses(state, "add 0 JK=7C", "poker_no_wild")


def test_a_meld_holds_one_wild_at_most() -> None:
    # Section 8, Decision: "a meld holds at most one wild".
    refuses(seat1_to_meld("5H JK 2C 9C 9C"), "meld 5H JK=6H 2C=7H", "wilds_per_meld")


def test_a_league_may_allow_two_wilds_but_never_as_many_as_naturals() -> None:
    rules = pinnacolo_rules("pinnacolo2", {"wilds_per_meld": 2})
    state = hand_from_cards(
        "pinnacolo2", ["9S 9S", "5H JK 7H 2C 9H 7S QS QS"], pile="KD", stock="QD", rules=rules
    )
    state.apply("draw")
    refuses(state, "meld 7H JK=7S 2C=7D", "wilds_per_meld")
    refuses(state, "meld 5H JK=6H 7H 2C=8H", "wilds_per_meld")
    state.apply("meld 5H JK=6H 7H 2C=8H 9H")
    assert state.melds[0].points() == 5 + 25 + 10 + 20 + 10


def test_the_ace_sits_at_one_end_only() -> None:
    # Section 8: the ladder A 3 ... K A, "no K A 3".
    error = refuses(seat1_to_meld("KH AH 3H 9C 9C"), "meld KH AH 3H", "ace_one_end")
    assert "K A 3" in str(error)


def test_a_tris_needs_three_suits() -> None:
    refuses(seat1_to_meld("7H 7H 7S 9C 9C"), "meld 7H 7H 7S", "tris_suits")


def test_a_wild_in_a_tris_is_declared_as_a_suit() -> None:
    refuses(seat1_to_meld("7H 7S JK 9C 9C"), "meld 7H 7S JK", "wild_declared")


def test_three_cards_neither_one_rank_nor_one_suit_are_no_meld() -> None:
    refuses(seat1_to_meld("7H 8S 9D 9C 9C"), "meld 7H 8S 9D", "meld_kind")


def test_two_sequences_are_never_joined() -> None:
    # Section 8: "Two sequences on the table are never joined."
    state = seat1_to_meld("5H 6H 7H 9H TH JH 8H QS", stock="QS")
    after(state, "meld 5H 6H 7H", "meld 9H TH JH")
    refuses(state, "join 0 1", "no_joining")
    # 8H fits meld 0 or meld 1, but only as a card of one of them.
    refuses(state, "add 0 8H 9H", "cards_in_hand")
    state.apply("add 0 8H")
    assert [meld.text() for meld in state.melds] == [
        ["5H", "6H", "7H", "8H"],
        ["9H", "TH", "JH"],
    ]


def test_closing_needs_a_discard() -> None:
    # Section 8: "a player can never meld the last card".
    state = seat1_to_meld("5H 6H 7H 8S 8D", stock="8C")
    state.apply("meld 5H 6H 7H")
    refuses(state, "meld 8S 8D 8C", "keep_one_card")


def test_the_deepest_card_taken_is_melded_first() -> None:
    # Section 8: the deepest card taken from the pile is melded this turn; the seed: the
    # first card taken is the first melded.
    state = hand_from_cards("pinnacolo2", ["9S 9S", "7S 7H 4D 5D 6D QS"], pile="7D 2S", stock="QD")
    state.apply("take 2")
    assert state.must_meld == "7D"
    refuses(state, "meld 4D 5D 6D", "meld_taken_card")
    refuses(state, "discard QS", "meld_taken_card")
    state.apply("meld 7S 7H 7D")
    assert state.must_meld is None
    state.apply("meld 4D 5D 6D")


def test_a_take_whose_deepest_card_cannot_be_melded_is_refused() -> None:
    state = hand_from_cards("pinnacolo2", ["9S 9S", "3C 8H JS QS KD 6H"], pile="7D 9H", stock="QD")
    refuses(state, "take 2", "meld_taken_card")
    refuses(state, "take 3", "pile_depth")


def test_adding_to_the_partner_waits_for_ones_own_meld() -> None:
    # Section 8: in pairs, adding to the partner's melds "only after the player has laid
    # down a meld of their own". Seat 1 lays 5H 6H 7H; seat 3 is its partner.
    state = hand_from_cards(
        "pinnacolo",
        ["AS", "5H 6H 7H QS QS", "KS", "8H 4C 4D 4S JC JC"],
        pile="KD",
        stock="9C 3S 3D",
    )
    after(state, "draw", "meld 5H 6H 7H", "discard 9C", "draw", "discard 3S", "draw")
    assert state.current_player == 3
    refuses(state, "add 0 8H", "partner_meld_after_own")
    after(state, "meld 4S 4D 4C", "add 0 8H")
    assert state.melds[0].text() == ["5H", "6H", "7H", "8H"]


def test_nobody_adds_to_an_opponents_meld() -> None:
    state = hand_from_cards(
        "pinnacolo2", ["8H 4C 4D 4S JC JC", "5H 6H 7H QS QS"], pile="KD", stock="9C 3S"
    )
    after(state, "draw", "meld 5H 6H 7H", "discard 9C", "draw", "meld 4S 4D 4C")
    refuses(state, "add 0 8H", "own_melds_only")


def test_a_pinella_is_taken_back_only_by_its_layer_or_partner() -> None:
    # Section 8: "A pinella may be taken back only by the player who laid it or their
    # partner"; a joker by anyone who has laid down a meld.
    state = hand_from_cards(
        "pinnacolo2",
        ["7H 4C 4D 4S 9D QH QS JC", "5H 6H 2C 9S 9H JK TD TD"],
        pile="KD",
        stock="9C 3S",
    )
    after(state, "draw", "meld 5H 6H 2C=7H", "meld 9S 9H JK=9D", "discard TD")
    after(state, "draw", "meld 4S 4D 4C")
    refuses(state, "replace 0 7H", "pinella_owner")
    after(state, "replace 1 9D", "meld QH QS JK=QD")
    assert state.melds[1].text() == ["9S", "9H", "9D"]


def test_a_partner_takes_back_a_pinella() -> None:
    # Seat 1 lays 5H 6H 2C=7H; its partner, seat 3, puts 7H in its place.
    state = hand_from_cards(
        "pinnacolo",
        ["AS", "5H 6H 2C QS QS", "KS", "7H 4C 4D 4S 8S 8D JC"],
        pile="KD",
        stock="9C 3S 3D",
    )
    after(state, "draw", "meld 5H 6H 2C=7H", "discard 9C", "draw", "discard 3S", "draw")
    after(state, "meld 4S 4D 4C", "replace 0 7H", "meld 8S 8D 2C=8C")
    assert state.melds[0].text() == ["5H", "6H", "7H"]


def test_replacing_needs_a_meld_of_ones_own() -> None:
    state = hand_from_cards(
        "pinnacolo2", ["7H 4C QH JC JC", "5H 6H JK 9S 9S TD TD"], pile="KD", stock="9C 3S"
    )
    after(state, "draw", "meld 5H 6H JK=7H", "discard 9C", "draw")
    refuses(state, "replace 0 7H", "replace_after_own_meld")


def test_the_wild_taken_back_is_melded_before_the_discard() -> None:
    state = hand_from_cards(
        "pinnacolo2",
        ["7H 4C 4D 4S 8S 8D QH JC", "5H 6H JK 9S 9S TD TD"],
        pile="KD",
        stock="9C 3S",
    )
    after(state, "draw", "meld 5H 6H JK=7H", "discard 9C", "draw", "meld 4S 4D 4C")
    state.apply("replace 0 7H")
    assert state.must_meld == "JK"
    refuses(state, "discard QH", "meld_replaced_wild")
    state.apply("meld 8S 8D JK=8C")


def test_the_turn_order_is_draw_meld_discard() -> None:
    state = hand_from_cards("pinnacolo2", ["9S 9S", "5H 6H 7H QS"], pile="KD", stock="QD")
    refuses(state, "discard QS", "turn_order")
    refuses(state, "meld 5H 6H 7H", "turn_order")
    state.apply("draw")
    refuses(state, "draw", "turn_order")
    refuses(state, "take 1", "turn_order")


def test_a_finished_hand_takes_no_action() -> None:
    state = hand_from_cards("pinnacolo2", ["9S 9S", "5H 6H 7H"], pile="KD", stock="QD")
    after(state, "draw", "meld 5H 6H 7H", "discard QD")
    with pytest.raises(IllegalActionError) as caught:
        state.apply("draw")
    assert caught.value.rule == "hand_over"
