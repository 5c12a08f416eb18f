"""Invariants over hundreds of random hands of each preset (RULES.md sections 2-5, 10).

Every random choice is seeded, so these tests are the same on every run.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    DOUBLE_DECK,
    SINGLE_DECK,
    HandOutcome,
    HandState,
    IllegalActionError,
    Replay,
    Suit,
    hand_from_cards,
    meld,
    new_hand,
    rules_for,
)
from engine.meld import MeldKind, meld_items, meld_total
from tests.engine.helpers import dealt_parts

PRESETS = ["single4", "auction4", "double4"]
TOTAL_IN_TRICKS = {"single4": 25, "auction4": 250, "double4": 50}
# At these counts every outcome that random play reaches in a preset comes up tens of
# times or more (auction4 in 200 hands at a 0.3 throw-in rate: 23 made, 108 set, 69 thrown
# in; double4 in 600: 49 without a marriage); each hand is a whole random playout, so more
# hands mostly repeat the same paths.
HANDS_PER_PRESET = 600

PROPERTY_SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)


def random_hand(variant: str, seed: int, *, throw_in_rate: float = 0.0) -> HandState:
    state = new_hand(variant, seed=seed, dealer=seed % 4)
    state.play_randomly(random.Random(seed), throw_in_rate=throw_in_rate)
    return state


SEEDS = st.integers(0, 2**64 - 1)


@pytest.mark.parametrize("variant", PRESETS)
@settings(max_examples=HANDS_PER_PRESET, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_4_counters_plus_last_trick_total_25_250_50_and_all_hands_end_empty(
    variant: str, seed: int
) -> None:
    state = new_hand(variant, seed=seed, dealer=seed % 4)
    state.play_randomly(random.Random(seed))
    result = state.result()
    if result.outcome is HandOutcome.NO_MARRIAGE:
        return
    assert sum(team.taken for team in result.teams) == TOTAL_IN_TRICKS[variant]
    assert sum(team.tricks for team in result.teams) == state.rules.hand_size
    assert sum(team.last_trick for team in result.teams) == state.rules.last_trick_bonus
    assert all(len(state.hand(seat)) == 0 for seat in range(4))
    assert state.observation(seed % 4)["hand_sizes"] == [0, 0, 0, 0]


@pytest.mark.parametrize("variant", PRESETS)
@PROPERTY_SETTINGS
@given(seed=SEEDS)
def test_5_scores_follow_the_outcome(variant: str, seed: int) -> None:
    state = random_hand(variant, seed, throw_in_rate=0.3)
    result = state.result()
    declaring = result.declaring_team
    assert declaring is not None and result.bid is not None
    defending = 1 - declaring
    declarers, defenders = result.teams[declaring], result.teams[defending]
    if result.outcome is HandOutcome.MADE:
        assert declarers.score == declarers.meld + declarers.taken >= result.bid
    else:
        assert declarers.score == -result.bid
    if result.outcome is HandOutcome.THROWN_IN:
        assert defenders.score == defenders.meld
    elif result.outcome is HandOutcome.NO_MARRIAGE:
        assert defenders.score == 0
    else:
        assert defenders.score == defenders.meld + defenders.taken
    json.dumps(result.to_json())


@pytest.mark.parametrize("variant", PRESETS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**64 - 1), choices=st.integers(0, 2**32))
def test_10_every_state_before_the_end_has_a_legal_action_and_replays_exactly(
    variant: str, seed: int, choices: int
) -> None:
    rng = random.Random(choices)
    state = new_hand(variant, seed=seed, dealer=choices % 4)
    while not state.is_terminal():
        legal = state.legal_actions
        assert len(legal) >= 1
        action = legal[rng.randrange(len(legal))] if len(legal) < 200 else next(iter(legal))
        assert action in legal
        state.apply(action)
    replay = Replay.from_json(json.loads(json.dumps(Replay.from_state(state).to_json())))
    assert replay.verify() is None
    assert replay.simulate().result() == state.result()


@pytest.mark.parametrize("variant", PRESETS)
def test_10_a_random_playout_replays_exactly_through_apply(variant: str) -> None:
    for seed in range(200):
        state = random_hand(variant, seed, throw_in_rate=0.2)
        again = new_hand(variant, seed=seed, dealer=seed % 4)
        for action in state.history:
            again.apply(str(action))
        assert again.result() == state.result()
        assert again.observation(seed % 4) == state.observation(seed % 4)


@pytest.mark.parametrize("variant", PRESETS)
@PROPERTY_SETTINGS
@given(
    seed=SEEDS,
    seat=st.integers(0, 3),
    calls=st.integers(0, 6),
    permutation=st.randoms(use_true_random=False),
)
def test_10_during_the_auction_any_permutation_of_hidden_cards_is_invisible(
    variant: str, seed: int, seat: int, calls: int, permutation: random.Random
) -> None:
    state = new_hand(variant, seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    for _ in range(calls):
        legal = state.legal_actions
        if state.phase.value != "auction":
            break
        state.apply(legal[rng.randrange(len(legal))])
    dealt = dealt_parts(state)
    hidden = [int(card) for other in range(4) if other != seat for card in dealt[other]]
    permutation.shuffle(hidden)
    hands: list[list[int]] = []
    for other in range(4):
        if other == seat:
            hands.append(list(map(int, dealt[seat])))
        else:
            size = state.rules.hand_size
            hands.append(hidden[:size])
            hidden = hidden[size:]
    other_state = hand_from_cards(variant, hands, dealer=state.dealer, rules=state.rules)
    for action in state.history:
        other_state.apply(action)
    if state.phase.value == "auction":
        assert other_state.observation(seat) == state.observation(seat)


@pytest.mark.parametrize("variant", PRESETS)
def test_10_an_observation_does_not_change_when_hidden_cards_are_permuted(
    variant: str,
) -> None:
    rules = rules_for(variant)
    checked = 0
    for seed in range(250):
        rng = random.Random(seed)
        original = new_hand(variant, seed=seed, dealer=seed % 4)
        full = original.copy()
        full.play_randomly(rng)
        depth = rng.randrange(len(full.history) + 1)
        actions = full.history[:depth]
        for action in actions:
            original.apply(action)
        seat = rng.randrange(4)
        dealt = [list(part) for part in dealt_parts(original)]
        others = [s for s in range(4) if s != seat]
        for _ in range(6):
            p, q = rng.sample(others, 2)
            held_p = [c for c in set(dealt[p]) if c in original.hand(p) and c not in dealt[q]]
            held_q = [c for c in set(dealt[q]) if c in original.hand(q) and c not in dealt[p]]
            if not held_p or not held_q:
                continue
            x, y = rng.choice(sorted(held_p)), rng.choice(sorted(held_q))
            swapped = [list(hand) for hand in dealt]
            swapped[p][swapped[p].index(x)] = y
            swapped[q][swapped[q].index(y)] = x
            other = hand_from_cards(variant, swapped, dealer=original.dealer, rules=rules)
            try:
                for action in actions:
                    other.apply(action)
            except IllegalActionError:
                continue
            seen, alternative = original.observation(seat), other.observation(seat)
            if seen["melds"] != alternative["melds"] or seen["phase"] != alternative["phase"]:
                # The swap is not hidden: the meld shown, or the hand ending because the
                # declarer holds no marriage, makes it public.
                continue
            assert alternative == seen
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", PRESETS)
def test_10_an_observation_never_holds_another_seats_cards(variant: str) -> None:
    for seed in range(100):
        state = new_hand(variant, seed=seed)
        observation = state.observation(seed % 4)
        assert observation["hand"] == [str(card) for card in state.hand(seed % 4)]
        text = json.dumps(observation)
        assert "hands" not in observation and "dealt" not in text


@pytest.mark.parametrize("variant", PRESETS)
def test_copy_is_independent_and_illegal_actions_change_nothing(variant: str) -> None:
    for seed in range(25):
        rng = random.Random(seed)
        state = new_hand(variant, seed=seed)
        while not state.is_terminal():
            before = [state.observation(s) for s in range(4)]
            snapshot = state.copy()
            illegal = [
                text
                for text in ("pass", "play AS", "play 9C", "bid 16", "trump S", "play-on")
                if text not in {str(a) for a in state.legal_actions}
            ]
            for text in illegal:
                with pytest.raises(IllegalActionError):
                    state.apply(text)
            assert [state.observation(s) for s in range(4)] == before
            legal = list(state.legal_actions)
            snapshot.apply(legal[rng.randrange(len(legal))])
            assert [state.observation(s) for s in range(4)] == before
            state = snapshot


SUITS = list(Suit)


def _hands(deck_copies: tuple[int, ...], size: int) -> st.SearchStrategy[list[int]]:
    pack = [face for face, count in enumerate(deck_copies) for _ in range(count)]
    return st.lists(
        st.sampled_from(range(len(pack))), min_size=size, max_size=size, unique=True
    ).map(lambda positions: [pack[i] for i in positions])


def _relabel(hand: list[int], permutation: list[int]) -> list[int]:
    return [permutation[face // 6] * 6 + face % 6 for face in hand]


def _without_pinochle(cards: list[int], trump: int, variant: str) -> int:
    result = meld(cards, trump, rules_for(variant))
    return sum(item.value for item in result.items if item.kind is not MeldKind.PINOCHLE)


@PROPERTY_SETTINGS
@given(
    hand=_hands(SINGLE_DECK.copies, 12),
    trump=st.sampled_from(SUITS),
    permutation=st.permutations(range(4)),
    variant=st.sampled_from(["single4", "auction4"]),
)
def test_3_meld_is_unchanged_when_suits_are_relabelled_with_trump(
    hand: list[int], trump: Suit, permutation: list[int], variant: str
) -> None:
    moved = _relabel(hand, list(permutation))
    assert _without_pinochle(hand, trump, variant) == _without_pinochle(
        moved, permutation[trump], variant
    )


@PROPERTY_SETTINGS
@given(hand=_hands(DOUBLE_DECK.copies, 20), trump=st.sampled_from(SUITS), swap=st.booleans())
def test_3_meld_total_is_unchanged_when_hearts_and_clubs_swap(
    hand: list[int], trump: Suit, swap: bool
) -> None:
    # Spades and diamonds hold the pinochle, so only hearts and clubs may trade places.
    permutation = [0, 3, 2, 1] if swap else [0, 1, 2, 3]
    rules = rules_for("double4")
    assert (
        meld(hand, trump, rules).total
        == meld(_relabel(hand, permutation), permutation[trump], rules).total
    )


@pytest.mark.parametrize("variant", PRESETS)
def test_a_copy_taken_mid_hand_plays_on_exactly_like_the_original(variant: str) -> None:
    for seed in range(60):
        state = new_hand(variant, seed=seed)
        full = state.copy()
        full.play_randomly(random.Random(seed))
        for action in full.history[: seed % len(full.history)]:
            state.apply(action)
        copied = state.copy()
        state.play_randomly(random.Random(-seed))
        copied.play_randomly(random.Random(-seed))
        assert copied.history == state.history
        assert copied.result() == state.result()


@PROPERTY_SETTINGS
@given(
    hand=st.one_of(_hands(SINGLE_DECK.copies, 12), _hands(DOUBLE_DECK.copies, 20)),
    trump=st.sampled_from(SUITS),
    run_includes_marriage=st.booleans(),
)
def test_3_the_fast_meld_total_equals_the_sum_of_the_meld_items(
    hand: list[int], trump: Suit, run_includes_marriage: bool
) -> None:
    variant = "single4" if len(hand) == 12 else "double4"
    rules = rules_for(variant, {"run_includes_marriage": run_includes_marriage})
    counts = [hand.count(face) for face in range(24)]
    items = meld_items(counts, trump, rules.meld_values)
    assert meld_total(counts, trump, rules.meld_values) == sum(item.value for item in items)
