"""The phases read as plain class attributes where the kernel is built
(``engine/_enums.c``): the same members, the same errors, and no call of
``EnumType.__getattr__``."""

from __future__ import annotations

import enum
import pickle
from typing import Any

import pytest

from engine import Phase
from engine.kernel import KERNEL, kernel_status

needs_kernel = pytest.mark.skipif(KERNEL is None, reason=f"the C kernel is {kernel_status()}")


def test_the_phases_are_the_same_enum_with_either_build() -> None:
    assert isinstance(Phase.TRICKS, enum.Enum) and isinstance(Phase.TRICKS, Phase)
    assert Phase("tricks") is Phase.TRICKS is Phase["TRICKS"]
    assert [phase.value for phase in Phase][:3] == ["auction", "trump", "pass_to_declarer"]
    assert Phase.__members__["OVER"] is Phase.OVER
    assert pickle.loads(pickle.dumps(Phase.MELD)) is Phase.MELD
    assert repr(Phase.BURY) == "<Phase.BURY: 'bury'>"
    with pytest.raises(AttributeError):
        getattr(Phase, "NOT_A_PHASE")  # noqa: B009


ASKED: list[str] = []
"""The names ``Counting``'s hook was asked for."""


class Counting(enum.EnumType):
    def __getattr__(cls, name: str) -> Any:
        ASKED.append(name)
        return super().__getattr__(name)  # type: ignore[misc]


class Colour(enum.Enum, metaclass=Counting):
    RED = 1
    BLUE = 2


@needs_kernel
def test_member_reads_skip_the_metaclass_hook_once_made_plain() -> None:
    assert KERNEL is not None
    ASKED.clear()  # the test collector asks the module's classes for ``__test__``
    assert Colour.RED.value == 1 and ASKED == []  # found in the class's dict: no hook
    with pytest.raises(AttributeError):
        getattr(Colour, "GREEN")  # noqa: B009
    assert ASKED == ["GREEN"]  # a name found nowhere goes to the hook
    KERNEL.plain_member_reads(Counting)
    assert Colour.BLUE.value == 2
    with pytest.raises(AttributeError):
        getattr(Colour, "GREEN")  # noqa: B009
    assert ASKED == ["GREEN"]  # no longer asked
    assert Colour(1) is Colour.RED and list(Colour) == [Colour.RED, Colour.BLUE]


@needs_kernel
def test_only_a_metaclass_made_in_python_without_its_own_getattribute() -> None:
    assert KERNEL is not None

    class Reading(enum.EnumType):
        def __getattribute__(cls, name: str) -> Any:
            return super().__getattribute__(name)

    for refused in (int, type, object(), Reading):
        with pytest.raises(TypeError):
            KERNEL.plain_member_reads(refused)
