"""Invariants over random hands of every Pinnacolo variant (RULES.md sections 8 and 10).

Every random choice is seeded (hypothesis derandomized, ``random.Random(seed)``), so
these tests are the same on every run.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pinnacolo import (
    PINNACOLO_PRESETS,
    Add,
    Discard,
    MeldCards,
    PinnacoloAction,
    PinnacoloReplay,
    Replace,
    Take,
    hand_from_cards,
    new_hand,
    parse_action,
    parse_card,
    pinnacolo_rules,
)
from engine.pinnacolo.cards import NUM_FACES, PACK
from engine.pinnacolo.melds import add_options, meld_options

VARIANTS = st.sampled_from(sorted(PINNACOLO_PRESETS))
SEEDS = st.integers(0, 2**64 - 1)
FAST = settings(max_examples=12, deadline=None, derandomize=True)


def _dealer(variant: str, seed: int) -> int:
    return seed % PINNACOLO_PRESETS[variant].players


@FAST
@given(variant=VARIANTS, seed=SEEDS)
def test_every_card_is_accounted_for_and_every_listed_action_is_legal(
    variant: str, seed: int
) -> None:
    state = new_hand(variant, seed=seed, dealer=_dealer(variant, seed))
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = list(state.legal_actions)
        assert legal, "a player always has a legal action"
        for action in rng.sample(legal, min(4, len(legal))):
            assert action in state.legal_actions
            assert parse_action(str(action)) == action
        state.apply(str(rng.choice(legal)))
        assert state.card_count() == 104
        assert (
            sum(state.hand_sizes)
            + state.stock_size
            + len(state.pile)
            + sum(len(meld.cards) for meld in state.melds)
            == 104
        )


@settings(max_examples=40, deadline=None, derandomize=True)
@given(variant=VARIANTS, seed=SEEDS)
def test_random_hands_end_and_replay_to_the_same_result(variant: str, seed: int) -> None:
    state = new_hand(variant, seed=seed, dealer=_dealer(variant, seed))
    state.play_randomly(random.Random(seed))
    assert state.is_terminal()
    # Every turn draws from the stock or lays a card taken from the pile for good.
    assert len(state.history) < 2000
    replay = PinnacoloReplay.from_json(json.loads(PinnacoloReplay.from_state(state).dumps()))
    assert replay.verify() is None
    again = new_hand(variant, seed=seed, dealer=_dealer(variant, seed))
    again.play_randomly(random.Random(seed))
    assert again.history == state.history
    assert again.result() == state.result()
    sides = state.result().side_scores
    assert len(sides) == (2 if variant == "pinnacolo" else PINNACOLO_PRESETS[variant].players)


@FAST
@given(variant=VARIANTS, seed=SEEDS, stop=st.integers(0, 200))
def test_observations_do_not_change_when_hidden_cards_are_permuted(
    variant: str, seed: int, stop: int
) -> None:
    state = new_hand(variant, seed=seed, dealer=_dealer(variant, seed))
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        legal = state.legal_actions
        state.apply(legal[rng.randrange(len(legal))])
    for seat in range(state.num_players):
        seen = state.observation(seat)
        json.dumps(seen)
        other = state.determinize(seat, random.Random(seed + seat))
        assert other.observation(seat) == seen
        assert other.card_count() == 104
        assert sorted(seen["hand"]) == sorted(state.hand(seat))


def test_a_replay_of_an_explicit_deal_verifies_and_a_changed_result_does_not() -> None:
    state = hand_from_cards("pinnacolo2", ["AS KS", "5H 6H 7H 8S 8D 8C"], pile="KD", stock="9C")
    for text in ("draw", "meld 5H 6H 7H", "meld 8S 8D 8C", "discard 9C"):
        state.apply(text)
    data = PinnacoloReplay.from_state(state).to_json()
    assert PinnacoloReplay.from_json(data).verify() is None
    data["result"]["side_scores"] = [0, 0]
    difference = PinnacoloReplay.from_json(data).verify()
    assert difference is not None and difference.path.startswith("result.side_scores")


@FAST
@given(variant=VARIANTS, seed=SEEDS, stop=st.integers(0, 300), wilds=st.sampled_from([1, 2]))
def test_in_agrees_with_the_listed_actions_on_legal_and_illegal_candidates(
    variant: str, seed: int, stop: int, wilds: int
) -> None:
    # Candidates: the listed actions, and melds, additions, replacements, discards and
    # takes built from the current hand widened by a few random cards (mostly illegal).
    rules = pinnacolo_rules(variant, {"wilds_per_meld": wilds})
    state = new_hand(variant, seed=seed, dealer=_dealer(variant, seed), rules=rules)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        legal = state.legal_actions
        state.apply(legal[rng.randrange(len(legal))])
    if state.is_terminal():
        return
    seat = state.current_player
    assert seat is not None
    counts = [0] * NUM_FACES
    for name in state.hand(seat):
        counts[parse_card(name)] += 1
    for face in rng.sample(PACK, 6):
        counts[face] += 1
    size = sum(counts)
    candidates: list[PinnacoloAction] = list(state.legal_actions)
    candidates += [MeldCards(cards) for cards in meld_options(counts, size, max_wilds=wilds)]
    for index, meld in enumerate(state.melds):
        candidates += [Add(index, cards) for cards in add_options(meld, counts, size, wilds)]
        candidates += [Replace(index, face) for face in range(NUM_FACES) if counts[face]]
    candidates += [Discard(face) for face in range(NUM_FACES)]
    candidates += [Take(depth) for depth in range(1, len(state.pile) + 2)]
    listed = set(state.legal_actions)
    for action in candidates:
        assert (action in state.legal_actions) == (action in listed), str(action)


@FAST
@given(
    variant=VARIANTS,
    seed=SEEDS,
    taken_card=st.sampled_from(["always", "below_top"]),
    replaced_wild_melded=st.booleans(),
    empty_stock=st.sampled_from(["draw_ends", "last_card_ends"]),
    no_meld_penalty=st.sampled_from(["flat", "double_hand"]),
    wilds_per_meld=st.sampled_from([1, 2]),
)
def test_every_rule_setting_plays_to_an_end_that_replays(
    variant: str,
    seed: int,
    taken_card: str,
    replaced_wild_melded: bool,
    empty_stock: str,
    no_meld_penalty: str,
    wilds_per_meld: int,
) -> None:
    rules = pinnacolo_rules(
        variant,
        {
            "taken_card": taken_card,
            "replaced_wild_melded": replaced_wild_melded,
            "empty_stock": empty_stock,
            "no_meld_penalty": no_meld_penalty,
            "wilds_per_meld": wilds_per_meld,
        },
    )
    state = new_hand(variant, seed=seed, dealer=_dealer(variant, seed), rules=rules)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions
        listed = list(legal)
        assert listed
        for action in rng.sample(listed, min(3, len(listed))):
            assert action in legal
        state.apply(listed[rng.randrange(len(listed))])
        assert state.card_count() == 104
    assert PinnacoloReplay.from_json(PinnacoloReplay.from_state(state).dumps()).verify() is None
