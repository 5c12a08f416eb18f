"""What a hand played through the public interface leaves behind, and how it is dealt.

A driver plays thousands of hands through ``legal_actions`` and ``apply``: a finished hand
must be freed as soon as the driver lets go of it, not left to Python's cycle collector
(the state and its view of the legal actions refer to each other while it is played).
The view stays one per state during play and answers as before once the hand is over.
The deal is the same with or without the C kernel's shuffle (RULES.md section 1).
"""

from __future__ import annotations

import gc
import random

import pytest

from engine import Phase, new_hand
from engine.cards import DECKS
from engine.hand import HandState
from engine.kernel import KERNEL, kernel_status
from engine.rng import shuffle
from engine.trickstate import deal_blocks, mask_of, shuffled_pack


def play_through_apply(state: HandState, rng: random.Random) -> None:
    while not state.is_terminal():
        legal = state.legal_actions
        state.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_a_finished_hand_is_freed_without_the_cycle_collector(variant: str) -> None:
    gc.collect()
    gc.disable()
    try:
        for seed in range(20):
            state = new_hand(variant, seed=seed, dealer=seed % 4)
            play_through_apply(state, random.Random(seed))
            state.result()
            del state
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_view_is_one_per_state_in_play_and_empty_once_the_hand_is_over() -> None:
    state = new_hand("single4", seed=11)
    view = state.legal_actions
    assert state.legal_actions is view
    play_through_apply(state, random.Random(11))
    assert state.phase is Phase.OVER
    assert len(view) == 0 and not view and list(view) == []
    assert len(state.legal_actions) == 0 and not state.legal_actions
    copied = state.copy()
    assert len(copied.legal_actions) == 0


@pytest.mark.parametrize("deck", ["single", "double"])
def test_the_pack_is_shuffled_as_the_named_generator_shuffles_it(deck: str) -> None:
    pack = [int(card) for card in DECKS[deck].cards()]
    for seed in (0, 1, 2**64 - 1, 123456789):
        assert list(shuffled_pack(deck, seed)) == shuffle(pack[:], seed)


def test_the_masks_of_a_deal_are_the_faces_held() -> None:
    state = new_hand("double4", seed=3)
    pack = list(shuffled_pack("double", 3))
    for counts in deal_blocks(pack, state.rules, 0):
        assert mask_of(counts) == sum(1 << face for face, count in enumerate(counts) if count)
    assert mask_of([0] * 24) == 0 and mask_of([4] * 24) == (1 << 24) - 1


@pytest.mark.skipif(KERNEL is None, reason=f"the C kernel is {kernel_status()}")
def test_the_kernel_deals_the_hands_the_python_shuffle_deals() -> None:
    for seed in range(50):
        state = new_hand("single4", seed=seed, dealer=seed % 4)
        pack = shuffle([int(card) for card in DECKS["single"].cards()], seed)
        hands = deal_blocks(pack, state.rules, seed % 4)
        assert [list(state.hand(seat)) for seat in range(4)] == [
            [face for face in range(24) for _ in range(counts[face])] for counts in hands
        ]
