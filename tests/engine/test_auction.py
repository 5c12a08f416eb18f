"""RULES.md sections 2 and 6: the auction, bid ladders, pass with help, the stuck dealer."""

from __future__ import annotations

import pytest

from engine import Bid, HandState, IllegalActionError, Phase, new_hand, rules_for

from .helpers import apply_all


def auction(variant: str, *actions: str) -> HandState:
    """A hand dealt by seat 3, so that seat 0 bids first."""
    return apply_all(new_hand(variant, seed=1234, dealer=3), *actions)


def bids_allowed(state: HandState) -> list[int]:
    return [action.amount for action in state.legal_actions if isinstance(action, Bid)]


def rule_broken(state: HandState, action: str) -> str:
    with pytest.raises(IllegalActionError) as raised:
        state.apply(action)
    return raised.value.rule


@pytest.mark.parametrize(
    ("variant", "minimum"), [("single4", 16), ("auction4", 250), ("double4", 50)]
)
def test_2_when_everybody_else_passes_the_dealer_is_stuck_at_the_minimum(
    variant: str, minimum: int
) -> None:
    state = auction(variant, "pass", "pass", "pass")
    assert state.current_player == 3
    assert [str(action) for action in state.legal_actions] == [f"bid {minimum}"]
    assert rule_broken(state, "pass") == "dealer_stuck"
    assert rule_broken(state, f"bid {state.rules.bids[1]}") == "dealer_stuck"
    state.apply(f"bid {minimum}")
    assert state.declarer == 3
    assert state.bid == minimum


def test_2_the_stuck_dealer_may_not_pass_with_help_either() -> None:
    state = auction("auction4", "pass", "pass-help", "pass")
    assert rule_broken(state, "pass-help") == "dealer_stuck"


def test_2_the_redeal_rule_lets_everybody_pass_and_nobody_scores() -> None:
    rules = rules_for("single4", {"all_pass": "redeal"})
    state = apply_all(new_hand("single4", seed=3, dealer=3, rules=rules), *["pass"] * 4)
    assert state.is_terminal()
    assert state.result().outcome.value == "passed_out"
    assert state.result().team_scores == (0, 0)


def test_2_the_auction_ends_when_all_but_the_last_bidder_have_passed() -> None:
    state = auction("single4", "bid 16", "pass", "bid 20", "pass", "pass")
    assert state.phase is Phase.TRUMP
    assert state.declarer == 2
    assert state.bid == 20
    assert state.current_player == 2


def test_2_a_pass_is_final_the_player_is_skipped_afterwards() -> None:
    state = auction("single4", "pass", "bid 16", "pass", "bid 17")
    assert state.current_player == 1


def test_6_single4_bids_start_at_16_and_may_rise_by_any_amount() -> None:
    state = auction("single4")
    assert rule_broken(state, "bid 15") == "bid_ladder"
    state.apply("bid 16")
    assert bids_allowed(state)[:3] == [17, 18, 19]
    state.apply("bid 30")
    assert state.bid == 30


def test_6_single4_refuses_bids_above_the_documented_limit() -> None:
    state = auction("single4")
    assert max(bids_allowed(state)) == state.rules.bid_max == 250
    assert rule_broken(state, "bid 251") == "bid_ladder"


def test_6_auction4_the_first_bid_is_250_or_260() -> None:
    state = auction("auction4")
    assert [str(action) for action in state.legal_actions] == [
        "pass",
        "pass-help",
        "bid 250",
        "bid 260",
    ]
    assert rule_broken(state, "bid 270") == "bid_ladder"


def test_6_auction4_each_bid_is_the_previous_plus_10_or_a_jump_of_20() -> None:
    state = auction("auction4", "bid 260")
    assert bids_allowed(state) == [270, 280]
    assert rule_broken(state, "bid 290") == "bid_ladder"
    assert rule_broken(state, "bid 275") == "bid_ladder"
    assert rule_broken(state, "bid 260") == "bid_ladder"
    state.apply("bid 280")
    assert bids_allowed(state) == [290, 300]


def test_6_auction4_pass_with_help_is_public_and_final() -> None:
    state = auction("auction4", "bid 250", "pass-help", "pass", "bid 260")
    for seat in range(4):
        history = state.observation(seat)["auction"]
        assert {"seat": 1, "action": "pass-help"} in history
    state.apply("bid 270")
    # Seat 1 passed with help: seat 3 is next after seat 0.
    assert state.current_player == 3
    state.apply("pass")
    assert state.declarer == 0
    assert state.bid == 270


def test_6_single4_has_no_pass_with_help() -> None:
    state = auction("single4")
    assert rule_broken(state, "pass-help") == "pass_with_help"


def test_6_double4_any_integer_from_50_to_60_then_multiples_of_5() -> None:
    state = auction("double4")
    assert bids_allowed(state)[:13] == [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70]
    state.apply("bid 58")
    assert rule_broken(state, "bid 61") == "bid_ladder"
    assert rule_broken(state, "bid 62") == "bid_ladder"
    state.apply("bid 75")
    assert state.bid == 75


def test_a_bid_in_the_wrong_phase_names_the_phase_rule() -> None:
    state = auction("single4", "bid 16", "pass", "pass", "pass")
    assert rule_broken(state, "bid 17") == "phase"
