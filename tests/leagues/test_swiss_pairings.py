"""Swiss rounds: score groups, no rematch, one bye at most, balanced seats."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.scheduling import (
    PairingImpossible,
    SwissPlayer,
    fixture_points,
    swiss_pairings,
    swiss_round_count,
)


def _play_swiss(
    players: int, rounds: int, rng: random.Random
) -> list[list[tuple[int, int | None]]]:
    """Pair and play ``rounds`` rounds with random board results; returns the pairings."""
    score = dict.fromkeys(range(1, players + 1), 0)
    opponents: dict[int, set[int]] = {number: set() for number in score}
    had_bye = dict.fromkeys(score, False)
    balance = dict.fromkeys(score, 0)
    last = dict.fromkeys(score, "")
    history = []
    for _ in range(rounds):
        field = [
            SwissPlayer(n, score[n], frozenset(opponents[n]), had_bye[n], balance[n], last[n])
            for n in score
        ]
        pairings = swiss_pairings(field)
        history.append(pairings)
        for x, y in pairings:
            if y is None:
                had_bye[x] = True
                score[x] += 2
                continue
            points_x, points_y = fixture_points(rng.randint(-300, 300))
            score[x] += points_x
            score[y] += points_y
            opponents[x].add(y)
            opponents[y].add(x)
            balance[x] += 1
            balance[y] -= 1
            last[x], last[y] = "x", "y"
    return history


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 14), seed=st.integers(0, 2**32))
def test_no_pairing_repeats_over_the_rounds_of_a_random_field(players: int, seed: int) -> None:
    # Up to n/2 rounds (at least the customary ceil(log2 n) for n >= 4) a pairing without
    # rematches always exists: the pairs not yet met form a graph of degree >= n/2.
    rounds = max(1, (players + players % 2) // 2)
    history = _play_swiss(players, rounds, random.Random(seed))
    met = [frozenset(pair) for pairings in history for pair in pairings if pair[1] is not None]
    assert len(met) == len(set(met))
    byes = [x for pairings in history for x, y in pairings if y is None]
    assert len(byes) == len(set(byes))
    for pairings in history:
        seen = [n for pair in pairings for n in pair if n is not None]
        assert sorted(seen) == list(range(1, players + 1))


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 12).filter(lambda n: n % 2 == 0), seed=st.integers(0, 2**32))
def test_seats_stay_balanced(players: int, seed: int) -> None:
    history = _play_swiss(players, players // 2, random.Random(seed))
    balance = dict.fromkeys(range(1, players + 1), 0)
    for pairings in history:
        for x, y in pairings:
            assert y is not None
            balance[x] += 1
            balance[y] -= 1
    assert all(abs(value) <= 2 for value in balance.values())


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    field = [SwissPlayer(number, 0) for number in range(1, 9)]
    assert swiss_pairings(field) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_players_meet_their_own_score_group_first() -> None:
    field = [
        SwissPlayer(1, 2, frozenset({5}), seat_balance=1, last_seat="x"),
        SwissPlayer(2, 2, frozenset({6}), seat_balance=1, last_seat="x"),
        SwissPlayer(5, 0, frozenset({1}), seat_balance=-1, last_seat="y"),
        SwissPlayer(6, 0, frozenset({2}), seat_balance=-1, last_seat="y"),
    ]
    # 1 and 2 lead with a win each and meet; the seats go to... equal balance, equal last
    # seat: the higher-ranked takes X.
    assert swiss_pairings(field) == [(1, 2), (5, 6)]


def test_the_lowest_ranked_player_without_a_bye_gets_it() -> None:
    field = [
        SwissPlayer(1, 2, frozenset({2})),
        SwissPlayer(2, 0, frozenset({1})),
        SwissPlayer(3, 2, had_bye=True),
    ]
    assert swiss_pairings(field) == [(1, 3), (2, None)]


def test_a_dead_end_is_left_by_backtracking() -> None:
    # 1 and 2 lead; 1 has met 3 and 4 and so must meet 2, though 2 would prefer 3.
    field = [
        SwissPlayer(1, 4, frozenset({3, 4})),
        SwissPlayer(2, 4, frozenset({4})),
        SwissPlayer(3, 4, frozenset({1})),
        SwissPlayer(4, 0, frozenset({1, 2})),
    ]
    pairs = {frozenset(pair) for pair in swiss_pairings(field)}
    assert pairs == {frozenset({1, 2}), frozenset({3, 4})}


def test_a_field_where_every_pairing_is_a_rematch_is_refused() -> None:
    field = [SwissPlayer(1, 2, frozenset({2})), SwissPlayer(2, 0, frozenset({1}))]
    with pytest.raises(PairingImpossible):
        swiss_pairings(field)


def test_the_customary_number_of_rounds_is_ceil_log2_n() -> None:
    assert [swiss_round_count(n) for n in (2, 3, 4, 5, 8, 9, 16, 17)] == [1, 2, 2, 3, 3, 4, 4, 5]
