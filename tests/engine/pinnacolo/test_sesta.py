"""The sesta doubles the natural run that was laid as the sesta (RULES.md section 8, "Hand
score": "a sesta or scala reale scores double for its natural cards in sequence; wilds
added to it count their face value once").

The seed (Pinnacolo, "Punteggio"): "Sesta e Scala reale: il valore delle carte in
sequenza che la compongono moltiplicato x2; il bonus non si applica ad eventuali altre
carte unite alla sequenza da jolly o pinelle, conteggiati al valore nominale": the cards
joined to the sequence through a joker or a pinella count at face value, however many.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pinnacolo import Add, MeldCards, TableMeld, build_meld, extend_meld, parse_action
from engine.pinnacolo.cards import RANKS, SUITS, VALUES, parse_card


def meld_of(text: str) -> TableMeld:
    action = parse_action("meld " + text)
    assert isinstance(action, MeldCards)
    return build_meld(action.cards, 0)


def added(meld: TableMeld, text: str) -> TableMeld:
    action = parse_action("add 0 " + text)
    assert isinstance(action, Add)
    return extend_meld(meld, action.cards, 0)


def test_the_run_laid_as_the_sesta_is_doubled_not_the_first_in_ladder_order() -> None:
    # 9H-AH is the sesta: 10 + 10 + 10 + 10 + 10 + 15 = 65, doubled 130.
    sesta = meld_of("9H TH JH QH KH AH")
    assert (sesta.name(), sesta.points()) == ("sesta", 130)
    # The joker standing for 8H counts its face value once: 25.
    with_joker = added(sesta, "JK=8H")
    assert with_joker.points() == 130 + 25
    # AH 3H-7H joins through the joker: face value, 15 + 4 * 5 + 10 = 45, though it is
    # as long as the sesta and first on the ladder.
    table = added(with_joker, "AH 3H 4H 5H 6H 7H")
    assert table.points() == 130 + 25 + 45 == 200


def test_the_sesta_run_is_doubled_whichever_end_the_wild_joins() -> None:
    # Laid 3H-8H (40, doubled 80); a pinella for 9H; then TH-AH (55) at face value.
    sesta = meld_of("3H 4H 5H 6H 7H 8H")
    table = added(added(sesta, "2S=9H"), "TH JH QH KH AH")
    assert table.points() == 80 + 20 + 55


def test_naturals_added_to_the_sesta_itself_double_with_it() -> None:
    # "il valore delle carte in sequenza": a natural card continuing the sequence is in it.
    sesta = meld_of("9H TH JH QH KH AH")
    assert added(sesta, "8H").points() == 2 * (65 + 10)


def test_replacing_the_wild_joins_everything_into_one_doubled_sequence() -> None:
    # With the joker replaced by the natural 8H no card is joined through a wild: the
    # whole ladder is the sequence, 120 doubled (the scala reale).
    table = added(added(meld_of("9H TH JH QH KH AH"), "JK=8H"), "AH 3H 4H 5H 6H 7H")
    position = table.wild_for(parse_card("8H"))
    replaced = table.copy()
    replaced.cards[position] = (parse_card("8H"), parse_card("8H"))
    replaced.update_sesta()
    assert (replaced.name(), replaced.points()) == ("scala reale", 2 * 120)


def _card(suit: int, position: int) -> str:
    """The card at ladder ``position`` (0 to 12: A 3 4 ... K A) of ``suit``."""
    rank = 0 if position in (0, 12) else position + 1
    return RANKS[rank] + SUITS[suit]


def _layouts() -> list[tuple[int, int, int, list[int]]]:
    """Every sesta (6 to 12 cards) with room for a wild at one end of the ladder (0 to
    12): ``(low, length, wild position, positions beyond the wild, nearest first)``."""
    layouts = []
    for length in range(6, 13):
        for low in range(13 - length + 1):
            high = low + length - 1
            # An ace beyond the wild that would also fit the sesta's other end (A 3 ...
            # or ... K A) is left out: the engine lays it there, next to the sesta.
            if high < 12:
                layouts.append((low, length, high + 1, list(range(high + 2, 13 - (low == 1)))))
            if low > 0:
                layouts.append((low, length, low - 1, list(range(low - 2, (high == 11) - 1, -1))))
    return layouts


@settings(max_examples=40, deadline=None, derandomize=True)
@given(suit=st.integers(0, 3), wild=st.sampled_from(["JK", "2S", "2C"]))
def test_cards_beyond_the_wild_always_count_once_and_the_sesta_twice(suit: int, wild: str) -> None:
    # Every layout, every number of cards beyond the wild: the space is small enough to
    # walk whole, so the worked example's shape (as many cards beyond as in the sesta,
    # lower on the ladder) is always among them.
    for low, length, wild_at, outside in _layouts():
        sesta_cards = [_card(suit, p) for p in range(low, low + length)]
        value = sum(VALUES[parse_card(card)] for card in sesta_cards)
        with_wild = added(meld_of(" ".join(sesta_cards)), f"{wild}={_card(suit, wild_at)}")
        for beyond in range(len(outside) + 1):
            beyond_cards = [_card(suit, p) for p in outside[:beyond]]
            table = added(with_wild, " ".join(beyond_cards)) if beyond_cards else with_wild
            beyond_value = sum(VALUES[parse_card(card)] for card in beyond_cards)
            expected = 2 * value + VALUES[parse_card(wild)] + beyond_value
            assert table.points() == expected, (sesta_cards, wild, beyond_cards)
