"""Closing an event ends the boards still in play: nothing is played after the hands open.

The close makes every board's traveller public, all four hands with it. A board still in
play at that moment is ended in the same transaction as the close, scored as its forfeit
(the entrant's side, exactly as if they had left), and its table refuses every later
action, by the API and by the page. Before the close nobody who may not see a board sees
its hands; a daylong event's tables stop at its published end, before the close job runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from arena.models import Player
from robot_events import play_tables, selectors, services, standings, tasks
from robot_events.models import RobotEntry, RobotEvent, RobotPlay
from tables import referee
from tables import services as play_services
from tables.models import PlayTable
from tests.robot_events.conftest import client_for, play_board

pytestmark = pytest.mark.django_db


def _page(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _hands(event: RobotEvent, director: Player, number: int) -> list[str]:
    """Board ``number``'s four hands as the traveller API lists them (the director sees
    every board at any time): what must reach nobody else before the close."""
    data: dict[str, Any] = (
        client_for(director).get(f"/api/robots/{event.pk}/boards/{number}/").json()
    )
    hands = [json.dumps(hand["cards"], separators=(",", ":")) for hand in data["hands"]]
    assert len(hands) == 4
    return hands


def _assert_nobody_sees_the_board(
    event: RobotEvent, players: list[Player | None], hands: list[str], table: PlayTable
) -> None:
    """The traveller is refused to each of ``players`` (page and API), and the table in
    play shows its owner neither its seed nor another seat's hand."""
    for player in players:
        api = client_for(player).get(f"/api/robots/{event.pk}/boards/1/")
        assert api.status_code == 403, player
        page = (_page(player) if player else Client()).get(f"/robots/{event.pk}/boards/1/")
        assert page.status_code == 403, player
        for body in (api.content.decode(), page.content.decode()):
            assert not any(hand in body for hand in hands)
    owner = Player.objects.get(user=table.owner)
    view = client_for(owner).get(f"/api/play/tables/{table.pk}/").json()
    assert view["seed"] is None and view["replay_url"] is None
    for body in (
        json.dumps(view),
        _page(owner).get(f"/play/tables/{table.pk}/").content.decode(),
        _page(owner).get(f"/play/tables/{table.pk}/replay/frames.json").content.decode(),
    ):
        assert str(table.seed) not in body
        assert not any(hand in body for hand in hands[:2] + hands[3:])


def _south_move(table: PlayTable) -> str:
    table.refresh_from_db()
    hand = play_services.hand_of(table)
    assert hand.current == table.human_seat, "the robots wait for South"
    return referee.reference_move(hand, table.human_seat, name="greedy", variant=table.variant)


def _assert_the_table_refuses_actions(
    owner: Player, table: PlayTable, refusal: str
) -> dict[str, Any]:
    """South's legal move is refused by the API and by the page (409, ``refusal`` said),
    and the table is as it was; the table as it stands."""
    table.refresh_from_db()
    before = (table.status, table.actions, table.result, table.updated)
    move = _south_move(table)
    api = client_for(owner).post(
        f"/api/play/tables/{table.pk}/actions/", {"action": move, "ply": table.ply}, format="json"
    )
    assert api.status_code == 409, api.content
    assert refusal in api.json()["detail"]
    page = _page(owner).post(
        f"/play/tables/{table.pk}/act/", {"action": move, "ply": str(table.ply)}
    )
    assert page.status_code == 409
    assert refusal in page.content.decode()
    table.refresh_from_db()
    assert (table.status, table.actions, table.result, table.updated) == before
    return {"status": table.status, "actions": table.actions, "result": table.result}


def _assert_the_forfeit_is_recorded_once(
    event: RobotEvent, entry: RobotEntry, table: PlayTable, others: dict[int, int]
) -> None:
    """The entrant's board is the table's forfeit, counted once in the standings, beside
    ``others`` (entry id -> net) played out on the same board."""
    table.refresh_from_db()
    hand = play_services.hand_of(table)
    forfeit = referee.forfeit_scores(hand.game, hand.rules, table.human_seat, hand.state)
    assert table.result is not None and table.result["side_scores"] == forfeit
    assert table.result["fault"]["kind"] == "closed" and table.result["hand"] is None
    play = RobotPlay.objects.get(entry=entry, board__number=1)
    assert [play.score_ns, play.score_ew] == forfeit
    assert play.result == {"outcome": "forfeit", "fault": {"seat": 2, "kind": "closed"}}
    # Recorded once: coming back to the event records nothing more.
    assert play_tables.entry_sync(entry=entry) == 0
    assert _page(entry.player).get(f"/robots/{event.pk}/").status_code == 200
    assert RobotPlay.objects.filter(entry=entry).count() == 1
    nets = {1: {**others, entry.pk: forfeit[0] - forfeit[1]}}
    expected = standings.standings(nets, scoring=event.scoring, variant=event.variant)
    lines = {line["entry"]: line for line in selectors.event_standings(event=event)}
    assert set(lines) == set(nets[1])
    for line in expected:
        assert lines[line.entrant]["boards"] == 1
        assert lines[line.entrant]["percentage"] == line.percentage
        assert lines[line.entrant]["matchpoints"] == line.matchpoints


@pytest.mark.parametrize("how", ["api", "page"])
def test_the_directors_close_ends_a_board_in_play_as_its_forfeit(
    event: RobotEvent, field: list[Player], director: Player, how: str
) -> None:
    ann, ben, cy = field
    ann_entry = services.robot_entry_join(event=event, player=ann)
    ben_board = play_board(services.robot_entry_join(event=event, player=ben), "greedy")
    services.robot_entry_join(event=event, player=cy)
    started = client_for(ann).post(f"/api/robots/{event.pk}/plays/")
    assert started.status_code == 201
    table = PlayTable.objects.get(pk=started.json()["table"])
    # Ann is at South's first turn of board 1: she has seen her own hand, nothing more.
    hands = _hands(event, director, 1)
    _assert_nobody_sees_the_board(event, [ann, cy, None], hands, table)

    if how == "api":
        closed = client_for(director).post(f"/api/robots/{event.pk}/close/")
        assert closed.status_code == 200
    else:
        assert _page(director).post(f"/robots/{event.pk}/close/").status_code == 302
    _assert_the_table_refuses_actions(ann, table, "closed")
    assert ben_board.net is not None
    others = {ben_board.entry_id: ben_board.net}
    _assert_the_forfeit_is_recorded_once(event, ann_entry, table, others)
    # The close shows everyone the hands and the forfeit, and nothing is left to play.
    traveller = client_for(cy).get(f"/api/robots/{event.pk}/boards/1/").json()
    rows = {row["entry"]: row for row in traveller["rows"]}
    assert rows[ann_entry.pk]["contract"]["outcome"] == "forfeit"
    assert not PlayTable.objects.filter(status=PlayTable.Status.PLAYING).exists()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[datetime]]:
    """The server's clock, which the test moves on (Django's ``timezone.now``)."""
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    yield now


def test_a_daylong_events_board_in_play_stops_at_its_end_and_the_close_job_forfeits_it(
    director: Player, field: list[Player], clock: list[datetime]
) -> None:
    ann, ben, cy = field
    event = services.robot_event_create(
        director=director,
        name="All day",
        variant="single4",
        boards=1,
        robots="greedy",
        kind="daylong",
        scoring="mp",
    )
    assert event.closes is not None
    ann_entry = services.robot_entry_join(event=event, player=ann)
    ben_board = play_board(services.robot_entry_join(event=event, player=ben), "greedy")
    services.robot_entry_join(event=event, player=cy)
    play = services.robot_play_start(entry=ann_entry)
    table = PlayTable.objects.get(pk=play.table_id)
    hands = _hands(event, director, 1)
    _assert_nobody_sees_the_board(event, [ann, ben, cy, None], hands, table)

    # The published end passes; the close job has not run yet. Nobody needs to act for it.
    clock[0] = event.closes + timedelta(seconds=1)
    _assert_the_table_refuses_actions(ann, table, "ran out")
    _assert_nobody_sees_the_board(event, [ann, ben, cy, None], hands, table)
    ben_table = client_for(cy).get(f"/api/play/tables/{ben_board.table_id}/")
    assert ben_table.status_code == 404

    assert tasks.events_close_due_task() == 1
    _assert_the_table_refuses_actions(ann, table, "closed")
    assert ben_board.net is not None
    others = {ben_board.entry_id: ben_board.net}
    _assert_the_forfeit_is_recorded_once(event, ann_entry, table, others)
    for player in (ann, ben, cy, None):
        assert client_for(player).get(f"/api/robots/{event.pk}/boards/1/").status_code == 200
    assert client_for(cy).get(f"/api/play/tables/{ben_board.table_id}/").status_code == 200


def test_a_board_finished_before_the_close_keeps_its_played_result(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    played = services.robot_play_start(entry=entry)
    table = PlayTable.objects.get(pk=played.table_id)
    while not table.is_over:
        play_services.table_act(
            table_id=table.pk, user=field[0].user, action=_south_move(table), ply=table.ply
        )
        table.refresh_from_db()
    services.robot_event_close(event=event, by=director)
    table.refresh_from_db()
    played.refresh_from_db()
    assert table.result is not None and table.result["fault"] is None
    assert [played.score_ns, played.score_ew] == table.result["side_scores"]
    assert played.result is not None and played.result["outcome"] != "forfeit"
