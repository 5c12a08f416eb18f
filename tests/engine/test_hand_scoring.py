"""RULES.md sections 2 and 5: trump, passing, meld, throw-in, made, set, no marriage.

The "one suit each" deal: seat 0 holds all twelve spades, seat 1 all hearts, seat 2 all
diamonds, seat 3 all clubs. With spades trump, seat 0 melds a double run (150) and two
dixes (2) = 152; every other seat melds two marriages (4). Seat 0 leads spades and
nobody else holds one, so team 0 takes all 24 counters and the last trick.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    HandOutcome,
    HandState,
    IllegalActionError,
    Phase,
    Suit,
    hand_from_cards,
    new_hand,
    rules_for,
)

from .helpers import apply_all, deal, play_out_first_legal

ONE_SUIT_EACH = {
    0: "AS AS TS TS KS KS QS QS JS JS 9S 9S",
    1: "AH AH TH TH KH KH QH QH JH JH 9H 9H",
    2: "AD AD TD TD KD KD QD QD JD JD 9D 9D",
    3: "AC AC TC TC KC KC QC QC JC JC 9C 9C",
}


def single4_with_bid(bid: int, **overrides: Any) -> HandState:
    state = deal("single4", ONE_SUIT_EACH)
    if overrides:
        state = new_hand_like(state, overrides)
    return apply_all(
        state, f"bid {bid}", "pass", "pass", "pass", "trump S", "give TD TD KD", "give TD TD KD"
    )


def new_hand_like(state: HandState, overrides: dict[str, Any]) -> HandState:
    rules = rules_for(state.rules.name, overrides)
    hands = [state.hand(seat) for seat in range(4)]
    return hand_from_cards(state.rules.name, hands, dealer=state.dealer, rules=rules)


def test_5_made_the_declaring_team_adds_meld_plus_counters_plus_last_trick() -> None:
    result = play_out_first_legal(single4_with_bid(170)).result()
    declarers, defenders = result.teams
    assert result.outcome is HandOutcome.MADE
    assert (declarers.meld, declarers.counters, declarers.last_trick) == (156, 24, 1)
    assert declarers.tricks == 12
    assert declarers.score == 181
    assert (defenders.meld, defenders.counters, defenders.last_trick, defenders.score) == (
        8,
        0,
        0,
        8,
    )
    assert result.team_scores == (181, 8)
    assert result.seat_scores == (181, 8, 181, 8)


def test_5_meld_breakdown_lists_each_item_with_its_seat() -> None:
    result = play_out_first_legal(single4_with_bid(170)).result()
    items = [
        (seat, item.kind.value, item.times, item.value) for seat, item in result.teams[0].meld_items
    ]
    assert items == [
        (0, "run", 2, 150),
        (0, "dix", 2, 2),
        (2, "marriage", 2, 4),
    ]


def test_5_set_the_declaring_team_loses_the_bid_and_the_defenders_keep_their_points() -> None:
    result = play_out_first_legal(single4_with_bid(200)).result()
    assert result.outcome is HandOutcome.SET
    assert result.team_scores == (-200, 8)


def test_5_made_exactly_at_the_bid() -> None:
    result = play_out_first_legal(single4_with_bid(181)).result()
    assert result.outcome is HandOutcome.MADE
    assert result.team_scores == (181, 8)


def test_5_meld_needs_trick_a_team_without_a_trick_loses_its_meld() -> None:
    result = play_out_first_legal(single4_with_bid(170, meld_needs_trick=True)).result()
    assert result.team_scores == (181, 0)
    assert result.teams[1].meld_counted is False
    assert result.teams[1].meld == 8


def auction4_to_throw_in() -> HandState:
    return apply_all(
        deal("auction4", ONE_SUIT_EACH),
        "bid 260",
        "pass",
        "pass",
        "pass",
        "trump S",
        "give TD TD KD KD",
        "give TD TD KD KD",
    )


def test_5_throw_in_the_declaring_team_loses_the_bid_and_defenders_add_meld_only() -> None:
    state = auction4_to_throw_in()
    assert state.phase is Phase.THROW_IN
    assert [str(a) for a in state.legal_actions] == ["throw-in", "play-on"]
    state.apply("throw-in")
    result = state.result()
    assert result.outcome is HandOutcome.THROWN_IN
    assert result.team_scores == (-260, 80)
    assert result.teams[1].counters == 0
    assert result.teams[1].tricks == 0


def test_2_play_on_declines_the_throw_in_and_the_declarer_leads() -> None:
    state = auction4_to_throw_in()
    state.apply("play-on")
    assert state.phase is Phase.TRICKS
    assert state.current_player == 0
    result = play_out_first_legal(state).result()
    # Scale 10: double run 1500, two dixes 20, marriages 40 per seat; counters 10 each.
    assert result.team_scores == (1500 + 20 + 40 + 240 + 10, 80)


def test_6_single4_has_no_throw_in() -> None:
    state = single4_with_bid(170)
    assert state.phase is Phase.TRICKS
    with pytest.raises(IllegalActionError) as raised:
        state.apply("throw-in")
    assert raised.value.rule == "phase"


def test_5_no_marriage_the_hand_is_not_played_and_nobody_scores_meld() -> None:
    state = deal("double4", {0: "AS AS AS AS AH AH AH AH AD AD AD AD AC AC AC AC TS TS TS TS"})
    apply_all(state, "bid 55", "pass", "pass", "pass")
    assert state.is_terminal()
    result = state.result()
    assert result.outcome is HandOutcome.NO_MARRIAGE
    assert result.team_scores == (-55, 0)
    assert [team.meld for team in result.teams] == [0, 0]
    assert state.observation(1)["melds"] is None


def test_6_double4_trump_must_be_a_suit_where_the_declarer_holds_a_marriage() -> None:
    state = deal("double4", {0: "AS AS AS AS AH AH AH AH AD AD AD AD AC AC AC AC KH QH TS TS"})
    apply_all(state, "bid 50", "pass", "pass", "pass")
    assert [str(action) for action in state.legal_actions] == ["trump H"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("trump S")
    assert raised.value.rule == "trump_needs_marriage"
    state.apply("trump H")
    assert state.trump is Suit.H


def test_2_passing_partner_to_declarer_then_declarer_back() -> None:
    state = apply_all(new_hand("single4", seed=77, dealer=3), "bid 16", "pass", "pass", "pass")
    state.apply("trump H")
    assert state.phase.value == "pass_to_declarer"
    assert state.current_player == 2
    partner_cards = state.hand(2)[:3]
    state.apply("give " + " ".join(str(card) for card in partner_cards))
    assert len(state.hand(0)) == 15 and len(state.hand(2)) == 9
    assert state.phase.value == "pass_back"
    assert state.current_player == 0
    returned = [partner_cards[0], *[c for c in state.hand(0) if c not in partner_cards][:2]]
    state.apply("give " + " ".join(str(card) for card in returned))
    assert [len(state.hand(seat)) for seat in range(4)] == [12, 12, 12, 12]
    assert partner_cards[0] in state.hand(2)
    assert state.phase is Phase.TRICKS


def test_2_passed_cards_are_seen_only_by_the_two_partners() -> None:
    state = apply_all(new_hand("single4", seed=77, dealer=3), "bid 16", "pass", "pass", "pass")
    state.apply("trump H")
    state.apply("give " + " ".join(str(card) for card in state.hand(2)[:3]))
    for seat in (0, 2):
        assert "cards" in state.observation(seat)["passing"][0]
    for seat in (1, 3):
        entry = state.observation(seat)["passing"][0]
        assert entry == {"from": 2, "to": 0, "count": 3}


def test_2_passing_the_wrong_number_of_cards_or_cards_not_held_is_illegal() -> None:
    state = apply_all(new_hand("single4", seed=77, dealer=3), "bid 16", "pass", "pass", "pass")
    state.apply("trump H")
    hand = state.hand(2)
    with pytest.raises(IllegalActionError) as raised:
        state.apply(f"give {hand[0]} {hand[1]}")
    assert raised.value.rule == "pass_count"
    missing = next(card for card in state.hand(1) if card not in hand)
    with pytest.raises(IllegalActionError) as raised:
        state.apply(f"give {hand[0]} {hand[1]} {missing}")
    assert raised.value.rule == "cards_not_in_hand"
    assert len(state.legal_actions) == len(set(state.legal_actions))


def test_2_the_legal_passes_are_every_distinct_set_of_cards() -> None:
    state = apply_all(deal("single4", ONE_SUIT_EACH), "bid 16", "pass", "pass", "pass", "trump S")
    # Seat 2 holds six distinct faces twice each: multisets of size 3 = C(6+3-1, 3) - 6.
    assert len(state.legal_actions) == 50
    assert len(list(state.legal_actions)) == 50
    assert state.legal_actions[49] in state.legal_actions


def test_2_the_declarer_leads_the_first_trick() -> None:
    state = single4_with_bid(170)
    assert state.current_player == 0


def test_a_finished_hand_refuses_actions() -> None:
    state = play_out_first_legal(single4_with_bid(170))
    assert state.current_player is None
    assert len(state.legal_actions) == 0
    with pytest.raises(IllegalActionError) as raised:
        state.apply("pass")
    assert raised.value.rule == "hand_over"


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError):
        new_hand("single4", seed=1).result()


def test_rules_for_another_variant_are_refused() -> None:
    with pytest.raises(ValueError):
        new_hand("single4", seed=1, rules=rules_for("double4"))


def test_10_changing_a_returned_observation_does_not_change_the_next_one() -> None:
    state = single4_with_bid(170)
    first = state.observation(1)
    first["melds"][0]["items"][0]["cards"].append("AS")
    first["melds"][0]["items"].clear()
    first["hand"].clear()
    assert state.observation(1) != first
    assert state.observation(1) == single4_with_bid(170).observation(1)
