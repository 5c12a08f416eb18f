"""Leaving never pays: a forfeit scores the leaving side no better, and every other side
no worse, than any way the hand could still be finished (``engine.forfeit``).

From random reachable positions of every registered variant, each seat in turn leaves;
the forfeit is compared with finishes of the hand: random ones, and the two extreme ones
where every player takes the first or the last legal action (the last bid in an auction
is the highest). Small pinochle endgames are finished in every possible way. The rules
the bounds come from: RULES.md 2 (the auction and its ladder), 3 (meld), 4 (the counters
and the last trick), 5 (made, set, throw-in, no marriage), 7.1 (two-hand meld and dix),
7.2 (the widow and the bury), 8 (Pinnacolo's hand score) and 9 (the duplicate
difference).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.forfeit import ScoreBounds, forfeit_scores, score_bounds
from engine.interface import AnyGame
from engine.meld import meld_total
from engine.pinochle_forfeit import meld_bound
from engine.registry import load_game, variant_names
from engine.trickstate import Phase

VARIANTS = sorted(variant_names())
PINNACOLO = [variant for variant in variant_names() if variant.startswith("pinnacolo")]
PINOCHLE = [variant for variant in variant_names() if variant not in PINNACOLO]
LONGEST = 3_000
"""Steps after which an extreme finish is given up: always taking the first action of a
Pinnacolo turn may draw from the pile and discard it back for ever."""


def position(game: AnyGame, seed: int, walk: int, fraction: float) -> Any:
    """A reachable position: the hand dealt from ``seed`` after random legal actions, as
    far as ``fraction`` of a random finish of the same hand went."""
    length = game.new_initial_state(seed=seed, dealer=seed % game.players)
    length.play_randomly(random.Random(walk))
    steps = int(len(length.history) * fraction)
    state = game.new_initial_state(seed=seed, dealer=seed % game.players)
    rng = random.Random(walk + 1)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = list(state.legal_actions)
        state.apply(legal[rng.randrange(len(legal))])
    return state


def extreme_finish(state: Any, last: bool) -> Any | None:
    """The hand finished with every player taking its first (or last) legal action."""
    state = state.copy()
    for _ in range(LONGEST):
        if state.is_terminal():
            return state
        legal = list(state.legal_actions)
        state.apply(legal[-1] if last else legal[0])
    return None


def finishes(state: Any, randoms: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
    """The side scores of some finishes of the hand at ``state``."""
    for _ in range(randoms):
        copy = state.copy()
        copy.play_randomly(rng)
        yield tuple(copy.result().team_scores)
    for last in (False, True):
        done = extreme_finish(state, last)
        if done is not None:
            yield tuple(done.result().team_scores)


def every_finish(state: Any) -> Iterator[tuple[int, ...]]:
    """The side scores of every way the hand at ``state`` can be finished."""
    if state.is_terminal():
        yield tuple(state.result().team_scores)
        return
    for action in list(state.legal_actions):
        child = state.copy()
        child.apply(action)
        yield from every_finish(child)


def assert_leaving_never_pays(game: AnyGame, state: Any, scores: tuple[int, ...]) -> None:
    """For each seat leaving: its side at most ``scores``, every other side at least, and
    so the duplicate difference (the leaver's side minus the others, section 9) at most
    the finish's."""
    for seat in range(game.players):
        forfeit = game.forfeit_scores(state, seat)
        side = game.side_of(seat)
        assert forfeit[side] <= scores[side], (seat, forfeit, scores)
        others = [other for other in range(len(scores)) if other != side]
        assert all(forfeit[other] >= scores[other] for other in others), (seat, forfeit, scores)
        difference = forfeit[side] - sum(forfeit[other] for other in others) / len(others)
        assert difference <= scores[side] - sum(scores[other] for other in others) / len(others)


PINOCHLE_POSITIONS = settings(max_examples=150, deadline=None, derandomize=True)
PINNACOLO_POSITIONS = settings(max_examples=25, deadline=None, derandomize=True)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FRACTIONS = st.floats(min_value=0.0, max_value=1.0)


@pytest.mark.parametrize("variant", PINOCHLE)
@PINOCHLE_POSITIONS
@given(seed=SEEDS, walk=SEEDS, fraction=FRACTIONS)
def test_a_pinochle_forfeit_is_no_better_for_the_leaver_than_any_finish_sampled(
    variant: str, seed: int, walk: int, fraction: float
) -> None:
    game = load_game(variant)
    state = position(game, seed, walk, fraction)
    for scores in finishes(state, 6, random.Random(walk)):
        assert_leaving_never_pays(game, state, scores)


@pytest.mark.parametrize("variant", PINNACOLO)
@PINNACOLO_POSITIONS
@given(seed=SEEDS, walk=SEEDS, fraction=FRACTIONS)
def test_a_pinnacolo_forfeit_is_no_better_for_the_leaver_than_any_finish_sampled(
    variant: str, seed: int, walk: int, fraction: float
) -> None:
    game = load_game(variant)
    state = position(game, seed, walk, fraction)
    for scores in finishes(state, 3, random.Random(walk)):
        assert_leaving_never_pays(game, state, scores)


ENDGAME_CARDS = {"single4": 8, "auction4": 8, "double4": 8, "cutthroat3": 9, "twohand": 8}
"""At most this many cards left in the hands: few enough to play out every way."""


def endgame(game: AnyGame, seed: int, walk: int) -> Any | None:
    """A position of the trick play with few cards left, if the random hand gets there."""
    state = game.new_initial_state(seed=seed, dealer=seed % game.players)
    rng = random.Random(walk)
    limit = ENDGAME_CARDS[game.variant]
    while not state.is_terminal():
        cards = sum(len(state.hand(seat)) for seat in range(game.players))
        if state.phase in (Phase.TRICKS, Phase.PLAY_OUT) and cards <= limit:
            return state
        legal = list(state.legal_actions)
        state.apply(legal[rng.randrange(len(legal))])
    return None


@pytest.mark.parametrize("variant", PINOCHLE)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=SEEDS, walk=SEEDS)
def test_a_forfeit_in_a_small_endgame_is_no_better_than_every_possible_finish(
    variant: str, seed: int, walk: int
) -> None:
    game = load_game(variant)
    state = endgame(game, seed, walk)
    if state is None:
        return
    outcomes = set(every_finish(state))
    bounds = score_bounds(state)
    for side in range(len(game.teams)):
        assert bounds.low[side] <= min(scores[side] for scores in outcomes)
        assert bounds.high[side] >= max(scores[side] for scores in outcomes)
    for scores in outcomes:
        assert_leaving_never_pays(game, state, scores)


@pytest.mark.parametrize("variant", variant_names())
@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=SEEDS, walk=SEEDS, fraction=FRACTIONS)
def test_the_bounds_without_a_position_hold_at_every_position(
    variant: str, seed: int, walk: int, fraction: float
) -> None:
    game = load_game(variant)
    state = position(game, seed, walk, fraction)
    here = score_bounds(state)
    anywhere = game.worst_case_bounds()
    assert all(low >= worst for low, worst in zip(here.low, anywhere.low, strict=True))
    assert all(high <= worst for high, worst in zip(here.high, anywhere.high, strict=True))
    assert game.forfeit_scores(None, 0) == anywhere.forfeit({0})


@pytest.mark.parametrize("variant", variant_names())
def test_a_finished_hand_is_bounded_by_its_own_result(variant: str) -> None:
    game = load_game(variant)
    state = game.new_initial_state(seed=11, dealer=0)
    state.play_randomly(random.Random(11))
    scores = tuple(state.result().team_scores)
    assert score_bounds(state) == ScoreBounds(scores, scores)
    assert forfeit_scores(state, 0) == scores


def test_late_in_a_hand_the_forfeit_is_close_to_what_the_hand_still_holds() -> None:
    # RULES.md 4-5: with the meld shown and the last trick to play, the others can gain
    # only the counters of that trick and the last-trick bonus; the leaver keeps its
    # contract's worst (set) or, defending, nothing.
    game = load_game("auction4")
    state = game.new_initial_state(seed=5, dealer=0)
    rng = random.Random(5)
    while not (state.phase is Phase.TRICKS and len(state.hand(0)) == 1 and state.current_player):
        if state.is_terminal():
            pytest.fail("the hand ended before its last trick")
        legal = list(state.legal_actions)
        state.apply(legal[rng.randrange(len(legal))])
    view = state.observation(0)
    bounds = score_bounds(state)
    left = game.rules.total_in_tricks - sum(view["counters_taken"])
    assert left <= 4 * 10 + 10
    for side, seats in enumerate(game.teams):
        meld = sum(entry["total"] for entry in view["melds"] if entry["seat"] in seats)
        assert bounds.high[side] == meld + view["counters_taken"][side] + left


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=SEEDS, trump=st.integers(min_value=0, max_value=3))
def test_the_meld_bound_covers_any_split_of_the_cards_between_partners(
    variant: str, seed: int, trump: int
) -> None:
    # RULES.md 3.2: each hand melds on its own, a card once in each class; two partners'
    # meld, however the passing (2.4) shares their cards, is at most the bound of both.
    rules = load_game(variant).rules
    state = load_game(variant).new_initial_state(seed=seed, dealer=0)
    cards = [int(card) for seat in (0, 2) for card in state.hand(seat)]
    random.Random(seed).shuffle(cards)
    half = len(cards) // 2
    first, second = meld_counts(cards[:half]), meld_counts(cards[half:])
    shown = meld_total(first, trump, rules.meld_values) + meld_total(
        second, trump, rules.meld_values
    )
    assert shown <= meld_bound(meld_counts(cards), trump, rules.meld_values)


def meld_counts(cards: list[int]) -> list[int]:
    counts = [0] * 24
    for face in cards:
        counts[face] += 1
    return counts
