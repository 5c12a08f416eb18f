"""Movements keep the duplicate invariants for 3 to 15 tables, and promise what they do."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.movements import (
    MovementError,
    MovementKind,
    howell,
    individual,
    individual_table_counts,
    mitchell,
    movement_problems,
    team_of_four,
)

TABLES = range(3, 16)


@pytest.mark.parametrize("tables", TABLES)
def test_a_mitchell_is_sound(tables: int) -> None:
    movement = mitchell(tables)
    assert movement_problems(movement) == []
    rounds = tables if tables % 2 else tables - 1
    assert movement.rounds == rounds
    # North-South pairs never move; every table plays every round.
    for seating in movement.seatings:
        assert seating.ns == seating.table
    assert len(movement.seatings) == tables * rounds


@pytest.mark.parametrize("tables", [t for t in TABLES if t % 2])
def test_an_odd_mitchell_meets_every_opponent_and_every_board_set(tables: int) -> None:
    movement = mitchell(tables)
    for ew in range(tables + 1, 2 * tables + 1):
        rows = [s for s in movement.seatings if s.ew == ew]
        assert sorted(s.ns for s in rows) == list(range(1, tables + 1))
        assert sorted(s.board_set for s in rows) == list(range(1, tables + 1))


@pytest.mark.parametrize("tables", [t for t in TABLES if t % 2 == 0])
def test_an_even_mitchell_skips_once_half_way(tables: int) -> None:
    movement = mitchell(tables)
    first = next(s for s in movement.seatings if s.ew == tables + 1 and s.round == 1)
    before, after = (
        next(s for s in movement.seatings if s.ew == tables + 1 and s.round == r).table
        for r in (tables // 2, tables // 2 + 1)
    )
    assert first.table == 1
    assert after - before == 2  # East-West jump a table after round n/2


@pytest.mark.parametrize("tables", [4, *range(5, 16)])
def test_a_howell_meets_every_other_pair_once(tables: int) -> None:
    movement = howell(tables)
    assert movement_problems(movement) == []
    pairs = 2 * tables
    assert len(movement.promised) == pairs * (pairs - 1) // 2


@pytest.mark.parametrize("tables", [2, 3])
def test_there_is_no_howell_for_two_or_three_tables(tables: int) -> None:
    with pytest.raises(MovementError, match="Mitchell"):
        howell(tables)


@pytest.mark.parametrize("teams", TABLES)
def test_a_team_of_four_round_robin_uses_both_rooms(teams: int) -> None:
    movement = team_of_four(teams)
    assert movement_problems(movement) == []
    for match in {s.match for s in movement.seatings}:
        rooms = [s for s in movement.seatings if s.match == match]
        assert len(rooms) == 2
        (open_ns, open_ew), (closed_ns, closed_ew) = (r.sides for r in rooms)
        # Each team sits North-South in one room and East-West in the other.
        assert (open_ns + 1) // 2 == (closed_ew + 1) // 2
        assert (open_ew + 1) // 2 == (closed_ns + 1) // 2
        assert rooms[0].board_set == rooms[1].board_set


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("tables", TABLES)
def test_an_individual_movement_is_sound_where_it_exists(seats: int, tables: int) -> None:
    if tables not in individual_table_counts(seats):
        with pytest.raises(MovementError, match="no factor"):
            individual(tables, seats=seats)
        return
    movement = individual(tables, seats=seats)
    assert movement_problems(movement) == []
    assert movement.kind is MovementKind.INDIVIDUAL


@settings(max_examples=60, deadline=None)
@given(tables=st.integers(3, 15), data=st.data())
def test_a_shortened_movement_stays_sound(tables: int, data: st.DataObject) -> None:
    full = mitchell(tables)
    rounds = data.draw(st.integers(1, full.rounds))
    assert movement_problems(mitchell(tables, rounds=rounds)) == []
    if tables >= 4:
        rounds = data.draw(st.integers(1, 2 * tables - 1))
        assert movement_problems(howell(tables, rounds=rounds)) == []


def test_the_check_catches_a_board_played_twice_and_a_broken_promise() -> None:
    movement = mitchell(5)
    broken = type(movement)(
        movement.kind,
        movement.tables,
        movement.rounds,
        movement.board_sets,
        movement.entrants,
        tuple(
            type(s)(s.round, s.table, 1 if s.table == 1 else s.board_set, s.sides)
            for s in movement.seatings
        ),
        movement.promised | {(1, 2)},
    )
    problems = movement_problems(broken)
    assert any("board set 1 at tables" in p for p in problems)
    assert any("plays board set 1" in p for p in problems)
    assert any("promised meetings that do not happen" in p for p in problems)


def test_asking_for_too_many_rounds_is_refused() -> None:
    with pytest.raises(MovementError, match="1 to 5 rounds"):
        mitchell(5, rounds=6)
