"""An action racing with the event's close lands before it and counts, or is refused.

South's last card and the director's close are sent at the same moment. Either the card
lands first, the hand is played out and its result is recorded, or the close ends the
table first and the card is refused: never a card applied to a closed table, never a
played-out hand scored as a forfeit, never a board recorded twice.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from arena.models import Player
from robot_events import services
from robot_events.models import RobotEvent, RobotPlay
from tables import referee
from tables import services as play_services
from tables.errors import NotYourTurn
from tables.models import PlayTable

pytestmark = pytest.mark.django_db(transaction=True)


def _finishing(table: PlayTable, move: str) -> bool:
    """Whether South's ``move`` ends the hand (the robots answer within the same action)."""
    hand = play_services.hand_of(table)
    hand.apply(move)
    referee.reference_turns(hand, play_services.seats_of(table), variant=table.variant)
    return hand.state.is_terminal()


def _south_move(table: PlayTable) -> str:
    hand = play_services.hand_of(table)
    assert hand.current == table.human_seat, "the robots wait for South"
    return referee.reference_move(hand, table.human_seat, name="greedy", variant=table.variant)


def test_a_last_card_racing_with_the_close_lands_first_or_is_refused(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serializes every write anyway")
    ann = field[0]
    play = services.robot_play_start(entry=services.robot_entry_join(event=event, player=ann))
    table = PlayTable.objects.get(pk=play.table_id)
    # Play up to South's last card.
    while not _finishing(table, move := _south_move(table)):
        play_services.table_act(table_id=table.pk, user=ann.user, action=move, ply=table.ply)
        table.refresh_from_db()
    before = list(table.actions)
    barrier = threading.Barrier(2)
    outcome: dict[str, object] = {}

    def act() -> None:
        try:
            barrier.wait()
            play_services.table_act(table_id=table.pk, user=ann.user, action=move, ply=len(before))
            outcome["act"] = "landed"
        except NotYourTurn as refused:
            outcome["act"] = refused.message
        except BaseException as error:  # reported below, in the test's thread
            outcome["act"] = error
        finally:
            connection.close()

    def close() -> None:
        try:
            barrier.wait()
            services.robot_event_close(event=RobotEvent.objects.get(pk=event.pk), by=director)
            outcome["close"] = "closed"
        except BaseException as error:
            outcome["close"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=act), threading.Thread(target=close)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcome["close"] == "closed"
    table.refresh_from_db()
    play.refresh_from_db()
    assert table.result is not None and play.finished is not None
    assert [play.score_ns, play.score_ew] == table.result["side_scores"]
    assert RobotPlay.objects.filter(entry=play.entry).count() == 1
    if outcome["act"] == "landed":
        # The card came first: the hand was played out and its own result counts.
        assert table.actions[: len(before) + 1] == [*before, move]
        assert table.result["fault"] is None and play.result is not None
        assert play.result["outcome"] != "forfeit"
    else:
        # The close came first: the card changed nothing and the board is the forfeit.
        assert isinstance(outcome["act"], str) and "closed" in outcome["act"]
        assert table.actions == before
        assert table.result["fault"]["kind"] == "closed"
        assert play.result == {"outcome": "forfeit", "fault": {"seat": 2, "kind": "closed"}}
