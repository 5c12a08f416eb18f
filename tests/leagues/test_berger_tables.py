"""Round robins follow the FIDE Berger tables (FIDE Handbook C.05, Annex 1)."""

from __future__ import annotations

import itertools

import pytest

from leagues.scheduling import (
    berger_round,
    double_round_robin_round,
    double_round_robin_round_count,
    round_robin_round_count,
)

# Copied from the printed tables, White first; for an odd field the last number is the bye.
FIDE_TABLES = {
    4: [
        "1-4 2-3",
        "4-3 1-2",
        "2-4 3-1",
    ],
    6: [
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
}


def _parsed(row: str) -> list[tuple[int, int]]:
    return [(int(x), int(y)) for x, y in (pair.split("-") for pair in row.split())]


@pytest.mark.parametrize("players", sorted(FIDE_TABLES))
def test_each_round_equals_the_fide_table(players: int) -> None:
    rounds = [berger_round(players, number) for number in range(1, players)]
    assert rounds == [_parsed(row) for row in FIDE_TABLES[players]]


@pytest.mark.parametrize("players", [3, 5, 7, 9])
def test_an_odd_field_gives_the_bye_to_whoever_meets_the_missing_last_number(
    players: int,
) -> None:
    table = FIDE_TABLES[players + 1]
    for number in range(1, round_robin_round_count(players) + 1):
        expected = []
        for x, y in _parsed(table[number - 1]):
            if players + 1 in (x, y):
                expected.append((y if x == players + 1 else x, None))
            else:
                expected.append((x, y))
        assert berger_round(players, number) == expected


@pytest.mark.parametrize("players", range(2, 15))
def test_everyone_meets_everyone_once(players: int) -> None:
    met = [
        frozenset(pair)
        for number in range(1, round_robin_round_count(players) + 1)
        for pair in berger_round(players, number)
        if pair[1] is not None
    ]
    assert sorted(map(sorted, met)) == sorted(
        map(sorted, itertools.combinations(range(1, players + 1), 2))
    )


def test_a_double_round_robin_repeats_the_table_with_seats_reversed() -> None:
    # Annex 1: the last two rounds of the first cycle are exchanged for a double round robin.
    first_cycle = [_parsed(FIDE_TABLES[4][index]) for index in (0, 2, 1)]
    second_cycle = [[(y, x) for x, y in _parsed(row)] for row in FIDE_TABLES[4]]
    assert double_round_robin_round_count(4) == 6
    assert [double_round_robin_round(4, number) for number in range(1, 7)] == [
        *first_cycle,
        *second_cycle,
    ]


def test_every_pair_meets_once_in_each_seat_over_a_double_round_robin() -> None:
    seated = [
        pair
        for number in range(1, double_round_robin_round_count(6) + 1)
        for pair in double_round_robin_round(6, number)
    ]
    assert sorted(seated) == sorted(itertools.permutations(range(1, 7), 2))


def test_a_round_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        berger_round(4, 4)
    with pytest.raises(ValueError, match="at least two"):
        berger_round(1, 1)
