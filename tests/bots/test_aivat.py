"""The luck of a uniformly random decision has mean zero at every position (bots.aivat)."""

from __future__ import annotations

import math
import random
import statistics
from typing import Any

import pytest

import bots.aivat
from bots.aivat import (
    CARD_PLAYOUTS,
    CardPlayouts,
    GreedyRollout,
    bidding,
    contract_value,
    known_luck,
    luck_terms,
    reference_value,
)
from bots.table import BoardRecord, Move
from engine import kernel
from engine.registry import load_game
from engine.trickstate import Phase

needs_kernel = pytest.mark.skipif(kernel.KERNEL is None, reason="the C kernel is not built")


@pytest.fixture(scope="module")
def rollout() -> GreedyRollout:
    game = load_game("auction4")
    return GreedyRollout(game, game.rules_for({}))


def _greedy_record(rollout: GreedyRollout, seed: int, dealer: int) -> BoardRecord:
    """A table where the greedy bot played every seat, move by move."""
    game = rollout.game
    state = game.with_rules(rollout.rules).new_initial_state(seed=seed, dealer=dealer)
    record = BoardRecord(board=1, seed=seed, dealer=dealer)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = [str(action) for action in state.legal_actions]
        action = rollout.bots[seat].act(state.observation(seat), legal)
        record.moves.append(Move(seat, action, 0.0))
        state.apply(game.parse_action(action))
    record.result = state.result()
    return record


def test_the_luck_of_every_possible_choice_averages_to_zero(rollout: GreedyRollout) -> None:
    # Unbiasedness rests on this: at a position where a uniformly random seat acts, the
    # corrections of all the actions it could take add up to zero, whatever the values.
    game = rollout.game
    record = _greedy_record(rollout, seed=5, dealer=0)
    # The first card seat 1 plays with more than one legal card.
    state = game.with_rules(rollout.rules).new_initial_state(seed=5, dealer=0)
    position = None
    for index, move in enumerate(record.moves):
        legal = list(state.legal_actions)
        if position is None and move.seat == 1 and move.action.startswith("play"):
            position = index if len(legal) > 1 else None
        state.apply(game.parse_action(move.action))
    assert position is not None
    state = game.with_rules(rollout.rules).new_initial_state(seed=5, dealer=0)
    for move in record.moves[:position]:
        state.apply(game.parse_action(move.action))
    choices = [str(action) for action in state.legal_actions]
    lucks = []
    for choice in choices:
        prefix = BoardRecord(board=1, seed=5, dealer=0, moves=[*record.moves[:position]])
        prefix.moves.append(Move(1, choice, 0.0))
        lucks.append(
            known_luck(
                prefix,
                rollout=rollout,
                uniform_seats={1},
                samples=1,
                exhaustive=64,
                rng=random.Random(0),
            )
            - _earlier_luck(rollout, record.moves[:position])
        )
    assert sum(lucks) == pytest.approx(0.0, abs=1e-9)
    assert any(abs(luck) > 0 for luck in lucks)  # the choice did matter


def _earlier_luck(rollout: GreedyRollout, moves: list[Move]) -> float:
    prefix = BoardRecord(board=1, seed=5, dealer=0, moves=list(moves))
    return known_luck(
        prefix, rollout=rollout, uniform_seats={1}, samples=1, exhaustive=64, rng=random.Random(0)
    )


def test_a_table_with_no_uniform_seat_has_no_luck_and_the_reference_is_the_greedy_score(
    rollout: GreedyRollout,
) -> None:
    record = _greedy_record(rollout, seed=3, dealer=2)
    assert (
        known_luck(
            record, rollout=rollout, uniform_seats=(), samples=2, exhaustive=8, rng=random.Random(1)
        )
        == 0.0
    )
    scores = record.result.team_scores
    assert reference_value(rollout, seed=3, dealer=2) == scores[0] - scores[1]


def _luck_of_every_choice(
    rollout: GreedyRollout, record: BoardRecord, seat: int, wanted: str
) -> list[tuple[float, float]]:
    """``luck_terms`` of the table cut at seat's first decision of kind ``wanted`` (with three
    to 16 legal actions: a later decision with more is left out), once for every action it
    could take there, less the luck of the decisions before it."""
    game = rollout.game
    state = game.with_rules(rollout.rules).new_initial_state(seed=record.seed, dealer=record.dealer)
    position = None
    for index, move in enumerate(record.moves):
        legal = len(state.legal_actions)
        if move.seat == seat and 2 < legal <= 16 and (wanted == "bid") == bidding(state):
            position = index
            break
        state.apply(game.parse_action(move.action))
    assert position is not None
    prefix = record.moves[:position]

    def luck(moves: list[Move]) -> tuple[float, float]:
        cut = BoardRecord(board=1, seed=record.seed, dealer=record.dealer, moves=moves)
        return luck_terms(cut, rollout=rollout, uniform_seats={seat}, rng=random.Random(4))

    before = luck(prefix)
    return [
        (after[0] - before[0], after[1] - before[1])
        for after in (
            luck([*prefix, Move(seat, str(choice), 0.0)]) for choice in state.legal_actions
        )
    ]


@pytest.mark.parametrize(("kind", "seed", "seat"), [("bid", 11, 2), ("play", 1, 1)])
def test_both_luck_terms_average_to_zero_over_every_possible_choice(
    rollout: GreedyRollout, kind: str, seed: int, seat: int
) -> None:
    # The exact expectation of each term at a uniformly random decision, over every action
    # the seat could take: zero, so the corrected board result keeps its mean.
    record = _greedy_record(rollout, seed=seed, dealer=seed % 4)
    lucks = _luck_of_every_choice(rollout, record, seat=seat, wanted=kind)
    auction, later = zip(*lucks, strict=True)
    assert sum(auction) == pytest.approx(0.0, abs=1e-9)
    assert sum(later) == pytest.approx(0.0, abs=1e-9)
    # The decision is counted in its own term only, and it did matter there.
    mine, other = (auction, later) if kind == "bid" else (later, auction)
    assert any(abs(luck) > 0 for luck in mine)
    assert all(luck == 0 for luck in other)


def test_a_contract_is_worth_its_bid_to_a_greedy_declarer_and_costs_a_random_one_it(
    rollout: GreedyRollout,
) -> None:
    record = _greedy_record(rollout, seed=3, dealer=2)
    state = rollout.game.with_rules(rollout.rules).new_initial_state(seed=3, dealer=2)
    for move in record.moves:
        state.apply(rollout.game.parse_action(move.action))
        if not bidding(state):
            break
    declarer = record.result.declarer
    bid = float(record.result.bid)
    ours = 1.0 if declarer % 2 == 0 else -1.0
    assert contract_value(rollout, state, uniform_seats=()) == ours * bid
    assert contract_value(rollout, state, uniform_seats={declarer}) == -ours * bid


def _cut(record: BoardRecord, moves: list[Move]) -> BoardRecord:
    return BoardRecord(board=1, seed=record.seed, dealer=record.dealer, moves=moves)


@needs_kernel
def test_a_card_of_the_tricks_is_valued_by_kernel_playouts_on_one_seed_for_every_card(
    rollout: GreedyRollout, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every card a uniform seat could play is valued on the same draws (common random
    # numbers): the corrections of the choices add up to zero, and a forced card, whose
    # only choice is its own mean, adds nothing.
    game = rollout.game
    record = _greedy_record(rollout, seed=1, dealer=1)
    state = game.with_rules(rollout.rules).new_initial_state(seed=1, dealer=1)
    decision = forced = None
    for index, move in enumerate(record.moves):
        in_tricks = move.seat == 1 and state.phase is Phase.TRICKS
        if in_tricks and decision is None and len(state.legal_actions) > 2:
            decision, position = index, state.copy()
        elif in_tricks and decision is not None and len(state.legal_actions) == 1:
            forced = index
            break
        state.apply(game.parse_action(move.action))
    assert decision is not None and forced is not None
    # The tricks' cards never reach the whole-hand rollouts: the kernel values them.
    whole_hand = bots.aivat._action_value

    def no_cards(rollout: GreedyRollout, state: Any, *args: Any) -> float:
        assert state.phase is not Phase.TRICKS
        return whole_hand(rollout, state, *args)

    monkeypatch.setattr(bots.aivat, "_action_value", no_cards)

    def luck(moves: list[Move], rng: random.Random | None = None) -> tuple[float, float]:
        chance = random.Random(4) if rng is None else rng
        return luck_terms(_cut(record, moves), rollout=rollout, uniform_seats={1}, rng=chance)

    prefix = record.moves[:decision]
    rng = random.Random(4)
    before = luck(prefix, rng)
    seed = rng.getrandbits(32)  # the decision's one draw, after those of the moves before it
    playouts = CardPlayouts(position, {1})
    legal = list(position.legal_actions)
    values = [playouts.value(choice, seed, CARD_PLAYOUTS) for choice in legal]
    mean = sum(values) / len(values)
    corrections = []
    for choice, value in zip(legal, values, strict=True):
        after = luck([*prefix, Move(1, str(choice), 0.0)])
        assert after[0] == before[0]  # a card is no luck of the auction
        assert after[1] - before[1] == pytest.approx(value - mean, abs=1e-9)
        corrections.append(after[1] - before[1])
    assert sum(corrections) == pytest.approx(0.0, abs=1e-9)
    assert len(set(values)) > 1  # the choice did matter
    assert luck(record.moves[: forced + 1]) == luck(record.moves[:forced])


@needs_kernel
def test_the_kernel_valued_luck_of_greedy_against_random_tables_tracks_their_results() -> None:
    # Greedy seats 0/2 against uniformly random seats 1/3 on a fixed set of deals: every
    # luck term is a finite number, the tricks' term moves with the result, and the
    # result less both terms spreads less than the result.
    game = load_game("auction4")
    rollout = GreedyRollout(game, game.rules_for({}))
    results, auction, cards = [], [], []
    for seed in range(16):
        state = game.with_rules(rollout.rules).new_initial_state(seed=seed, dealer=seed % 4)
        record = BoardRecord(board=1, seed=seed, dealer=seed % 4)
        chance = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            legal = [str(action) for action in state.legal_actions]
            if seat % 2:
                action = legal[chance.randrange(len(legal))]
            else:
                action = rollout.bots[seat].act(state.observation(seat), legal)
            record.moves.append(Move(seat, action, 0.0))
            state.apply(game.parse_action(action))
        scores = state.result().team_scores
        terms = luck_terms(record, rollout=rollout, uniform_seats={1, 3}, rng=random.Random(seed))
        assert all(math.isfinite(term) for term in terms)
        results.append(float(scores[0] - scores[1]))
        auction.append(terms[0])
        cards.append(terms[1])
    assert statistics.correlation(results, cards) > 0
    corrected = [r - a - c for r, a, c in zip(results, auction, cards, strict=True)]
    assert statistics.pvariance(corrected) < statistics.pvariance(results)
