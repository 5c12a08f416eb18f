"""The luck of a uniformly random decision has mean zero at every position (bots.aivat)."""

from __future__ import annotations

import random

import pytest

from bots.aivat import (
    GreedyRollout,
    bidding,
    contract_value,
    known_luck,
    luck_terms,
    reference_value,
)
from bots.table import BoardRecord, Move
from engine.registry import load_game


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
