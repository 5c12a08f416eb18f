"""A human who bid too high and leaves scores no better than by playing the hand out.

The attack: under house rules of ``auction4`` that let a bid jump (RULES.md 6,
``max_raise_rungs`` unset), the human bids 600 at once, far beyond the cards, and leaves
once the tricks begin. Played out, the human's side is set (RULES.md 5: minus the bid)
and the bots add their meld and counters. The board's duplicate difference (RULES.md 9:
the human's side minus the other) after ``table_abandon`` must be no better than after
finishing the same hand.
"""

from __future__ import annotations

import random

import pytest

from arena.models import Player
from engine.rules import pinochle_rules
from tables import services
from tables.models import PlayTable
from tests.tables.conftest import play_out

pytestmark = pytest.mark.django_db

HOUSE_RULES = pinochle_rules("auction4").replace(max_raise_rungs=None).to_json()
BID = 600


def overbid_table(player: Player, seed: int) -> PlayTable:
    """The human at seat 1 (first to bid) bids ``BID`` and plays to the first trick."""
    table = services.table_start(
        owner=player.user,
        variant="auction4",
        seed=seed,
        dealer=0,
        human_seat=1,
        bots=[{"kind": "reference", "name": "greedy"}] * 3,
        rules=HOUSE_RULES,
    )
    services.table_act(table_id=table.pk, user=player.user, action=f"bid {BID}", ply=table.ply)
    while True:
        table.refresh_from_db()
        hand = services.hand_of(table)
        if hand.state.phase.value == "tricks" or hand.current != 1:
            return table
        legal = [str(action) for action in hand.state.legal_actions]
        action = "play-on" if "play-on" in legal else legal[0]
        services.table_act(table_id=table.pk, user=player.user, action=action, ply=table.ply)


@pytest.mark.parametrize("seed", [3, 8])
def test_leaving_a_hand_about_to_be_set_scores_no_better_than_playing_it_out(
    alice: Player, seed: int
) -> None:
    left = overbid_table(alice, seed)
    hand = services.hand_of(left)
    assert (hand.state.declarer, hand.state.bid) == (1, BID)
    services.table_abandon(table_id=left.pk, user=alice.user)
    left.refresh_from_db()
    leaving = left.result["side_scores"]
    for walk in range(4):
        played = play_out(overbid_table(alice, seed), alice.user, rng=random.Random(walk))
        scores = played.result["side_scores"]
        assert scores[1] == -BID  # the premise: played out, the human's side is set
        assert leaving[1] - leaving[0] <= scores[1] - scores[0]
