"""Who moves up and down (README.md, "Leagues"): promotion and relegation by a season's
place, a ladder challenge's result, the ladder's standings by rung."""

from __future__ import annotations

import doctest

import pytest

from leagues import promotion
from leagues.fixture_results import Result
from leagues.promotion import Move, challenger_won, ladder_rank, season_move


def test_the_examples_in_the_docstring_run() -> None:
    failures, tried = doctest.testmod(promotion)
    assert tried > 0 and failures == 0


def test_the_best_go_up_the_worst_go_down_and_the_middle_stays() -> None:
    moves = [season_move(rank, 6, promoted=2, relegated=1) for rank in range(1, 7)]
    assert moves == [Move.UP, Move.UP, Move.STAY, Move.STAY, Move.STAY, Move.DOWN]


def test_without_a_division_to_go_to_an_entry_is_not_moved_that_way() -> None:
    assert season_move(1, 4, promoted=1, relegated=1, above=False) == Move.STAY
    assert season_move(4, 4, promoted=1, relegated=1, below=False) == Move.STAY
    # A place counted both ways (a tiny division) is promoted first, relegated only when
    # there is nowhere up.
    assert season_move(1, 1, promoted=1, relegated=1) == Move.UP
    assert season_move(1, 1, promoted=1, relegated=1, above=False) == Move.DOWN


@pytest.mark.parametrize(
    ("result", "moves"),
    [
        (Result.X_WON, True),
        (Result.Y_FORFEITED, True),
        (Result.DRAWN, False),
        (Result.Y_WON, False),
        (Result.X_FORFEITED, False),
        (Result.BOTH_FORFEITED, False),
        (Result.VOID, False),
    ],
)
def test_only_a_challenger_who_won_or_whose_defender_forfeited_moves_up(
    result: Result, moves: bool
) -> None:
    assert challenger_won(result) is moves


def test_a_ladder_ranks_by_rung_and_an_entry_without_one_by_its_number() -> None:
    entries = {1: 3, 2: None, 3: 1}  # entry number: rung
    assert sorted(entries, key=lambda n: ladder_rank(entries[n], n)) == [3, 2, 1]
