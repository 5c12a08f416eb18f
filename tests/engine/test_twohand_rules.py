"""RULES.md 7.1 (``twohand``) worked by hand: meld after a won trick, re-use, the dix
exchange, free play in the stock phase, the strict play-out and the tie rule.

The "kings and queens" deal (dealer 1, so seat 0 leads; the AH turned: hearts trump):

- seat 0: AS AS AD AD KS KH KD KC QS QH QD QC
- seat 1: 9S 9S 9D 9D 9C 9C JS JS JC JC TC TC
- stock from the top: TS 9H JD TH 9H TH TD TD JH JH KS QS KH QH KD QD KC QC AC AC AH JD
  TS, then the turned AH.

Seat 0 wins the first four tricks with its aces and draws TS, JD, 9H, TD; seat 1 draws
9H, TH, TH, TD.
"""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from engine import HandOutcome, IllegalActionError, Suit, legal_plays, rules_for
from engine.actions import Action, MeldCards, Play
from engine.cards import Card
from engine.cutthroat import CutthroatGame
from engine.individual import IndividualGame
from engine.results import HandResult, TeamResult
from engine.twohand import TwoHandGame, TwoHandPhase, TwoHandState, twohand_from_cards

KINGS_AND_QUEENS = [
    "AS AS AD AD KS KH KD KC QS QH QD QC",
    "9S 9S 9D 9D 9C 9C JS JS JC JC TC TC",
    "TS 9H JD TH 9H TH TD TD JH JH KS QS KH QH KD QD KC QC AC AC AH JD TS AH",
]


def kings_and_queens() -> TwoHandState:
    return twohand_from_cards("twohand", KINGS_AND_QUEENS, dealer=1)


def apply_all(state: TwoHandState, *actions: str) -> TwoHandState:
    for action in actions:
        state.apply(action)
    return state


def legal_texts(state: TwoHandState) -> list[str]:
    return [str(action) for action in state.legal_actions]


def test_7_1_the_turned_card_names_trump_and_the_non_dealer_leads() -> None:
    state = kings_and_queens()
    assert (state.trump, state.turned_up, state.current_player) == (Suit.H, Card.parse("AH"), 0)
    observation = state.observation(1)
    assert observation["turned_up"] == "AH" and observation["stock_size"] == 24
    assert observation["meld_scores"] == [0, 0]


def test_7_1_the_second_player_may_play_any_card_in_the_stock_phase() -> None:
    state = apply_all(kings_and_queens(), "play AS")
    assert len(state.legal_actions) == len(set(state.hand(1)))
    assert Action.parse("play JC") in state.legal_actions
    state.apply("play JC")
    assert state.observation(0)["tricks"][0]["winner"] == 0


def test_7_1_the_trick_winner_lays_one_meld_scored_at_once_then_both_draw() -> None:
    state = apply_all(kings_and_queens(), "play AS", "play 9S")
    assert (state.phase, state.current_player) == (TwoHandPhase.MELD, 0)
    assert legal_texts(state) == [
        "no-meld",
        "meld KH QH",
        "meld KS QS",
        "meld KD QD",
        "meld KC QC",
        "meld KS KH KD KC",
        "meld QS QH QD QC",
    ]
    state.apply("meld KS KH KD KC")
    observation = state.observation(1)
    assert observation["meld_scores"] == [80, 0]
    assert observation["table"] == [["KS", "KH", "KD", "KC"], []]
    assert observation["hand_sizes"] == [12, 12]
    assert "TS" in state.observation(0)["hand"] and "9H" in state.observation(1)["hand"]
    assert (state.phase, state.current_player) == (TwoHandPhase.TRICKS, 0)


def test_7_1_a_meld_needs_a_new_card_and_reuses_cards_only_in_another_class() -> None:
    state = apply_all(
        kings_and_queens(),
        *("play AS", "play 9S", "meld KS KH KD KC"),
        *("play AS", "play 9S", "meld QS QH QD QC"),
        *("play AD", "play 9D"),
    )
    # Every king and queen is on the table, used in class III: a marriage would be made
    # of melded cards only. The QS may serve again in a pinochle (class II) with the JD.
    assert legal_texts(state) == ["no-meld", "meld QS JD"]
    with pytest.raises(IllegalActionError) as raised:
        state.apply("meld KS QS")
    assert raised.value.rule == "meld_needs_new_card"
    with pytest.raises(IllegalActionError) as raised:
        state.apply("meld KS QS JD")
    assert raised.value.rule == "not_a_meld"
    state.apply("meld QS JD")
    apply_all(state, "play AD", "play 9D")
    with pytest.raises(IllegalActionError) as raised:
        state.apply("meld QS JD")
    assert raised.value.rule == "meld_class_reuse"
    assert MeldCards([Card.parse("9H")]) in state.legal_actions
    assert state.observation(0)["meld_scores"] == [80 + 60 + 40, 0]


def test_7_1_the_dix_is_exchanged_for_the_turned_up_card_scoring_10() -> None:
    state = apply_all(
        kings_and_queens(),
        *("play AS", "play 9S", "meld KS KH KD KC"),
        *("play AS", "play 9S", "meld QS QH QD QC"),
        *("play AD", "play 9D", "meld QS JD"),
        *("play AD", "play 9D"),
    )
    assert legal_texts(state) == ["no-meld", "dix", "meld 9H"]
    state.apply("dix")
    assert state.turned_up == Card.parse("9H")
    assert "AH" in state.observation(0)["hand"]
    assert state.observation(1)["turned_up"] == "9H"
    entry = state.observation(1)["melds"][-1]
    assert (entry["seat"], entry["how"], entry["value"], entry["cards"]) == (
        0,
        "dix_exchange",
        10,
        ["9H"],
    )
    assert state.observation(0)["meld_scores"] == [190, 0]


def test_7_1_melded_cards_are_played_from_the_table_and_the_opponent_sees_them() -> None:
    state = apply_all(
        kings_and_queens(),
        *("play AS", "play 9S", "meld KS KH KD KC"),
        *("play AS", "play 9S"),
    )
    assert state.observation(1)["table"][0] == ["KS", "KH", "KD", "KC"]
    state.apply("no-meld")
    state.apply("play KS")
    assert state.observation(1)["table"][0] == ["KH", "KD", "KC"]
    assert state.observation(1)["trick"]["cards"] == ["KS"]


def test_7_1_a_turned_up_nine_scores_the_dealer_10_and_cannot_be_exchanged() -> None:
    deal = [
        "AS AS AD AD KS KH KD KC QS QH QD 9H",
        "9S 9S 9D 9D 9C 9C JS JS JC JC TC TC",
        "TS QC JD TH AH TH TD TD JH JH KS QS KH QH KD QD KC QC AC AC AH JD TS 9H",
    ]
    state = twohand_from_cards("twohand", deal, dealer=1)
    assert state.observation(0)["meld_scores"] == [0, 10]
    assert state.observation(0)["melds"][0]["how"] == "turned_dix"
    apply_all(state, "play AS", "play 9S")
    assert "dix" not in legal_texts(state)
    with pytest.raises(IllegalActionError) as raised:
        state.apply("dix")
    assert raised.value.rule == "dix_exchange"
    state.apply("meld 9H")
    assert state.observation(0)["meld_scores"] == [10, 10]


def play_to_the_play_out(state: TwoHandState) -> TwoHandState:
    while state.phase is not TwoHandPhase.PLAY_OUT:
        state.apply(next(iter(state.legal_actions)))
    return state


def test_7_1_the_play_out_follows_auction4s_rules_and_no_more_meld() -> None:
    state = play_to_the_play_out(kings_and_queens())
    observation = state.observation(0)
    assert observation["stock_size"] == 0 and observation["turned_up"] is None
    assert observation["table"] == [[], []]
    assert observation["hand_sizes"] == [12, 12]
    rules = rules_for("twohand")
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        trick = [Card.parse(name) for name in state.observation(seat)["trick"]["cards"]]
        expected = legal_plays(
            state.hand(seat),
            trick,
            state.trump,
            must_head=rules.must_head,
            must_trump=rules.must_trump,
            must_overtrump=rules.must_overtrump,
        )
        assert [str(a) for a in state.legal_actions] == [f"play {card}" for card in expected]
        assert state.phase is TwoHandPhase.PLAY_OUT
        state.apply(next(iter(state.legal_actions)))
    result = state.result()
    assert result.outcome is HandOutcome.MADE and result.declarer is None
    assert sum(team.taken for team in result.teams) == 250
    assert sum(team.tricks for team in result.teams) == 24


def test_7_1_a_play_out_card_that_does_not_follow_names_the_rule() -> None:
    state = play_to_the_play_out(kings_and_queens())
    leader = state.current_player
    assert leader is not None
    follower_hand = state.hand(1 - leader)
    for action in state.legal_actions:
        assert isinstance(action, Play)
        suits = {card.suit for card in follower_hand}
        if action.card.suit in suits and len(suits) > 1:
            state.apply(action)
            off_suit = next(c for c in follower_hand if c.suit != action.card.suit)
            with pytest.raises(IllegalActionError) as raised:
                state.apply(f"play {off_suit}")
            assert raised.value.rule == "must_follow"
            return
    pytest.skip("no lead leaves the follower a choice of suits in this deal")


def test_7_1_the_hand_result_itemises_each_players_melds() -> None:
    state = apply_all(
        kings_and_queens(),
        *("play AS", "play 9S", "meld KS KH KD KC"),
        *("play AS", "play 9S", "meld QS QH QD QC"),
        *("play AD", "play 9D", "meld QS JD"),
        *("play AD", "play 9D", "dix"),
    )
    while not state.is_terminal():
        state.apply(next(iter(state.legal_actions)))
    first = state.result().teams[0]
    assert first.meld == 190
    assert [(item.kind.value, item.value) for _, item in first.meld_items][:4] == [
        ("kings around", 80),
        ("queens around", 60),
        ("pinochle", 40),
        ("dix", 10),
    ]
    assert first.score == first.meld + first.taken


@pytest.mark.parametrize("seed", range(8))
def test_7_1_when_both_reach_the_target_on_one_deal_the_higher_total_wins(seed: int) -> None:
    rules = rules_for("twohand", {"target": 150})
    game = TwoHandGame("twohand", seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_terminal():
        legal = game.legal_actions
        game.apply(legal[rng.randrange(len(legal))])
    assert game.winner is not None
    assert game.scores[game.winner] >= 150
    # Reached by one: the other is below the target; by both: the higher total; equal
    # totals would have dealt again.
    assert game.scores[game.winner] > game.scores[1 - game.winner]


def test_the_two_hand_preset() -> None:
    rules = rules_for("twohand")
    assert (rules.players, rules.hand_size, rules.meld_scale, rules.target) == (2, 12, 10, 1000)
    assert (rules.turned_dix, rules.dix_exchange, rules.total_in_tricks) == (10, 10, 250)
    assert rules.both_reach.value == "higher_total"
    cutthroat = rules_for("cutthroat3")
    assert (cutthroat.players, cutthroat.hand_size, cutthroat.widow) == (3, 15, 3)
    assert cutthroat.must_head.value == "trump_led_only" and cutthroat.target == 1500


def test_the_docstring_examples_run() -> None:
    failures, _ = doctest.testmod(importlib.import_module("engine.twohand"))
    assert failures == 0


class ScriptedHand:
    """A hand that ends on its first action with scores given in advance, to check the
    game's end rules on exact totals."""

    def __init__(self, variant: str, scores: tuple[int, ...], declarer: int | None) -> None:
        self.rules = rules_for(variant)
        self.num_players = len(scores)
        self.seed: int | None = 0
        self.dealer = 0
        self._scores = scores
        self._declarer = declarer
        self._done = False

    phase = TwoHandPhase.TRICKS
    current_player = 0
    legal_actions = ()
    deal = ()

    @property
    def actions(self) -> tuple[Action, ...]:
        return (Action.parse("no-meld"),) if self._done else ()

    history = actions

    @property
    def declarer(self) -> int | None:
        return self._declarer

    def apply(self, action: object) -> None:
        self._done = True

    def is_terminal(self) -> bool:
        return self._done

    def observation(self, seat: int) -> dict[str, object]:
        return {}

    def result(self) -> HandResult:
        teams = tuple(
            TeamResult(seat, (seat,), 0, True, score, 0, 0, score)
            for seat, score in enumerate(self._scores)
        )
        return HandResult(HandOutcome.MADE, self._declarer, None, Suit.S, teams)


def scripted_game(
    base: type[IndividualGame], variant: str, hands: list[tuple[int, ...]], declarer: int | None
) -> IndividualGame:
    deals = iter(hands)

    class Scripted(base):
        @staticmethod
        def deal_hand(variant: str, **_: object) -> ScriptedHand:
            return ScriptedHand(variant, next(deals), declarer)

    game = Scripted(variant, seed=1)
    while not game.is_terminal():
        game.apply("no-meld")
    return game


def test_7_1_equal_totals_over_the_target_play_another_deal() -> None:
    game = scripted_game(TwoHandGame, "twohand", [(600, 500), (500, 600), (0, 20)], None)
    assert len(game.results) == 3
    assert (game.scores, game.winner) == ([1100, 1120], 1)


def test_7_1_both_over_the_target_the_higher_total_wins() -> None:
    game = scripted_game(TwoHandGame, "twohand", [(600, 900), (500, 150)], None)
    assert (game.scores, game.winner) == ([1100, 1050], 0)


def test_5_in_cutthroat3_a_declarer_reaching_the_target_wins_over_a_higher_total() -> None:
    game = scripted_game(CutthroatGame, "cutthroat3", [(1500, 1600, 0)], 0)
    assert game.winner == 0
    game = scripted_game(CutthroatGame, "cutthroat3", [(1500, 1600, 0)], 2)
    assert game.winner == 1
