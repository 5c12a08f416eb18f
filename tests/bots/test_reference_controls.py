"""The reference pairings on a match's deals (bots.controls): the quick search bot against
greedy both ways round, and greedy at every seat, on exactly the match's cards, the same
on every run."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bots.controls import (
    CONTROL_NAMES,
    GREEDY_TABLE,
    QuickStrongBot,
    lost_bid,
    reference_controls,
    reference_supported,
)
from bots.duplicate import board_seed, table_result
from bots.games import game_for
from bots.reference.strong import StrongBot
from bots.table import BoardRecord
from engine.results import HandOutcome


def test_the_pairings_play_the_match_deals_and_score_them() -> None:
    game = game_for("double4")
    rules = game.rules_for({})
    seen: list[BoardRecord] = []
    controls = reference_controls(game, rules, match_seed=42, boards=2, on_board=seen.append)
    assert len(controls) == 2 and all(len(row) == len(CONTROL_NAMES) for row in controls)
    # The tables are played one after the other: A, B, then greedy alone, each on every
    # board, every one the match's deal of that number.
    tables = [*game.seatings, GREEDY_TABLE]
    assert [(record.board, record.seed) for record in seen] == [
        (number, board_seed(42, number)) for _ in tables for number in (1, 2)
    ]
    by_table = {name: seen[2 * i : 2 * i + 2] for i, name in enumerate(tables)}
    for number, (duplicate, lost) in enumerate(controls, start=1):
        # The quick bot's duplicate result: half the sum of its margins at its two tables.
        margins = [
            table_result(by_table[name][number - 1], game.seatings[name], game, rules)
            for name in game.seatings
        ]
        assert Fraction(duplicate) == sum(margins, Fraction(0)) / 2
        alone = by_table[GREEDY_TABLE][number - 1].result
        failed = alone.outcome in (HandOutcome.SET, HandOutcome.THROWN_IN)
        assert lost == (float(alone.bid) if failed else 0.0)
    # Deterministic: the same deals give the same controls on any run.
    assert reference_controls(game, rules, match_seed=42, boards=2) == controls


def test_a_made_contract_loses_no_bid() -> None:
    assert lost_bid(BoardRecord(board=1, seed=1, dealer=0)) == 0.0  # no result: a fault


def test_the_quick_bot_searches_a_third_of_the_strong_bots_budget() -> None:
    assert QuickStrongBot.max_card_plays * 3 == StrongBot.max_card_plays
    assert QuickStrongBot.max_card_plays >= StrongBot.min_card_plays  # it does search


def test_only_the_four_hand_partnership_games_have_a_reference_pairing() -> None:
    assert all(reference_supported(game_for(v)) for v in ("auction4", "single4", "double4"))
    three = game_for("cutthroat3")
    assert not reference_supported(three)
    with pytest.raises(ValueError, match="no reference pairing plays cutthroat3"):
        reference_controls(three, three.rules_for({}), match_seed=1, boards=1)
