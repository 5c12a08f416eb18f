"""Hand-worked scores from RULES.md section 8 ("Card values", "Hand score")."""

from __future__ import annotations

import pytest

from engine.pinnacolo import (
    Add,
    MeldCards,
    Outcome,
    TableMeld,
    build_meld,
    extend_meld,
    hand_from_cards,
    parse_action,
    pinnacolo_rules,
)


def meld_of(text: str) -> TableMeld:
    action = parse_action("meld " + text)
    assert isinstance(action, MeldCards)
    return build_meld(action.cards, 0)


def added(meld: TableMeld, text: str) -> TableMeld:
    action = parse_action("add 0 " + text)
    assert isinstance(action, Add)
    return extend_meld(meld, action.cards, 0)


@pytest.mark.parametrize(
    ("cards", "name", "points"),
    [
        # Section 8, card values: A 15, 3-6 5, 7-K 10, pinella 20, joker 25.
        ("AS AH AD", "tris", 45),
        ("5S 5H 5D", "tris", 15),
        ("KS KH KC", "tris", 30),
        ("2S 2S 2C", "pinelle", 60),
        ("JK JK JK", "jokers", 75),
        # A poker scores double: aces 120, 3-6 40, 7-K 80.
        ("AS AH AD AC", "poker", 120),
        ("5S 5H 5D 5C", "poker", 40),
        ("TS TH TD TC", "poker", 80),
        # A wild counts its own value wherever it stands.
        ("7S 7H JK=7D", "tris", 45),
        ("5H 6H 2C=7H", "scala", 30),
        ("5H 6H 7H", "scala", 20),
        ("QD KD AD", "scala", 35),
        ("AD 3D 4D", "scala", 25),
        # A sesta (six or more in sequence, no wild) doubles: 3-8 is 40, so 80.
        ("3H 4H 5H 6H 7H 8H", "sesta", 80),
        # Six cards with a wild are no sesta: face value.
        ("3H 4H JK=5H 6H 7H 8H", "scala", 60),
        # The scala reale: A 3 ... K A, 120 at face value, doubled.
        ("AC 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "scala reale", 240),
    ],
)
def test_meld_values(cards: str, name: str, points: int) -> None:
    meld = meld_of(cards)
    assert (meld.name(), meld.points()) == (name, points)


def test_a_wild_added_to_a_sesta_counts_its_face_value_once() -> None:
    # Section 8: "wilds added to it count their face value once".
    sesta = meld_of("3H 4H 5H 6H 7H 8H")
    with_joker = added(sesta, "JK=9H")
    assert (with_joker.name(), with_joker.points()) == ("sesta", 80 + 25)
    # A card joined to the sequence through the wild is not in the doubled run.
    assert added(with_joker, "TH").points() == 80 + 25 + 10


def test_a_natural_card_extending_a_sesta_doubles_too() -> None:
    assert added(meld_of("3H 4H 5H 6H 7H 8H"), "9H").points() == 2 * 50


def test_replacing_the_wild_of_a_six_card_scala_makes_it_a_sesta() -> None:
    state = hand_from_cards(
        "pinnacolo2",
        ["9S 9S", "3H 4H JK 6H 7H 8H 5H QS QS 9D"],
        pile="KD",
        stock="TC",
    )
    state.apply("draw")
    state.apply("meld 3H 4H JK=5H 6H 7H 8H")
    assert state.melds[0].points() == 60
    state.apply("replace 0 5H")
    assert (state.melds[0].name(), state.melds[0].points()) == ("sesta", 80)
    assert state.must_meld == "JK"


def test_closing_in_one_go_scores_200_and_the_other_player_minus_200() -> None:
    # Seat 1 (left of the dealer) draws 9C, lays everything but it, and discards it.
    state = hand_from_cards("pinnacolo2", ["AS KS", "5H 6H 7H 8S 8D 8C"], pile="KD", stock="9C")
    for text in ("draw", "meld 5H 6H 7H", "meld 8S 8D 8C", "discard 9C"):
        state.apply(text)
    result = state.result()
    assert (result.outcome, result.closer, result.one_go) == (Outcome.CLOSED, 1, True)
    assert [seat.score for seat in result.seats] == [-200, 20 + 30 + 200]
    assert result.side_scores == (-200, 250)


def test_minus_twice_the_hand_when_the_league_chooses_it() -> None:
    rules = pinnacolo_rules("pinnacolo2", {"no_meld_penalty": "double_hand"})
    state = hand_from_cards(
        "pinnacolo2", ["AS KS", "5H 6H 7H 8S 8D 8C"], pile="KD", stock="9C", rules=rules
    )
    for text in ("draw", "meld 5H 6H 7H", "meld 8S 8D 8C", "discard 9C"):
        state.apply(text)
    assert state.result().side_scores == (-2 * 25, 250)


def test_closing_after_an_earlier_meld_scores_100_and_a_heavy_hand_is_negative() -> None:
    state = hand_from_cards(
        "pinnacolo2",
        ["3S 4S 5S AS KS QS JS", "5H 6H 7H 8S 8D 8C QD"],
        pile="KD",
        stock="4C 3D 8H",
    )
    for text in (
        "draw",  # seat 1 draws 4C
        "meld 5H 6H 7H",
        "discard 4C",
        "draw",  # seat 0 draws 3D
        "meld 3S 4S 5S",
        "discard 3D",
        "draw",  # seat 1 draws 8H
        "meld 8S 8D 8C",
        "add 0 8H",
        "discard QD",
    ):
        state.apply(text)
    result = state.result()
    assert (result.closer, result.one_go) == (1, False)
    # Seat 0: 3S 4S 5S (15) laid, AS KS QS JS (45) in hand.
    assert result.seats[0].score == 15 - 45
    # Seat 1: 5H-8H (30) and the tris of eights (30), plus 100 for closing.
    assert result.seats[1].score == 30 + 30 + 100


def test_pairs_sum_both_partners() -> None:
    # Seats 1 and 3 are a pair; seat 1 closes in one go, seat 3 has laid nothing.
    state = hand_from_cards(
        "pinnacolo",
        ["AS", "5H 6H 7H 8S 8D 8C", "KS", "QS"],
        pile="KD",
        stock="9C",
    )
    for text in ("draw", "meld 5H 6H 7H", "meld 8S 8D 8C", "discard 9C"):
        state.apply(text)
    assert state.result().side_scores == (-200 - 200, 250 - 200)
