"""Worked examples of the play modules: human-against-bot seatings and scores
(``tables.challenge_boards``), a table rebuilt with bots moving (``referee``), and the
bot-only table of a board (``bot_table``)."""

from __future__ import annotations

import pytest

from tables.bot_table import play
from tables.challenge_boards import board_result, human_seat, lineup, two_table_result, two_tables
from tables.referee import Seat, parse_seats, rebuild, reference_turns
from tests.engine.toy_highcard import registered_toy

GREEDY = Seat("reference", "greedy")


def test_the_human_sits_n_seats_after_the_dealer_of_board_n() -> None:
    # RULES.md section 5: the deal passes to the left from board to board, so the human
    # meets every position relative to the dealer.
    assert [human_seat(number, "single4") for number in range(1, 5)] == [1, 3, 1, 3]
    assert [(human_seat(n, "cutthroat3") - (n - 1)) % 3 for n in range(1, 4)] == [1, 2, 0]
    with registered_toy():
        assert [human_seat(number, "highcard") for number in range(1, 5)] == [1, 1, 1, 1]


def test_the_lineup_marks_the_humans_side() -> None:
    # RULES.md section 9: partners (seats across the table) score as one side.
    assert lineup(3, "single4") == (1, 0, 1, 0)
    assert lineup(1, "cutthroat3") == (1, 0, 1)
    with registered_toy():
        assert lineup(0, "highcard") == (0, 1)


def test_a_board_is_the_humans_margin_minus_the_bots_in_the_same_seat() -> None:
    # RULES.md section 9: the same cards at both tables, so only the human's play differs.
    assert board_result([30, -10], [20, 10], seat=1, variant="single4") == -30
    assert board_result([-10, 40], [0, 20], seat=1, variant="single4") == 30


def test_the_earlier_two_table_format_sums_the_margins_of_its_tables() -> None:
    assert two_tables("single4") == {"A": (0, 1, 0, 1), "B": (1, 0, 1, 0)}
    assert two_table_result({"A": [30, -10], "B": [-5, 20]}, "single4") == 65


def test_a_rebuilt_table_lets_reference_bots_move_up_to_the_humans_turn() -> None:
    # RULES.md section 2.2: the auction starts at the dealer's left.
    seats = parse_seats(["human"] + [{"kind": "reference", "name": "greedy"}] * 3, "single4")
    hand = rebuild("single4", rules=None, seed=3, dealer=0, actions=[])
    assert (hand.state.current_player, hand.ply) == (1, 0)
    moves = reference_turns(hand, seats, variant="single4")
    assert [seat for seat, _ in moves] == [1, 2, 3] and hand.current == 0


@pytest.mark.django_db
def test_the_bot_only_table_of_a_board_always_plays_out_the_same() -> None:
    played = play(variant="twohand", rules=None, seed=3, dealer=0, bot=GREEDY)
    assert played["fault"] is None and len(played["side_scores"]) == 2
    assert play(variant="twohand", rules=None, seed=3, dealer=0, bot=GREEDY) == played
