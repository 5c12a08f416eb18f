"""The reference pairing on a match's deals (bots.controls): the quick search bot against
greedy, both ways round, on exactly the match's cards, the same on every run."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bots.controls import QuickStrongBot, reference_controls, reference_supported
from bots.duplicate import board_seed, table_result
from bots.games import game_for
from bots.reference.strong import StrongBot
from bots.table import BoardRecord


def test_the_pairing_plays_the_match_deals_and_scores_its_duplicate_result() -> None:
    game = game_for("single4")
    rules = game.rules_for({})
    seen: list[BoardRecord] = []
    controls = reference_controls(game, rules, match_seed=42, boards=2, on_board=seen.append)
    assert len(controls) == 2 and all(len(row) == 1 for row in controls)
    # Every table's board was the match's deal of that number.
    assert sorted((record.board, record.seed) for record in seen) == sorted(
        (number, board_seed(42, number)) for number in (1, 2) for _ in game.seatings
    )
    # The control is half the sum of the quick bot's margins at its two tables.
    for number, (control,) in enumerate(controls, start=1):
        margins = [
            table_result(record, game.seatings[record_table(record, seen)], game, rules)
            for record in seen
            if record.board == number
        ]
        assert Fraction(control) == sum(margins, Fraction(0)) / 2
    # Deterministic: the same deals give the same controls on any run.
    assert reference_controls(game, rules, match_seed=42, boards=2) == controls


def record_table(record: BoardRecord, seen: list[BoardRecord]) -> str:
    """Tables are played one after the other, A first: a record's index tells its table."""
    names = list(game_for("single4").seatings)
    boards = max(r.board for r in seen)
    return names[seen.index(record) // boards]


def test_the_quick_bot_searches_a_tenth_of_the_strong_bots_budget() -> None:
    assert QuickStrongBot.max_card_plays * 10 == StrongBot.max_card_plays
    assert QuickStrongBot.max_card_plays >= StrongBot.min_card_plays  # it does search


def test_only_the_four_hand_partnership_games_have_a_reference_pairing() -> None:
    assert all(reference_supported(game_for(v)) for v in ("auction4", "single4", "double4"))
    assert not reference_supported(game_for("cutthroat3"))
    with pytest.raises(ValueError, match="no reference pairing plays cutthroat3"):
        reference_controls(
            game_for("cutthroat3"), game_for("cutthroat3").rules_for({}), match_seed=1, boards=1
        )
