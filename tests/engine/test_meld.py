"""RULES.md section 3: every row of the meld tables, and how cards combine.

Expected values are taken from the tables of RULES.md 3.1 and 3.3.
"""

from __future__ import annotations

import pytest

from engine import Rules, Suit, meld, parse_cards, rules_for
from engine.cards import CARDS
from engine.meld import meld_total

SINGLE = rules_for("single4")
SCALE_10 = rules_for("auction4")
DOUBLE = rules_for("double4")


def total(cards: str, trump: str, rules: Rules = SINGLE) -> int:
    """The meld total, checked to agree with the engine's fast total of the same hand."""
    hand = parse_cards(cards)
    result = meld(hand, Suit.parse(trump), rules)
    counts = [hand.count(card) for card in CARDS]
    assert meld_total(counts, Suit.parse(trump), rules.meld_values) == result.total
    return result.total


def kinds(cards: str, trump: str, rules: Rules = SINGLE) -> list[tuple[str, int, int]]:
    items = meld(parse_cards(cards), Suit.parse(trump), rules).items
    return [(item.kind.value, item.times, item.value) for item in items]


# 3.1 class I: sequences


def test_3_1_a_run_in_trump_scores_15_not_15_plus_its_royal_marriage() -> None:
    assert total("AH TH KH QH JH", "H") == 15
    assert kinds("AH TH KH QH JH", "H") == [("run", 1, 15)]


def test_3_2_a_run_plus_an_extra_trump_king_and_queen_scores_19() -> None:
    assert total("AH TH KH QH JH KH QH", "H") == 19


def test_3_2_a_run_plus_only_an_extra_king_scores_15() -> None:
    assert total("AH TH KH QH JH KH", "H") == 15


def test_3_2_the_preset_flag_off_scores_the_run_and_its_marriage() -> None:
    rules = SINGLE.replace(run_includes_marriage=False)
    assert total("AH TH KH QH JH", "H", rules) == 19


def test_3_1_the_double_run_scores_150_not_twice_15() -> None:
    assert total("AH AH TH TH KH KH QH QH JH JH", "H") == 150


def test_3_3_a_run_in_a_non_trump_suit_is_only_a_marriage() -> None:
    assert total("AC TC KC QC JC", "H") == 2


def test_3_1_a_royal_marriage_scores_4() -> None:
    assert total("KS QS", "S") == 4


def test_3_1_two_royal_marriages_score_8() -> None:
    assert total("KS KS QS QS", "S") == 8


def test_3_1_a_marriage_scores_2_and_two_in_one_suit_score_4() -> None:
    assert total("KD QD", "S") == 2
    assert total("KD KD QD QD", "S") == 4


def test_3_2_one_king_with_two_queens_is_one_marriage() -> None:
    assert total("KS QS QS", "H") == 2


def test_3_1_each_dix_scores_1_and_a_non_trump_nine_nothing() -> None:
    assert total("9H", "H") == 1
    assert total("9H 9H", "H") == 2
    assert total("9S 9D 9C", "H") == 0


# 3.1 class II: pinochle


def test_3_1_a_pinochle_scores_4() -> None:
    assert total("QS JD", "H") == 4


def test_3_1_a_double_pinochle_scores_30() -> None:
    assert total("QS QS JD JD", "H") == 30


def test_3_1_a_pinochle_and_a_half_is_still_one_pinochle() -> None:
    assert total("QS QS JD", "H") == 4


# 3.1 class III: arounds


@pytest.mark.parametrize(
    ("rank", "single", "double"),
    [("A", 10, 100), ("K", 8, 80), ("Q", 6, 60), ("J", 4, 40)],
)
def test_3_1_arounds_single_and_double(rank: str, single: int, double: int) -> None:
    one_each = " ".join(rank + suit for suit in "SHDC")
    assert total(one_each, "H") == single
    assert total(one_each + " " + one_each, "H") == double


def test_3_2_seven_aces_score_one_aces_around() -> None:
    assert total("AS AS AH AH AD AD AC", "H") == 10


def test_3_2_tens_around_score_nothing() -> None:
    assert total("TS TH TD TC", "H") == 0
    assert total("TS TH TD TC TS TH TD TC", "H") == 0


# 3.1 scale 10


@pytest.mark.parametrize(
    ("cards", "trump", "value"),
    [
        ("AH TH KH QH JH", "H", 150),
        ("AH AH TH TH KH KH QH QH JH JH", "H", 1500),
        ("AS AH AD AC", "H", 100),
        ("AS AH AD AC AS AH AD AC", "H", 1000),
        ("QS JD", "H", 40),
        ("QS QS JD JD", "H", 300),
        ("KH QH", "H", 40),
        ("KC QC", "H", 20),
        ("9H", "H", 10),
    ],
)
def test_3_1_scale_10_multiplies_every_value_by_ten(cards: str, trump: str, value: int) -> None:
    assert total(cards, trump, SCALE_10) == value


def test_3_1_marriages_around_at_scale_10_is_240() -> None:
    hand = "KS QS KH QH KD QD KC QC"
    assert total(hand, "S", SCALE_10) == 240
    assert sorted(kind for kind, _, _ in kinds(hand, "S", SCALE_10)) == sorted(
        ["royal marriage", "marriage", "marriage", "marriage", "kings around", "queens around"]
    )


def test_3_2_a_queen_of_spades_serves_in_three_classes_at_once() -> None:
    # Marriage in spades (2) + pinochle (4) + queens around (6).
    assert total("KS QS JD QH QD QC", "H") == 12


# 3.3 double deck


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        ("AH TH KH QH JH", 15),
        ("AH TH KH QH JH " * 2, 150),
        ("AH TH KH QH JH " * 3, 225),
        ("AH TH KH QH JH " * 4, 300),
    ],
)
def test_3_3_double_deck_runs(cards: str, value: int) -> None:
    assert total(cards, "H", DOUBLE) == value


@pytest.mark.parametrize(
    ("rank", "values"),
    [
        ("A", (10, 100, 150, 200)),
        ("K", (8, 80, 120, 160)),
        ("Q", (6, 60, 90, 120)),
        ("J", (4, 40, 60, 80)),
    ],
)
def test_3_3_double_deck_arounds_single_to_quadruple(
    rank: str, values: tuple[int, int, int, int]
) -> None:
    one_each = " ".join(rank + suit for suit in "SHDC")
    for times, value in enumerate(values, start=1):
        assert total(" ".join([one_each] * times), "H", DOUBLE) == value


@pytest.mark.parametrize(("times", "value"), [(1, 4), (2, 30), (3, 60), (4, 90)])
def test_3_3_double_deck_pinochles(times: int, value: int) -> None:
    assert total(" ".join(["QS JD"] * times), "H", DOUBLE) == value


def test_3_3_double_deck_marriages_count_each() -> None:
    assert total("KS QS KS QS KS QS", "S", DOUBLE) == 12
    assert total("KD QD KD QD KD QD", "S", DOUBLE) == 6


def test_3_1_meld_items_name_their_multiplicity() -> None:
    items = meld(parse_cards("AH AH TH TH KH KH QH QH JH JH"), Suit.H, SINGLE).items
    assert [item.name for item in items] == ["double run"]
    assert items[0].cards == tuple(parse_cards("AH TH KH QH JH AH TH KH QH JH"))
