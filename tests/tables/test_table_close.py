"""An app ends a table still in play (``table_close``), or stops it at a set time.

The hand is scored as a forfeit of the human's side, by the same forfeit as leaving it,
and every later action is refused with the reason, nothing changed. A table given a time
to play until refuses actions from that time on, before anything ends it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arena.models import Player
from tables import referee, services
from tables.errors import NotYourTurn, TableNotFound
from tables.models import PlayTable
from tests.tables.conftest import greedy_table, play_out

pytestmark = pytest.mark.django_db

REASON = "the tournament round is over"


def _legal(table: PlayTable) -> str:
    return str(services.hand_of(table).state.legal_actions[0])


def test_a_closed_table_is_the_forfeit_of_the_humans_side_as_leaving_it_is(
    alice: Player,
) -> None:
    first, second = (greedy_table(alice.user, human_seat=1) for _ in range(2))
    closed = services.table_close(table_id=first.pk, reason=REASON)
    left = services.table_abandon(table_id=second.pk, user=alice.user)
    hand = services.hand_of(closed)
    assert closed.status == PlayTable.Status.FINISHED and closed.result is not None
    assert closed.result["side_scores"] == referee.forfeit_scores(
        hand.game, hand.rules, 1, hand.state
    )
    assert left.result is not None
    assert closed.result["side_scores"] == left.result["side_scores"]
    assert closed.result["hand"] is None
    assert closed.result["fault"] == {"seat": 1, "kind": "closed", "reason": REASON}


def test_a_closed_table_refuses_every_action_with_its_reason(alice: Player) -> None:
    table = greedy_table(alice.user, human_seat=1)
    move, ply = _legal(table), table.ply
    services.table_close(table_id=table.pk, reason=REASON)
    table.refresh_from_db()
    before = (table.actions, table.result, table.updated)
    with pytest.raises(NotYourTurn, match=REASON):
        services.table_act(table_id=table.pk, user=alice.user, action=move, ply=ply)
    page = Client()
    page.force_login(alice.user)
    response = page.post(f"/play/tables/{table.pk}/act/", {"action": move, "ply": str(ply)})
    assert response.status_code == 409 and REASON in response.content.decode()
    assert "had not finished when the table was closed" in response.content.decode()
    with pytest.raises(NotYourTurn):
        services.table_abandon(table_id=table.pk, user=alice.user)
    table.refresh_from_db()
    assert (table.actions, table.result, table.updated) == before


def test_closing_a_hand_that_is_over_changes_nothing(alice: Player) -> None:
    table = play_out(greedy_table(alice.user, seed=9), alice.user)
    result = table.result
    with pytest.raises(NotYourTurn):
        services.table_close(table_id=table.pk, reason=REASON)
    table.refresh_from_db()
    assert table.result == result and table.status == PlayTable.Status.FINISHED
    with pytest.raises(TableNotFound):
        services.table_close(table_id=table.pk + 1000, reason=REASON)


def test_a_table_takes_no_action_once_its_time_to_play_is_up(alice: Player) -> None:
    table = greedy_table(alice.user, human_seat=1)
    move, ply = _legal(table), table.ply
    PlayTable.objects.filter(pk=table.pk).update(plays_until=timezone.now() - timedelta(seconds=1))
    with pytest.raises(NotYourTurn, match="ran out"):
        services.table_act(table_id=table.pk, user=alice.user, action=move, ply=ply)
    table.refresh_from_db()
    assert table.status == PlayTable.Status.PLAYING and table.ply == ply
    page = Client()
    page.force_login(alice.user)
    view = page.get(f"/api/play/tables/{table.pk}/").json()
    assert view["out_of_time"] is True and view["your_turn"] is False
    assert view["controls"] is None
    assert 'id="out-of-time"' in page.get(f"/play/tables/{table.pk}/").content.decode()
    # Its app then ends it, as a forfeit.
    services.table_close(table_id=table.pk, reason=REASON)
    table.refresh_from_db()
    assert table.result is not None and table.result["fault"]["kind"] == "closed"
