"""Leaving a hand that is going to be set scores no better than playing it out.

The position of the attack: in ``auction4`` (RULES.md 6) seats 1 and 3 raise each other
to 600, far beyond what their cards can make, and seat 3 declares. Played out, their
side is set (RULES.md 5: minus the bid) while the defenders add their meld and counters.
A leave or a fault at that point, at a human's table (``referee.forfeit_scores``) or in an
arena match (``bots.duplicate``), must compare no better for the leaver's side in the
duplicate difference (RULES.md 9) than the finishes of the hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.duplicate import table_result
from bots.table import BoardRecord, Fault, Move
from engine.registry import load_game
from tables import referee

VARIANT = "auction4"
GAME = load_game(VARIANT)
RULES = GAME.rules_for(None)
SEATING = GAME.seatings["A"]  # X at seats 0 and 2, Y at 1 and 3
BID = 600


def overbid_hand(seed: int) -> referee.Hand:
    """Seats 1 and 3 raise to ``BID``, seat 3 declares and plays on; the tricks begin."""
    hand = referee.rebuild(VARIANT, rules=None, seed=seed, dealer=0, actions=[])
    hand.apply("bid 260")  # seat 1
    hand.apply("pass")  # seat 2
    bid = 280
    hand.apply(f"bid {bid}")  # seat 3
    hand.apply("pass")  # seat 0
    while bid < BID:
        bid += 20
        hand.apply(f"bid {bid}")  # seats 1 and 3 in turn
    hand.apply("pass")  # seat 1 lets seat 3 have it
    assert hand.state.declarer == 3 and hand.state.bid == BID
    while hand.state.phase.value != "tricks":
        text = "play-on" if hand.state.phase.value == "throw_in" else None
        hand.apply(text or str(next(iter(hand.state.legal_actions))))
    return hand


def difference(scores: Any, side: int) -> int:
    return int(scores[side]) - int(scores[1 - side])


def finishes(hand: referee.Hand) -> list[tuple[int, ...]]:
    """Side scores of the hand played out: by the greedy reference bots at every seat,
    and at random."""
    played = referee.rebuild(VARIANT, rules=None, seed=hand.state.seed, dealer=0, actions=[])
    for text in hand.actions:
        played.apply(text)
    while (seat := played.current) is not None:
        played.apply(referee.reference_move(played, seat, name="greedy", variant=VARIANT))
    results = [tuple(played.state.result().team_scores)]
    for walk in range(8):
        copy = hand.state.copy()
        copy.play_randomly(random.Random(walk))
        results.append(tuple(copy.result().team_scores))
    return results


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_leaving_a_human_table_when_set_scores_no_better_than_playing_it_out(seed: int) -> None:
    hand = overbid_hand(seed)
    outcomes = finishes(hand)
    # The attack's premise: playing on, the declaring side is set.
    assert all(scores[1] == -BID for scores in outcomes)
    for leaver in (1, 3):
        forfeit = referee.forfeit_scores(hand.game, hand.rules, leaver, hand.state)
        assert forfeit[1] <= -BID
        assert all(difference(forfeit, 1) <= difference(scores, 1) for scores in outcomes)


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_bot_that_faults_when_set_scores_no_better_in_its_match_than_playing_it_out(
    seed: int,
) -> None:
    hand = overbid_hand(seed)
    moves = [Move(actor, text, 0.0) for actor, text in zip(hand.actors, hand.actions, strict=True)]
    faulted = BoardRecord(
        board=1, seed=seed, dealer=0, moves=moves, fault=Fault(1, "crash", "exited")
    )
    # Y (seats 1 and 3) faulted: X's table result must be at least what any finish gives X.
    forfeit = table_result(faulted, SEATING, GAME, RULES)
    for scores in finishes(hand):
        assert forfeit >= difference(scores, 0)
