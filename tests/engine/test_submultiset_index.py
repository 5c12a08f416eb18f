"""``legal_actions[i]`` of a pass (RULES.md 2.4) or a bury (RULES.md 8.2) is the i-th of
the listed actions, found without building the ones before it
(``engine.trickstate.submultiset_at``)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Give, Phase, new_hand
from engine.cutthroat import new_cutthroat_hand
from engine.trickstate import count_submultisets, submultiset_at, submultisets

FEW = settings(max_examples=100, deadline=None, derandomize=True)


@FEW
@given(
    counts=st.lists(st.integers(min_value=0, max_value=4), min_size=24, max_size=24),
    size=st.integers(min_value=0, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_the_multiset_at_an_index_is_the_listed_one(
    counts: list[int], size: int, seed: int
) -> None:
    listed = list(submultisets(list(counts), size))
    assert len(listed) == count_submultisets(counts, size)
    # Every index of a short list; of a long one (up to some 10^5), a sample and its ends.
    indexes = list(range(len(listed)))
    if len(listed) > 400:
        indexes = sorted({0, len(listed) - 1, *random.Random(seed).sample(indexes, 200)})
    assert [submultiset_at(counts, size, index) for index in indexes] == [
        listed[index] for index in indexes
    ]
    with pytest.raises(IndexError):
        submultiset_at(counts, size, len(listed))


def positions(phases: tuple[Phase, ...], variant: str, hands: int) -> list[Any]:
    """States in one of ``phases``, reached by random legal actions."""
    found: list[Any] = []
    for seed in range(hands):
        rng = random.Random(seed)
        state: Any = (
            new_cutthroat_hand(variant, seed=seed, dealer=seed % 3)
            if variant == "cutthroat3"
            else new_hand(variant, seed=seed, dealer=seed % 4)
        )
        while not state.is_terminal():
            if state.phase in phases:
                found.append(state.copy())
            if state.phase is Phase.PASS_TO_DECLARER or state.phase is Phase.PASS_BACK:
                seat = state.current_player
                assert seat is not None
                count = state.rules.pass_count
                state.apply(Give(rng.sample(state.hand(seat), count)))
            else:
                legal = state.legal_actions
                state.apply(legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize(
    ("variant", "phases"),
    [
        ("single4", (Phase.PASS_TO_DECLARER, Phase.PASS_BACK)),
        ("auction4", (Phase.PASS_TO_DECLARER, Phase.PASS_BACK)),
        ("cutthroat3", (Phase.BURY,)),
    ],
)
def test_an_index_of_the_legal_actions_is_the_listed_action(
    variant: str, phases: tuple[Phase, ...]
) -> None:
    states = positions(phases, variant, 12)
    assert states
    for state in states:
        legal = state.legal_actions
        listed = list(legal)
        assert len(legal) == len(listed)
        for index in (0, 1, len(listed) // 2, len(listed) - 1, -1, -len(listed)):
            assert legal[index] == listed[index]
        with pytest.raises(IndexError):
            legal[len(listed)]
