"""A turn, the pile, the stock and the deal (RULES.md section 8)."""

from __future__ import annotations

import json

import pytest

from engine.errors import ActionParseError, RulesError
from engine.pinnacolo import (
    PINNACOLO_PRESETS,
    Outcome,
    PinnacoloGame,
    PinnacoloPhase,
    PinnacoloRules,
    hand_from_cards,
    new_hand,
    parse_action,
    pinnacolo_rules,
)
from engine.pinnacolo.cards import CARD_NAMES, PACK


def test_taking_from_the_pile_takes_every_card_above() -> None:
    state = hand_from_cards("pinnacolo2", ["9S 9S", "7S 7H QS"], pile="4D 7D 2S KC", stock="QD")
    assert [str(action) for action in state.legal_actions] == ["draw", "take 2", "take 3"]
    # Taking 2S and KC: 2S could stand in a tris of sevens; taking 7D too binds 7D.
    state.apply("take 3")
    assert state.pile == ("4D",)
    assert sorted(state.hand(1)) == sorted(["7S", "7H", "QS", "7D", "2S", "KC"])
    assert state.observation(0)["must_meld"] == "7D"


def test_the_top_card_alone_binds_only_in_the_preset() -> None:
    # Section 8, Decision: the preset applies the obligation to every take.
    cards = ["9S 9S", "3C 8H JS QS KD 6H"]
    preset = hand_from_cards("pinnacolo2", cards, pile="7D", stock="QD")
    assert "take 1" not in [str(action) for action in preset.legal_actions]
    rules = pinnacolo_rules("pinnacolo2", {"taken_card": "below_top"})
    literal = hand_from_cards("pinnacolo2", cards, pile="7D", stock="QD", rules=rules)
    literal.apply("take 1")
    literal.apply("discard 7D")


def test_an_empty_stock_ends_the_hand_without_a_closing_bonus() -> None:
    # Section 8, Decision: nobody takes from the pile on an empty stock: the hand ends.
    names = [CARD_NAMES[face] for face in PACK]
    names.remove("5H")
    state = hand_from_cards("pinnacolo2", [names[:50], names[50:]], pile="5H")
    assert state.stock_size == 0
    state.apply("draw")
    result = state.result()
    assert (result.outcome, result.closer) == (Outcome.STOCK_OUT, None)
    assert all(seat.bonus == 0 for seat in result.seats)
    assert state.phase is PinnacoloPhase.OVER


def test_the_stock_running_out_ends_the_hand() -> None:
    # Section 8, Decision: by default the next draw from the empty stock ends the hand;
    # the league parameter ends it with the discard after the last card is drawn.
    names = [CARD_NAMES[face] for face in PACK]
    for name in ("5H", "9C"):
        names.remove(name)
    hands = [names[:50], names[50:]]
    preset = hand_from_cards("pinnacolo2", hands, pile="5H", stock="9C")
    preset.apply("draw")
    preset.apply("discard 9C")
    assert not preset.is_terminal() and preset.stock_size == 0
    preset.apply("draw")
    assert preset.result().outcome is Outcome.STOCK_OUT
    rules = pinnacolo_rules("pinnacolo2", {"empty_stock": "last_card_ends"})
    last_card = hand_from_cards("pinnacolo2", hands, pile="5H", stock="9C", rules=rules)
    last_card.apply("draw")
    last_card.apply("discard 9C")
    assert last_card.result().outcome is Outcome.STOCK_OUT


def test_wild_tris_take_nothing_more() -> None:
    state = hand_from_cards(
        "pinnacolo2", ["9S 9S", "2S 2C 2C JK JK JK 2S QS"], pile="KD", stock="QD"
    )
    state.apply("draw")
    state.apply("meld 2S 2C 2C")
    state.apply("meld JK JK JK")
    assert [meld.name() for meld in state.melds] == ["pinelle", "jokers"]
    assert not any(str(action).startswith("add") for action in state.legal_actions)


def test_a_tris_becomes_a_poker_with_its_fourth_natural() -> None:
    state = hand_from_cards("pinnacolo2", ["9S 9S", "7S 7H 7D 7C QS"], pile="KD", stock="QD")
    state.apply("draw")
    state.apply("meld 7S 7H 7D")
    assert "add 0 7C" in state.legal_actions
    state.apply("add 0 7C")
    assert (state.melds[0].name(), state.melds[0].points()) == ("poker", 80)


def test_a_scala_grows_at_either_end_but_not_both_at_once() -> None:
    state = hand_from_cards(
        "pinnacolo2", ["9S 9S", "5H 6H 7H 4H 3H 8H 9H QS"], pile="KD", stock="QD"
    )
    state.apply("draw")
    state.apply("meld 5H 6H 7H")
    legal = [str(action) for action in state.legal_actions]
    assert {"add 0 4H", "add 0 3H 4H", "add 0 8H", "add 0 8H 9H"} <= set(legal)
    assert "add 0 4H 8H" not in state.legal_actions


def test_every_listed_action_is_in_the_view_and_prints_back() -> None:
    state = hand_from_cards(
        "pinnacolo2", ["9S 9S", "5H 6H 7H 7S 7D JK 2C AH QH KH"], pile="KD", stock="QD"
    )
    state.apply("draw")
    legal = list(state.legal_actions)
    assert len(legal) == len(state.legal_actions) == len({str(a) for a in legal})
    for action in legal:
        assert action in state.legal_actions
        assert parse_action(str(action)) == action
    assert "meld QH KH AH" in [str(a) for a in legal]
    assert "meld 7S 7H 7D" in [str(a) for a in legal]
    assert "meld JK=5H 6H 7H" in [str(a) for a in legal]


def test_unreadable_actions_raise_a_parse_error() -> None:
    for text in ("", "take 0", "meld", "add x 5H", "discard 2H", "meld 5H=6H", "fold"):
        with pytest.raises(ActionParseError):
            parse_action(text)


def test_rules_round_trip_and_refuse_bad_values() -> None:
    for rules in PINNACOLO_PRESETS.values():
        assert PinnacoloRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    with pytest.raises(RulesError) as caught:
        pinnacolo_rules("pinnacolo", {"pairs": "yes"})
    assert caught.value.parameter == "pairs"
    with pytest.raises(RulesError):
        pinnacolo_rules("pinnacolo2", {"pairs": True})


def test_the_deal_depends_only_on_rules_seed_and_dealer() -> None:
    # The first block goes to the seat left of the dealer, whoever deals.
    for variant, players in (("pinnacolo2", 2), ("pinnacolo3", 3), ("pinnacolo", 4)):
        by_zero = new_hand(variant, seed=99, dealer=0)
        for dealer in range(players):
            state = new_hand(variant, seed=99, dealer=dealer)
            assert state.current_player == (dealer + 1) % players
            for block in range(players):
                seat, seat_zero = (dealer + 1 + block) % players, (1 + block) % players
                assert state.hand(seat) == by_zero.hand(seat_zero)
            assert state.pile == by_zero.pile
    assert new_hand("pinnacolo", seed=1).hand(1) != new_hand("pinnacolo", seed=2).hand(1)


def test_a_game_goes_to_1500() -> None:
    game = PinnacoloGame("pinnacolo", seed=4)
    choice = 0
    while not game.is_terminal():
        legal = game.legal_actions
        choice = (choice * 1103515245 + 12345) % 2**31
        game.apply(legal[choice % len(legal)])
    assert max(game.scores) >= 1500
    assert game.winner == game.scores.index(max(game.scores))
    assert (
        sum(game.result().hands[i].side_scores[0] for i in range(len(game.results)))
        == (game.scores[0])
    )
