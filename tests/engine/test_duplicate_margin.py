"""One table's duplicate result, the rule every comparison of boards reads (RULES.md 9)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.registry import load_game


def test_a_partnership_table_is_the_side_score_of_x_less_that_of_y() -> None:
    # RULES.md section 9: X's board result is its hand score minus Y's at each table.
    game = load_game("single4")
    seatings = game.seatings
    assert game.margin([120, -30], seatings["A"]) == 150  # X at 0/2 scored 120
    assert game.margin([120, -30], seatings["B"]) == -150  # X at 1/3 scored -30
    # Same cards, seats swapped: the luck of the cards cancels in the sum.
    assert game.margin([120, -30], seatings["A"]) + game.margin([100, 0], seatings["B"]) == 50


def test_an_individual_table_compares_mean_seat_scores() -> None:
    # RULES.md section 9: in individual games the two competitors share the seats; each is
    # scored by the mean of the seats it holds.
    game = load_game("cutthroat3")
    assert game.margin([90, 30, -60], (0, 1, 1)) == Fraction(90) - Fraction(30 - 60, 2)
    assert game.margin([90, 30, -60], (1, 0, 0)) == Fraction(30 - 60, 2) - 90


@pytest.mark.parametrize("variant", ["auction4", "twohand", "pinnacolo", "pinnacolo3"])
def test_every_seating_of_a_board_sums_to_nothing_when_every_table_scores_alike(
    variant: str,
) -> None:
    # Equal play on equal cards: whatever the scores, swapping the seats gives X nothing.
    game = load_game(variant)
    scores = [10 * (side + 1) for side in range(len(game.teams))]
    tables = game.seatings
    mirrored = {name: tuple(1 - who for who in lineup) for name, lineup in tables.items()}
    assert all(
        game.margin(scores, tables[name]) == -game.margin(scores, mirrored[name]) for name in tables
    )
    assert sum(game.margin(scores, lineup) for lineup in tables.values()) == 0
