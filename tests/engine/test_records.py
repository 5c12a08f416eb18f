"""``engine.kernel.record_maker``: a hand's result built without its dataclasses'
``__init__`` is the same frozen object the class builds (``engine/_records.c``)."""

from __future__ import annotations

import dataclasses
import gc
import sys

import pytest

from engine.cards import Suit
from engine.kernel import KERNEL, kernel_status, record_maker
from engine.results import NO_MELD, HandOutcome, HandResult, TeamResult

needs_kernel = pytest.mark.skipif(KERNEL is None, reason=f"the C kernel is {kernel_status()}")

TEAM = (1, (1, 3), 40, True, 130, 10, 7, 180, NO_MELD)
TEAM_FIELDS = tuple(field.name for field in dataclasses.fields(TeamResult))


def test_without_the_kernel_the_maker_is_the_class_itself() -> None:
    if KERNEL is None:
        assert record_maker(TeamResult) is TeamResult
    else:
        assert record_maker(TeamResult) is not TeamResult


@needs_kernel
def test_a_made_record_is_the_class_s_own_frozen_object() -> None:
    team = record_maker(TeamResult)(*TEAM)
    made = record_maker(HandResult)(HandOutcome.MADE, 1, 250, Suit.H, (team,))
    built = HandResult(HandOutcome.MADE, 1, 250, Suit.H, (TeamResult(*TEAM),))
    assert type(team) is TeamResult and type(made) is HandResult
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert made.to_json() == built.to_json()
    assert team.shown is NO_MELD and team.taken == 140
    with pytest.raises(dataclasses.FrozenInstanceError):
        team.score = 0  # type: ignore[misc]


@needs_kernel
def test_a_made_record_holds_its_fields_and_frees_them() -> None:
    seats = tuple(range(2))  # a new tuple whose references can be counted
    before = sys.getrefcount(seats)
    team = record_maker(TeamResult)(1, seats, 40, True, 130, 10, 7, 180, NO_MELD)
    assert sys.getrefcount(seats) == before + 1
    gc.collect()
    assert team.seats is seats
    del team
    assert sys.getrefcount(seats) == before


@needs_kernel
@pytest.mark.parametrize(
    ("args", "message"),
    [(TEAM[:-1], "takes 9 fields, not 8"), ((*TEAM, 0), "takes 9 fields, not 10")],
)
def test_a_maker_refuses_another_number_of_fields(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        record_maker(TeamResult)(*args)


@needs_kernel
def test_a_maker_takes_its_fields_by_position_only() -> None:
    with pytest.raises(TypeError, match="by position"):
        record_maker(TeamResult)(*TEAM[:-1], shown=NO_MELD)


@dataclasses.dataclass(frozen=True)
class WithDict:
    value: int


@dataclasses.dataclass(frozen=True, slots=True)
class Base:
    value: int


@dataclasses.dataclass(frozen=True, slots=True)
class Derived(Base):
    more: int


@needs_kernel
@pytest.mark.parametrize(
    ("cls", "fields", "message"),
    [
        (WithDict, ("value",), "not a record"),
        (Derived, ("value", "more"), "not a record"),
        (int, (), "not a record"),
        (TeamResult, ("team",) * 9, "named twice"),
        (TeamResult, (*TEAM_FIELDS[:-1], "nope"), "no slot 'nope'"),
    ],
)
def test_only_a_class_of_its_own_slots_gets_a_maker(
    cls: type, fields: tuple[str, ...], message: str
) -> None:
    assert KERNEL is not None
    with pytest.raises(TypeError, match=message):
        KERNEL.record_maker(cls, fields)
