"""The knockout bracket's rules (README.md, "Leagues", knockout): seeding order, byes to
the top seeds, who advances and how a tie is broken. Pure: no database."""

from __future__ import annotations

import doctest
import itertools

import pytest

from leagues import knockout
from leagues.fixture_results import Result
from leagues.knockout import (
    TieOutcome,
    bracket,
    champion,
    elimination_order,
    first_round,
    round_pairings,
    seed_order,
    seeding,
    tie_winner,
)


def test_the_examples_in_the_docstring_run() -> None:
    failures, tried = doctest.testmod(knockout)
    assert tried > 0 and failures == 0


def test_sixteen_seeds_sit_in_the_published_draw_order() -> None:
    # The order of a seeded 16-player single-elimination draw (tennis, NCAA, Challonge).
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_round_one_pairs_seed_s_with_seed_n_plus_one_minus_s(size: int) -> None:
    pairings = first_round(size)
    assert sorted(pairings) == [(seed, size + 1 - seed) for seed in range(1, size // 2 + 1)]


@pytest.mark.parametrize("size", [4, 8, 16, 32])
def test_the_top_two_seeds_are_in_opposite_halves_and_the_top_four_in_different_quarters(
    size: int,
) -> None:
    order = seed_order(size)
    half, quarter = size // 2, size // 4
    assert (1 in order[:half]) and (2 in order[half:])
    quarters = [order[i : i + quarter] for i in range(0, size, quarter)]
    assert [sorted(set(q) & {1, 2, 3, 4}) for q in quarters] == [[1], [4], [2], [3]]


def _favourites_win(players: int) -> dict[frozenset[int], int]:
    """Every tie won by the better seed, round after round."""
    winners: dict[frozenset[int], int] = {}
    for number in range(1, knockout.round_count(players) + 1):
        for x, y in round_pairings(players, number, winners):
            if y is not None:
                winners[frozenset((x, y))] = min(x, y)
    return winners


@pytest.mark.parametrize("size", [4, 8, 16, 32])
def test_when_the_favourites_win_seeds_one_and_two_meet_only_in_the_final(size: int) -> None:
    winners = _favourites_win(size)
    rounds = bracket(size, winners)
    assert [(tie.x, tie.y) for tie in rounds[-1]] == [(1, 2)]
    assert [sorted((tie.x, tie.y)) for tie in rounds[-2]] == [[1, 4], [2, 3]]  # type: ignore[type-var]
    for earlier in rounds[:-1]:
        assert all({tie.x, tie.y} != {1, 2} for tie in earlier)


@pytest.mark.parametrize(
    ("players", "byes", "round_one_matches"),
    [
        (5, [1, 2, 3], [(4, 5)]),
        (6, [1, 2], [(3, 6), (4, 5)]),
        (7, [1], [(2, 7), (3, 6), (4, 5)]),
        (12, [1, 2, 3, 4], [(5, 12), (6, 11), (7, 10), (8, 9)]),
    ],
)
def test_the_top_seeds_have_the_byes_when_the_field_is_not_a_power_of_two(
    players: int, byes: list[int], round_one_matches: list[tuple[int, int]]
) -> None:
    pairings = first_round(players)
    assert len(pairings) == knockout.bracket_size(players) // 2
    assert sorted(x for x, y in pairings if y is None) == byes
    assert sorted((x, y) for x, y in pairings if y is not None) == round_one_matches
    # Everyone is in round 1 once, a bye or a match; round 2 is a full power of two.
    assert sorted(s for pair in pairings for s in pair if s is not None) == list(
        range(1, players + 1)
    )


def test_a_bye_winner_meets_the_winner_of_the_tie_beside_it() -> None:
    # 5 players, bracket of 8: 1 (bye) waits for the winner of 4 v 5.
    assert round_pairings(5, 2, {frozenset({4, 5}): 5}) == [(1, 5), (2, 3)]
    with pytest.raises(ValueError, match="without a winner"):
        round_pairings(5, 2, {})


def test_winners_advance_round_by_round_to_a_champion_and_everyone_is_ranked() -> None:
    winners = {
        frozenset({4, 5}): 5,  # round 1; 1, 2 and 3 have byes
        frozenset({1, 5}): 5,
        frozenset({2, 3}): 3,  # round 2
        frozenset({3, 5}): 3,  # the final
    }
    assert [len(ties) for ties in bracket(5, winners)] == [4, 2, 1]
    assert champion(5, winners) == 3
    assert elimination_order(5, winners) == [3, 5, 1, 2, 4]
    assert champion(5, {frozenset({4, 5}): 5}) is None


def test_a_field_of_two_is_one_final() -> None:
    assert first_round(2) == [(1, 2)]
    assert champion(2, {frozenset({1, 2}): 2}) == 2


def test_a_knockout_needs_two_players_and_has_only_its_rounds() -> None:
    with pytest.raises(ValueError, match="at least two"):
        first_round(1)
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        round_pairings(5, 4, {})


@pytest.mark.parametrize(
    ("outcome", "advances"),
    [
        (TieOutcome(Result.X_WON, 1, 4), 6),  # the board total decides, not the boards won
        (TieOutcome(Result.Y_WON, 4, 1), 3),
        (TieOutcome(Result.DRAWN, 3, 2), 6),  # a draw: more boards won
        (TieOutcome(Result.DRAWN, 2, 3), 3),
        (TieOutcome(Result.DRAWN, 2, 2), 3),  # then the better seed
        (TieOutcome(Result.VOID), 3),  # a failed match: the better seed
        (TieOutcome(Result.BOTH_FORFEITED), 3),
        (TieOutcome(Result.X_FORFEITED), 3),
        (TieOutcome(Result.Y_FORFEITED), 6),
        (TieOutcome(Result.PENDING), None),
    ],
)
def test_who_advances_from_a_tie_between_seeds_six_and_three(
    outcome: TieOutcome, advances: int | None
) -> None:
    # Seed 6 took the X seats here, so that "X" and "the better seed" differ.
    assert tie_winner(6, 3, outcome) == advances


def test_a_draw_goes_to_the_better_seed_whichever_seats_it_took() -> None:
    for x, y in itertools.permutations((2, 7)):
        assert tie_winner(x, y, TieOutcome(Result.DRAWN, 5, 5)) == 2


def test_seeds_follow_the_ratings_and_the_unrated_come_last_in_order_of_entry() -> None:
    assert seeding([None, 1400.0, None, 1700.0, 1400.0]) == [4, 2, 5, 1, 3]
    assert seeding([]) == []
