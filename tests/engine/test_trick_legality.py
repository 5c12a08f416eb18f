"""RULES.md section 4: who wins a trick and what may be played, for every parameter value.

Trump is spades throughout unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from engine import (
    HandState,
    IllegalActionError,
    MustHead,
    MustTrump,
    Suit,
    legal_plays,
    parse_cards,
    trick_winner,
)

from .helpers import apply_all, deal


def legal(
    hand: str,
    trick: str,
    *,
    head: str = "always",
    trump_rule: str = "always",
    overtrump: bool = False,
    trump: str = "S",
) -> str:
    plays = legal_plays(
        parse_cards(hand),
        parse_cards(trick),
        Suit.parse(trump),
        must_head=head,
        must_trump=trump_rule,
        must_overtrump=overtrump,
    )
    return " ".join(str(card) for card in plays)


# Who wins


def test_4_the_highest_card_of_the_suit_led_wins_without_trump() -> None:
    assert trick_winner(parse_cards("QH TH AH KH"), Suit.S) == 2


def test_4_the_highest_trump_wins_once_trumped() -> None:
    assert trick_winner(parse_cards("AH 9S TS AH"), Suit.S) == 2


def test_4_cards_of_a_third_suit_never_win() -> None:
    assert trick_winner(parse_cards("9H AD AC TD"), Suit.S) == 0


def test_4_of_two_identical_cards_the_first_played_wins() -> None:
    assert trick_winner(parse_cards("AH AH"), Suit.S) == 0
    assert trick_winner(parse_cards("KH 9S 9S JH"), Suit.S) == 1


# Leading and following


def test_4_the_leader_may_play_any_card() -> None:
    assert legal("AH 9D KS", "") == "KS AH 9D"


def test_4_must_follow_a_player_holding_the_led_suit_plays_it() -> None:
    assert legal("AH KD KS", "JH", head="never") == "AH"


def test_4_a_player_void_in_the_led_suit_and_in_trump_may_play_anything() -> None:
    assert legal("AH KD", "QC") == "AH KD"


# must_head


def test_4_must_head_always_requires_beating_the_winning_card() -> None:
    assert legal("AH KH 9H", "QH") == "AH KH"


def test_4_must_head_always_beats_the_current_winner_not_the_card_led() -> None:
    assert legal("AH KH 9H", "QH TH") == "AH"


def test_4_must_head_always_any_card_of_the_suit_when_unable_to_beat() -> None:
    assert legal("KH 9H", "QH AH") == "KH 9H"


def test_4_must_head_always_already_trumped_any_card_of_the_led_suit() -> None:
    assert legal("AH 9H", "QH 9S") == "AH 9H"


def test_4_must_head_always_applies_to_trump_led() -> None:
    assert legal("AS JS", "TS") == "AS"


def test_4_must_head_trump_led_only_no_obligation_in_a_plain_suit() -> None:
    assert legal("AH 9H", "QH TH", head="trump_led_only") == "AH 9H"


def test_4_must_head_trump_led_only_seed_example_queen_led_ten_played_must_play_ace() -> None:
    assert legal("AS JS 9S", "QS TS", head="trump_led_only") == "AS"


def test_4_must_head_trump_led_only_any_trump_when_unable_to_beat() -> None:
    assert legal("TS 9S", "QS AS", head="trump_led_only") == "TS 9S"


def test_4_must_head_lead_suit_even_if_trumped_beats_the_led_suit_card() -> None:
    assert legal("AH 9H", "QH 9S", head="lead_suit_even_if_trumped") == "AH"


def test_4_must_head_lead_suit_even_if_trumped_without_a_higher_card_any_of_the_suit() -> None:
    assert legal("KH 9H", "AH 9S", head="lead_suit_even_if_trumped") == "KH 9H"


def test_4_must_head_never_any_card_of_the_led_suit() -> None:
    assert legal("AH KH 9H", "QH", head="never") == "AH KH 9H"


def test_4_must_head_never_still_requires_following() -> None:
    assert legal("AH KS", "QH", head="never") == "AH"


# must_trump and must_overtrump


def test_4_must_trump_always_a_void_player_holding_trump_plays_trump() -> None:
    assert legal("9S KD", "AH") == "9S"


def test_4_must_trump_always_even_a_trump_too_low_to_win() -> None:
    assert legal("9S KD", "AH TS") == "9S"


def test_4_must_trump_only_if_winning_any_card_when_no_trump_would_win() -> None:
    assert legal("9S KD", "AH TS", trump_rule="only_if_winning") == "9S KD"


def test_4_must_trump_only_if_winning_a_winning_trump_forces_a_trump() -> None:
    assert legal("AS 9S KD", "AH TS", trump_rule="only_if_winning") == "AS 9S"


def test_4_must_trump_only_if_winning_with_overtrump_forces_the_winning_trump() -> None:
    assert legal("AS 9S KD", "AH TS", trump_rule="only_if_winning", overtrump=True) == "AS"


def test_4_must_trump_only_if_winning_untrumped_trick_any_trump_wins() -> None:
    assert legal("9S KD", "AH", trump_rule="only_if_winning") == "9S"


def test_4_must_overtrump_a_void_player_beats_the_trump_in_the_trick() -> None:
    assert legal("AS KS 9S KD", "AH TS", overtrump=True) == "AS"


def test_4_must_overtrump_unable_to_overtrump_still_plays_a_trump() -> None:
    assert legal("KS 9S KD", "AH TS", overtrump=True) == "KS 9S"


def test_4_must_overtrump_off_any_trump() -> None:
    assert legal("AS KS 9S KD", "AH TS", overtrump=False) == "AS KS 9S"


def test_4_must_overtrump_untrumped_trick_any_trump() -> None:
    assert legal("AS 9S KD", "AH KH", overtrump=True) == "AS 9S"


def test_4_an_identical_trump_does_not_overtrump() -> None:
    assert legal("TS KS KD", "AH TS", overtrump=True) == "TS KS"


def test_4_following_trump_led_is_following_not_trumping() -> None:
    assert legal("KS 9S AH", "TS", head="never", overtrump=True) == "KS 9S"


# Any deck


def test_4_legality_works_on_the_double_deck_identical_cards_do_not_beat() -> None:
    assert legal("AH AH KH", "AH") == "AH KH"


def test_4_legality_accepts_enum_parameters_and_any_trump() -> None:
    plays = legal_plays(
        parse_cards("AD 9D QH"),
        parse_cards("KH"),
        Suit.D,
        must_head=MustHead.ALWAYS,
        must_trump=MustTrump.ALWAYS,
        must_overtrump=False,
    )
    assert [str(card) for card in plays] == ["QH"]


# In a hand: the rule broken is named and nothing changes


def _first_trick_position() -> HandState:
    # Seat 0 declares in spades and leads; seat 1 holds hearts and diamonds.
    state = deal(
        "single4",
        {
            0: "AS AS TS TS KS KS QS QS JS JS 9H 9H",
            1: "AH AH TH TH KH KH QH QH JH JH AD AD",
        },
    )
    apply_all(state, "bid 16", "pass", "pass", "pass", "trump S")
    # Seat 2 passes three cards to the declarer and gets the same three back.
    return apply_all(state, "give TD TD KD", "give TD TD KD")


def test_4_an_illegal_card_names_the_rule_and_leaves_the_state_unchanged() -> None:
    state = apply_all(_first_trick_position(), "play 9H")
    before = [state.observation(seat) for seat in range(4)]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("play AD")
    assert raised.value.rule == "must_follow"
    assert isinstance(raised.value, ValueError)
    assert [state.observation(seat) for seat in range(4)] == before
    assert len(state.history) == 8


def test_4_playing_a_card_not_held_is_illegal() -> None:
    state = _first_trick_position()
    with pytest.raises(IllegalActionError) as raised:
        state.apply("play AH")
    assert raised.value.rule == "card_not_in_hand"


def test_4_in_a_hand_the_first_of_two_identical_cards_takes_the_trick() -> None:
    state = deal(
        "auction4",
        {
            0: "AS AS TS TS KS KS QS QS JS JS 9S AH",
            1: "AH TH TH KH KH QH QH JH JH 9H 9H 9S",
        },
    )
    apply_all(state, "bid 250", "pass", "pass", "pass", "trump S")
    apply_all(state, "give TD TD KD KD", "give TD TD KD KD", "play-on", "play AH")
    # must_head "always": the second AH does not beat the first, so any heart will do.
    assert [str(action) for action in state.legal_actions] == [
        "play AH",
        "play TH",
        "play KH",
        "play QH",
        "play JH",
        "play 9H",
    ]
    state.apply("play AH")
    state.apply(str(next(iter(state.legal_actions))))
    state.apply(str(next(iter(state.legal_actions))))
    trick = state.observation(2)["tricks"][0]
    assert trick["cards"][:2] == ["AH", "AH"]
    assert trick["winner"] == 0
    assert state.current_player == 0
