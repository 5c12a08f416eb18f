"""A human's table through its services: refereed by the engine, one ply at a time."""

from __future__ import annotations

import pytest

from arena.models import Player
from tables import services
from tables.errors import BadTable, IllegalAction, NotYourTurn, StalePly, TableNotFound
from tables.models import PlayTable
from tests.tables.conftest import greedy_table, play_out

pytestmark = pytest.mark.django_db


def test_bots_move_up_to_the_humans_first_turn(alice: Player) -> None:
    table = greedy_table(alice.user, human_seat=3)
    hand = services.hand_of(table)
    # RULES.md section 2.2: the auction starts left of the dealer (seat 1), so seats 1 and 2
    # have bid before the human at seat 3 is asked.
    assert table.ply == 2
    assert hand.current == 3
    assert table.status == PlayTable.Status.PLAYING


def test_a_whole_hand_ends_with_the_engines_result(alice: Player) -> None:
    table = play_out(greedy_table(alice.user), alice.user)
    hand = services.hand_of(table)
    assert table.status == PlayTable.Status.FINISHED
    assert table.result["side_scores"] == list(hand.state.result().team_scores)
    assert services.side_score(table, seat=0) == table.result["side_scores"][0]
    assert services.side_score(table, seat=2) == table.result["side_scores"][0]


def test_a_stale_ply_is_refused_and_changes_nothing(alice: Player) -> None:
    table = greedy_table(alice.user, human_seat=1)
    legal = [str(a) for a in services.hand_of(table).state.legal_actions]
    services.table_act(table_id=table.pk, user=alice.user, action=legal[0], ply=table.ply)
    table.refresh_from_db()
    before = list(table.actions)
    with pytest.raises(StalePly):
        # The same submit again, answering the ply that was already answered.
        services.table_act(table_id=table.pk, user=alice.user, action=legal[0], ply=0)
    table.refresh_from_db()
    assert table.actions == before


def test_an_illegal_card_is_refused_with_the_rule_it_breaks(alice: Player) -> None:
    # RULES.md section 4 (must_follow): a player holding the led suit must play it.
    table = greedy_table(alice.user, "single4", human_seat=0, seed=3)
    hand = services.hand_of(table)
    while hand.current is not None:
        trick = hand.state.observation(0)["trick"]["cards"]
        if hand.current == 0 and trick:
            led = trick[0][-1]
            mine = list(hand.state.observation(0)["hand"])
            off = [c for c in mine if c[-1] != led]
            if any(c[-1] == led for c in mine) and off:
                break
        legal = [str(a) for a in hand.state.legal_actions]
        services.table_act(table_id=table.pk, user=alice.user, action=legal[0], ply=hand.ply)
        table.refresh_from_db()
        hand = services.hand_of(table)
    else:
        pytest.skip("this deal never left the human a card off the suit led")
    table.refresh_from_db()
    before = list(table.actions)
    with pytest.raises(IllegalAction) as refused:
        services.table_act(
            table_id=table.pk, user=alice.user, action=f"play {off[0]}", ply=table.ply
        )
    assert refused.value.rule == "must_follow"
    table.refresh_from_db()
    assert table.actions == before


def test_only_the_owner_acts_and_only_on_their_turn(alice: Player, bob: Player) -> None:
    table = greedy_table(alice.user, human_seat=1)
    with pytest.raises(TableNotFound):
        services.table_act(table_id=table.pk, user=bob.user, action="pass", ply=table.ply)
    finished = play_out(greedy_table(alice.user, seed=9), alice.user)
    with pytest.raises(NotYourTurn):
        services.table_act(table_id=finished.pk, user=alice.user, action="pass", ply=finished.ply)


def test_a_bad_table_names_what_is_wrong(alice: Player) -> None:
    with pytest.raises(BadTable, match="no reference bot 'strong'"):
        greedy_table(alice.user, "pinnacolo3", bot="strong")
    with pytest.raises(BadTable, match="human_seat"):
        greedy_table(alice.user, human_seat=4)
    assert not PlayTable.objects.exists()
