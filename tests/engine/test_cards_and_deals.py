"""RULES.md section 1: cards, notation, decks and reproducible deals."""

from __future__ import annotations

import pytest

from engine import (
    DEAL_GENERATOR,
    DOUBLE_DECK,
    SINGLE_DECK,
    Card,
    CardError,
    CardParseError,
    Rank,
    SplitMix64,
    Suit,
    format_cards,
    hand_from_cards,
    new_hand,
    parse_cards,
    shuffle,
)


def test_section_1_notation_reads_and_prints_rank_then_suit() -> None:
    cards = parse_cards("AS TS KS QS JS 9S")
    assert [str(card) for card in cards] == ["AS", "TS", "KS", "QS", "JS", "9S"]
    assert format_cards(cards) == "AS TS KS QS JS 9S"


def test_section_1_the_ten_outranks_the_king() -> None:
    ten, king = Card.parse("TH"), Card.parse("KH")
    assert ten.rank < king.rank
    assert ten.suit is Suit.H and king.rank is Rank.K


def test_a_ten_may_be_written_10_and_cards_are_case_insensitive() -> None:
    assert Card.parse("10d") == Card.parse("TD")


def test_a_card_repr_reads_back_as_code() -> None:
    card = Card.parse("QS")
    assert eval(repr(card)) is card


@pytest.mark.parametrize("text", ["", "1S", "AX", "ASS", "QQ"])
def test_a_bad_card_name_raises_a_parse_error(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_section_1_the_single_deck_has_two_copies_of_24_cards() -> None:
    assert SINGLE_DECK.size == 48
    assert set(SINGLE_DECK.copies) == {2}


def test_section_1_the_double_deck_has_four_copies_and_no_nines() -> None:
    assert DOUBLE_DECK.size == 80
    cards = DOUBLE_DECK.cards()
    assert all(card.rank is not Rank.NINE for card in cards)
    assert cards.count(Card.parse("AS")) == 4


def test_splitmix64_matches_the_published_reference_outputs() -> None:
    rng = SplitMix64(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_the_deal_generator_is_named_and_versioned() -> None:
    assert DEAL_GENERATOR == "splitmix64-fy-v1"


def test_a_known_shuffle_is_pinned() -> None:
    assert shuffle(list(range(10)), 2024) == [3, 4, 2, 9, 5, 1, 7, 0, 8, 6]


def test_section_1_a_known_single4_deal_is_pinned() -> None:
    state = new_hand("single4", seed=20261129, dealer=0)
    assert [format_cards(state.hand(seat)) for seat in range(4)] == PINNED_SINGLE4


PINNED_SINGLE4 = [
    "AS TS QS JS 9H AD TD KD KD QD KC KC",
    "AS JS AH KH QH 9H JD AC AC TC QC 9C",
    "9S TH TH AD TD QD JD 9D 9D QC JC 9C",
    "TS KS KS QS 9S AH KH QH JH JH TC JC",
]


PINNED_DOUBLE4 = [
    "AS TS KS KS KS QS AH JH AD AD TD TD KD KD QD TC KC KC QC JC",
    "AS AS TS KS QS AH TH KH QH QH JH AD QD JD AC AC TC TC KC KC",
    "TS QS JS JS AH AH TH TH KH JH AD TD KD QD JD AC QC QC QC JC",
    "AS TS QS JS JS TH KH KH QH QH JH TD KD QD JD JD AC TC JC JC",
]


def test_section_1_a_known_double4_deal_is_pinned() -> None:
    state = new_hand("double4", seed=20261129, dealer=0)
    assert [format_cards(state.hand(seat)) for seat in range(4)] == PINNED_DOUBLE4


def _reference_shuffle(items: list[int], seed: int) -> list[int]:
    """splitmix64-fy-v1 written from its definition in engine/rng.py, without tricks."""
    mask = 2**64 - 1
    state = seed
    words: list[int] = []

    def word() -> int:
        nonlocal state
        if not words:
            state = (state + 0x9E3779B97F4A7C15) % 2**64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            words.extend([z & 0xFFFFFFFF, z >> 32])
        return words.pop()

    def below(n: int) -> int:
        while True:
            product = word() * n
            if product % 2**32 >= (2**32 - n) % n:
                return product >> 32

    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 12345, 2**64 - 1])
def test_the_shuffle_follows_its_published_definition(seed: int) -> None:
    assert shuffle(list(range(80)), seed) == _reference_shuffle(list(range(80)), seed)


def test_the_same_seed_gives_the_same_deal_and_another_seed_another() -> None:
    first = new_hand("double4", seed=99)
    again = new_hand("double4", seed=99)
    other = new_hand("double4", seed=100)
    hands = [first.hand(seat) for seat in range(4)]
    assert hands == [again.hand(seat) for seat in range(4)]
    assert hands != [other.hand(seat) for seat in range(4)]


@pytest.mark.parametrize(("variant", "size"), [("single4", 12), ("auction4", 12), ("double4", 20)])
def test_section_2_all_cards_are_dealt_evenly(variant: str, size: int) -> None:
    state = new_hand(variant, seed=5)
    hands = [state.hand(seat) for seat in range(4)]
    assert [len(hand) for hand in hands] == [size] * 4
    pack = SINGLE_DECK if size == 12 else DOUBLE_DECK
    assert sorted(card for hand in hands for card in hand) == pack.cards()


def test_the_seat_left_of_the_dealer_bids_first() -> None:
    assert new_hand("single4", seed=1, dealer=2).current_player == 3
    assert new_hand("single4", seed=1, dealer=3).current_player == 0


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True])
def test_a_seed_outside_64_bits_is_refused(seed: object) -> None:
    with pytest.raises(ValueError):
        new_hand("single4", seed=seed)  # type: ignore[arg-type]


def test_explicit_hands_may_not_hold_a_card_more_often_than_the_pack() -> None:
    hands = [["AS"] * 12] + [["KH"] * 12] * 3
    with pytest.raises(CardError):
        hand_from_cards("single4", hands)


def test_explicit_hands_must_have_the_dealt_size() -> None:
    with pytest.raises(CardError):
        hand_from_cards("single4", ["AS TS", "AH", "AD", "AC"])
