"""RULES.md 7.2 (``cutthroat3``) worked by hand, with sections 2, 4 and 5 it refers to.

The "spades declarer" deal (dealer 2, so seat 0 bids first):

- seat 0: all twelve spades, AH AH TH;
- seat 1: TH KH KH QH QH JH JH 9H 9H AD AD TD TD KD KD;
- seat 2: QD QD JD JD 9D 9D AC AC TC TC KC KC QC QC JC;
- widow: JC 9C 9C.

Seat 0 bids 250 and the others pass. With the widow and spades trump seat 0 melds a
double run (1500) and two dixes (20) = 1520, which needs every spade: only AH AH TH JC 9C
9C may be buried. Seat 1 melds two heart marriages (40), seat 2 two club marriages (40).
"""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from engine import HandOutcome, IllegalActionError, Rules, RulesError, Suit, new_hand, rules_for
from engine.actions import Bury
from engine.cutthroat import CutthroatGame, CutthroatPhase, CutthroatState, cutthroat_from_cards

SPADES_DECLARER = [
    "AS AS TS TS KS KS QS QS JS JS 9S 9S AH AH TH",
    "TH KH KH QH QH JH JH 9H 9H AD AD TD TD KD KD",
    "QD QD JD JD 9D 9D AC AC TC TC KC KC QC QC JC",
    "JC 9C 9C",
]


def spades_declarer(**overrides: object) -> CutthroatState:
    rules = rules_for("cutthroat3", overrides) if overrides else None
    return cutthroat_from_cards("cutthroat3", SPADES_DECLARER, dealer=2, rules=rules)


def apply_all(state: CutthroatState, *actions: str) -> CutthroatState:
    for action in actions:
        state.apply(action)
    return state


def first_legal_to_the_end(state: CutthroatState) -> CutthroatState:
    while not state.is_terminal():
        state.apply(next(iter(state.legal_actions)))
    return state


def test_7_2_the_auction_is_auction4s_without_pass_with_help() -> None:
    state = spades_declarer()
    assert [str(a) for a in state.legal_actions] == ["pass", "bid 250", "bid 260"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("pass-help")
    assert raised.value.rule == "pass_with_help"
    state.apply("bid 260")
    assert [str(a) for a in state.legal_actions] == ["pass", "bid 270", "bid 280"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("bid 290")
    assert raised.value.rule == "bid_ladder"


def test_7_2_everyone_passing_leaves_the_dealer_stuck_at_250() -> None:
    state = apply_all(spades_declarer(), "pass", "pass")
    assert state.current_player == 2
    assert [str(a) for a in state.legal_actions] == ["bid 250"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("pass")
    assert raised.value.rule == "dealer_stuck"
    state.apply("bid 250")
    assert (state.declarer, state.bid, state.phase) == (2, 250, CutthroatPhase.TRUMP)


def test_7_2_the_declarer_takes_the_widow_which_everybody_sees() -> None:
    state = apply_all(spades_declarer(), "bid 250", "pass", "pass")
    assert len(state.hand(0)) == 18
    for seat in range(3):
        assert state.observation(seat)["widow"] == ["JC", "9C", "9C"]
    assert state.observation(1)["hand_sizes"] == [18, 15, 15]


def test_7_2_a_private_widow_is_seen_by_the_declarer_only() -> None:
    state = apply_all(spades_declarer(widow_public=False), "bid 250", "pass", "pass")
    assert state.observation(0)["widow"] == ["JC", "9C", "9C"]
    assert state.observation(1)["widow"] is None


def test_7_2_cards_used_in_the_declarers_meld_may_not_be_buried() -> None:
    state = apply_all(spades_declarer(), "bid 250", "pass", "pass", "trump S")
    assert state.phase is CutthroatPhase.BURY
    with pytest.raises(IllegalActionError) as raised:
        state.apply("bury AS 9C 9C")
    assert raised.value.rule == "bury_meld_card"
    with pytest.raises(IllegalActionError) as raised:
        state.apply("bury AD 9C 9C")
    assert raised.value.rule == "cards_not_in_hand"
    with pytest.raises(IllegalActionError) as raised:
        state.apply("bury 9C 9C")
    assert raised.value.rule == "bury_count"
    # The free cards are AH AH TH JC 9C 9C: 3 of 6 with repeats, 10 distinct multisets.
    assert len(state.legal_actions) == 10 == len(list(state.legal_actions))
    for action in state.legal_actions:
        assert isinstance(action, Bury)
        assert all(card.suit is not Suit.S for card in action.cards)


def test_7_2_buried_counters_count_for_the_declarer() -> None:
    state = apply_all(
        spades_declarer(), "bid 250", "pass", "pass", "trump S", "bury AH AH TH", "play-on"
    )
    assert state.observation(0)["buried"] == ["AH", "AH", "TH"]
    assert state.observation(1)["buried"] is None
    result = first_legal_to_the_end(state).result()
    declarer, seat1, seat2 = result.teams
    assert result.outcome is HandOutcome.MADE
    # Tricks: the 12 spade leads take 60 + 60 + 60; the clubs fall to seat 2 (TD, KD, KD).
    assert (declarer.meld, declarer.counters, declarer.last_trick) == (1520, 180 + 30, 0)
    assert declarer.score == 1520 + 210
    assert (seat1.meld, seat1.counters, seat1.score) == (40, 0, 40)
    assert (seat2.meld, seat2.counters, seat2.last_trick, seat2.score) == (40, 30, 10, 80)
    assert sum(team.taken for team in result.teams) == 250
    assert result.seat_scores == (1730, 40, 80)
    assert state.observation(1)["buried"] == ["AH", "AH", "TH"]


def test_7_2_throw_in_loses_the_bid_and_each_opponent_adds_its_own_meld() -> None:
    state = apply_all(
        spades_declarer(), "bid 250", "pass", "pass", "trump S", "bury AH AH TH", "throw-in"
    )
    result = state.result()
    assert result.outcome is HandOutcome.THROWN_IN
    assert result.seat_scores == (-250, 40, 40)
    assert all(team.counters == 0 for team in result.teams)
    assert state.observation(2)["buried"] is None


def test_5_a_set_declarer_loses_the_bid_and_opponents_keep_meld_and_counters() -> None:
    # Seat 1 declares hearts with at most 100 meld + 250 in tricks, against a bid of 400.
    state = cutthroat_from_cards("cutthroat3", SPADES_DECLARER, dealer=0)
    state.apply("bid 260")
    state.apply("pass")
    for amount in range(280, 400, 20):
        state.apply(f"bid {amount}")
    state.apply("pass")
    assert (state.declarer, state.bid) == (1, 380)
    apply_all(state, "trump H", "bury TD TD KD", "play-on")
    result = first_legal_to_the_end(state).result()
    assert result.outcome is HandOutcome.SET
    assert result.teams[1].score == -380
    assert result.teams[1].meld == 100 and result.teams[1].counters >= 30
    for seat in (0, 2):
        team = result.teams[seat]
        assert team.meld == 40
        assert team.score == team.meld + team.taken
    assert sum(team.taken for team in result.teams) == 250


def test_7_2_with_fewer_than_three_free_cards_any_three_may_be_buried() -> None:
    # Double run, two dixes, double pinochle and aces around use 17 of the 18 cards.
    hands = [
        "AS AS TS TS KS KS QS QS JS JS 9S 9S JD JD AH",
        "TH TH KH KH QH QH JH JH 9H 9H AD TD TD KD KD",
        "QD QD 9D 9D AC TC TC KC KC QC QC JC JC 9C 9C",
        "AD AC AH",
    ]
    state = cutthroat_from_cards("cutthroat3", hands, dealer=2)
    apply_all(state, "bid 250", "pass", "pass", "trump S")
    assert len(state.legal_actions) > 10
    state.apply("bury AS TS TS")
    melds = state.observation(1)["melds"]
    assert melds is not None
    # The meld is that of the 15 cards kept: no run without a ten, two royal marriages,
    # two dixes, double pinochle and aces around (one AS left).
    assert melds[0]["total"] == 80 + 20 + 300 + 100


def test_4_trick_rules_as_single4_trump_led_heads_a_side_suit_does_not() -> None:
    hands = [
        "KS QS JS 9S KH QH JH 9H KD QD JD 9D KC QC JC",
        "AS TS 9S AH AH TH TH 9H AD AD TD TD 9D AC TC",
        "AS TS KS QS JS KH QH JH KD QD JD KC QC JC 9C",
        "AC TC 9C",
    ]
    state = cutthroat_from_cards("cutthroat3", hands, dealer=2)
    apply_all(state, "bid 250", "pass", "pass", "trump S", "bury 9H 9D 9C", "play-on")
    state.apply("play KS")
    assert sorted(str(a) for a in state.legal_actions) == ["play AS", "play TS"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("play 9S")
    assert raised.value.rule == "must_head"
    state.apply("play TS")
    assert [str(a) for a in state.legal_actions] == ["play AS"]
    state.apply("play AS")
    assert state.current_player == 2
    state.apply("play KH")
    assert sorted(str(a) for a in state.legal_actions) == ["play JH", "play KH", "play QH"]
    state.apply("play JH")
    assert sorted(str(a) for a in state.legal_actions) == ["play 9H", "play AH", "play TH"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("play AD")
    assert raised.value.rule == "must_follow"


def test_5_meld_parameters_the_declarers_meld_is_shown_with_its_items() -> None:
    state = apply_all(
        spades_declarer(), "bid 250", "pass", "pass", "trump S", "bury AH AH TH", "play-on"
    )
    melds = state.observation(2)["melds"]
    assert melds is not None
    assert [(m["seat"], m["total"]) for m in melds] == [(0, 1520), (1, 40), (2, 40)]
    assert [item["name"] for item in melds[0]["items"]] == ["double run", "dix x2"]


@pytest.mark.parametrize("seed", range(6))
def test_5_a_game_ends_at_the_target_and_a_declarer_reaching_it_wins(seed: int) -> None:
    target = rules_for("cutthroat3", {"target": 300})
    game = CutthroatGame("cutthroat3", seed=seed, rules=target)
    rng = random.Random(seed)
    while not game.is_terminal():
        legal = game.legal_actions
        cautious = game.phase is CutthroatPhase.AUCTION
        game.apply(legal[0] if cautious else legal[rng.randrange(len(legal))])
    result = game.result()
    assert result.winner is not None
    assert game.scores[result.winner] >= 300
    last = result.hands[-1]
    if last.declarer is not None and game.scores[last.declarer] >= 300:
        assert result.winner == last.declarer
    else:
        assert game.scores[result.winner] == max(game.scores)


@pytest.mark.parametrize("name", ["engine.cutthroat", "engine.individual"])
def test_the_docstring_examples_run(name: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0


@pytest.mark.parametrize("variant", ["cutthroat3", "twohand"])
def test_the_four_hand_state_refuses_the_individual_variants(variant: str) -> None:
    with pytest.raises(ValueError, match="not a four-hand variant"):
        new_hand(variant, seed=1)


def test_the_four_hand_game_keeps_four_players_and_its_tie_rule() -> None:
    with pytest.raises(RulesError) as raised:
        rules_for("auction4", {"players": 3})
    assert raised.value.parameter == "players"
    with pytest.raises(RulesError) as raised:
        rules_for("auction4", {"both_reach": "higher_total"})
    assert raised.value.parameter == "both_reach"
    with pytest.raises(RulesError) as raised:
        rules_for("cutthroat3", {"widow": 4})
    assert raised.value.parameter == "players"
    with pytest.raises(RulesError) as raised:
        rules_for("twohand", {"deck": "double"})
    assert raised.value.parameter == "deck"


def test_rules_written_before_the_individual_games_still_load() -> None:
    # The first documents named no game, and held neither a widow nor a stock.
    data = rules_for("auction4").to_json()
    for added in ("game", "both_reach"):
        del data[added]
    assert Rules.from_json(data) == rules_for("auction4")
    assert Rules.from_json(rules_for("cutthroat3").to_json()) == rules_for("cutthroat3")
