"""No board's results, traveller or hands reach an entrant who has not played it.

Ann plays both boards of an instant event and Ben only board 1. Every page and every API
answer Ben can fetch is searched for what only board 2 shows: its four hands (as the
traveller page draws them, and as the API lists their cards) and Ann's result rows on it.

A board left at once is not played: a second account that starts board 1 and leaves it
sees no hand of the other seats, from the traveller, its own table or anyone else's, until
the event closes. Every answer it can fetch is searched for the faces the other three seats
hold that its own seat never saw.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from arena.models import Player
from robot_events import services
from robot_events.models import RobotEvent, RobotPlay
from tables import services as play_services
from tables.models import PlayTable
from tables.referee import Hand
from tests.cards import card_tokens
from tests.robot_events.conftest import PASSWORD, client_for, play_board

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|csrftoken=)"?[^"; ]+')

pytestmark = pytest.mark.django_db


@pytest.fixture
def half_played(event: RobotEvent, field: list[Player]) -> RobotEvent:
    ann, ben, _ = field
    ann_entry = services.robot_entry_join(event=event, player=ann)
    play_board(ann_entry, "strong")
    play_board(ann_entry, "strong")
    play_board(services.robot_entry_join(event=event, player=ben), "random")
    return event


def _compact(value: Any) -> str:
    """JSON as the API renders it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _board_markers(
    event: RobotEvent, director: Player, number: int = 2, rows: int = 1, but: int | None = None
) -> tuple[list[str], list[str]]:
    """What only board ``number`` shows: HTML fragments of its page (the four hands and
    ``rows`` result rows), JSON fragments of its API; seat ``but``'s hand left out (the
    viewer's own)."""
    page = Client()
    page.force_login(director.user)
    html = page.get(f"/robots/{event.pk}/boards/{number}/").content.decode()
    hands = re.findall(r'<div class="hand seat-\w+">.*?</div>', html, flags=re.S)
    found = re.findall(r"<tr data-entry=.*?</tr>", html, flags=re.S)
    assert len(hands) == 4 and len(found) == rows
    data: dict[str, Any] = (
        client_for(director).get(f"/api/robots/{event.pk}/boards/{number}/").json()
    )
    api = [_compact(hand["cards"]) for hand in data["hands"]]
    if but is not None:
        del hands[but], api[but]
    api += [_compact(row) for row in data["rows"]]
    return hands + found, api


def test_an_entrant_sees_nothing_of_a_board_they_have_not_played(
    half_played: RobotEvent, field: list[Player], director: Player
) -> None:
    event = half_played
    html_markers, api_markers = _board_markers(event, director)
    ben = field[1]
    ann_table = RobotPlay.objects.get(entry__player=field[0], board__number=2).table_id
    ben_table = RobotPlay.objects.get(entry__player=ben, board__number=1).table_id
    browser = Client()
    assert browser.login(username=ben.user.username, password=PASSWORD)
    pages = [
        "/robots/",
        f"/robots/{event.pk}/",
        f"/robots/{event.pk}/standings/live/",
        f"/robots/{event.pk}/boards/1/",
        f"/robots/{event.pk}/boards/2/",
        f"/robots/{event.pk}/verification/",
        f"/play/tables/{ben_table}/",
        f"/play/tables/{ann_table}/",
        f"/play/tables/{ann_table}/state/",
        f"/play/tables/{ann_table}/replay/",
        f"/play/tables/{ann_table}/replay/frames.json",
    ]
    statuses = {}
    for url in pages:
        response = browser.get(url)
        statuses[url] = response.status_code
        body = response.content.decode()
        for marker in html_markers:
            assert marker not in body, url
    assert statuses[f"/robots/{event.pk}/boards/2/"] == 403
    assert statuses[f"/robots/{event.pk}/boards/1/"] == 200
    assert statuses[f"/play/tables/{ben_table}/"] == 200
    # Ben played board 1 to the end: his own table shows its deal, as its traveller does.
    assert browser.get(f"/play/tables/{ben_table}/replay/").status_code == 200
    assert statuses[f"/play/tables/{ann_table}/"] == 404
    api = client_for(ben)
    for url in [
        "/api/robots/",
        f"/api/robots/{event.pk}/",
        f"/api/robots/{event.pk}/plays/",
        f"/api/robots/{event.pk}/standings/",
        f"/api/robots/{event.pk}/boards/1/",
        f"/api/robots/{event.pk}/boards/2/",
        f"/api/robots/{event.pk}/verification/",
    ]:
        response = api.get(url)
        statuses[url] = response.status_code
        body = response.content.decode()
        for marker in api_markers:
            assert marker not in body, url
    assert statuses[f"/api/robots/{event.pk}/boards/2/"] == 403
    # The same markers are found where they may be: the check can fail.
    ann = client_for(field[0]).get(f"/api/robots/{event.pk}/boards/2/").content.decode()
    assert all(marker in ann for marker in api_markers)
    ann_page = Client()
    ann_page.force_login(field[0].user)
    html = ann_page.get(f"/robots/{event.pk}/boards/2/").content.decode()
    assert all(marker in html for marker in html_markers)


def test_nobody_who_has_not_played_sees_a_board_of_a_daylong_event_before_it_closes(
    director: Player, field: list[Player]
) -> None:
    event = services.robot_event_create(
        director=director,
        name="All day",
        variant="single4",
        boards=1,
        robots="greedy",
        kind="daylong",
        scoring="mp",
    )
    ann_entry = services.robot_entry_join(event=event, player=field[0])
    table_id = play_board(ann_entry, "greedy").table_id
    # In a daylong event even the entrant who played it waits for the close, and their own
    # table's seed and replay, which show every hand, wait with the traveller.
    for player in (field[0], field[1], None):
        response = client_for(player).get(f"/api/robots/{event.pk}/boards/1/")
        assert response.status_code == 403
    own = client_for(field[0]).get(f"/api/play/tables/{table_id}/").json()
    assert own["status"] == "finished" and own["seed"] is None and own["sealed"]
    page = Client()
    page.force_login(field[0].user)
    assert page.get(f"/play/tables/{table_id}/replay/").status_code == 404
    services.robot_event_close(event=event, by=director)
    for player in (field[0], field[1], None):
        response = client_for(player).get(f"/api/robots/{event.pk}/boards/1/")
        assert response.status_code == 200
        assert len(response.json()["rows"]) == 1
    own = client_for(field[0]).get(f"/api/play/tables/{table_id}/").json()
    assert own["seed"] == event.board_set.get(number=1).seed and own["sealed"] is None


def _hidden_faces(hand: Hand, seat: int) -> set[str]:
    """Faces the other seats hold that ``seat`` has neither held nor seen played or shown."""
    known = set(card_tokens(hand.state.observation(seat)))
    known |= set(card_tokens([text for _, text in hand.heard_by(seat)]))
    others: set[str] = set()
    for other in range(hand.game.players):
        if other != seat:
            others.update(str(card) for card in hand.state.hand(other))
    return others - known


def _bodies(client: Client, api: Any, urls: list[str]) -> dict[str, tuple[int, str]]:
    """Each URL's status and body, pages by ``client`` and ``/api/`` ones by ``api``."""
    out = {}
    for url in urls:
        response = (api if url.startswith("/api/") else client).get(url)
        out[url] = (response.status_code, CSRF.sub("", response.content.decode()))
    return out


def test_a_board_left_at_once_shows_no_hand_to_the_account_that_left_it(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    ann, ben, cy = field
    services.robot_entry_join(event=event, player=ann)  # the main account, still to play
    cy_board = play_board(services.robot_entry_join(event=event, player=cy), "greedy")
    # Ben, a second account: joins, starts board 1 and leaves the table at once.
    api = client_for(ben)
    assert api.post(f"/api/robots/{event.pk}/entries/").status_code == 201
    table_id = api.post(f"/api/robots/{event.pk}/plays/").json()["table"]
    browser = Client()
    assert browser.login(username=ben.user.username, password=PASSWORD)
    assert browser.post(f"/play/tables/{table_id}/abandon/").status_code == 302
    table = PlayTable.objects.get(pk=table_id)
    assert table.status == PlayTable.Status.ABANDONED
    hidden = _hidden_faces(play_services.hand_of(table), table.human_seat)
    assert hidden, "at the deal the other seats hold faces South has not seen"
    assert browser.get(f"/robots/{event.pk}/").status_code == 200  # records the board
    html_markers, api_markers = _board_markers(event, director, number=1, rows=2, but=2)
    urls = [
        "/robots/",
        f"/robots/{event.pk}/",
        f"/robots/{event.pk}/standings/live/",
        f"/robots/{event.pk}/boards/1/",
        f"/robots/{event.pk}/verification/",
        f"/play/tables/{table_id}/",
        f"/play/tables/{table_id}/state/",
        f"/play/tables/{table_id}/replay/",
        f"/play/tables/{table_id}/replay/frames.json",
        f"/play/tables/{cy_board.table_id}/",
        f"/play/tables/{cy_board.table_id}/replay/",
        f"/play/tables/{cy_board.table_id}/replay/frames.json",
        f"/api/robots/{event.pk}/",
        f"/api/robots/{event.pk}/plays/",
        f"/api/robots/{event.pk}/standings/",
        f"/api/robots/{event.pk}/boards/1/",
        f"/api/robots/{event.pk}/verification/",
        "/api/play/tables/",
        f"/api/play/tables/{table_id}/",
        f"/api/play/tables/{cy_board.table_id}/",
    ]
    seen = _bodies(browser, api, urls)
    for url, (_, body) in seen.items():
        assert not set(card_tokens(body)) & hidden, url
        assert str(table.seed) not in body and event.secret not in body, url
        assert not any(marker in body for marker in html_markers + api_markers), url
    assert seen[f"/robots/{event.pk}/boards/1/"][0] == 403
    assert seen[f"/api/robots/{event.pk}/boards/1/"][0] == 403
    assert seen[f"/play/tables/{table_id}/"][0] == 200
    assert seen[f"/play/tables/{table_id}/replay/"][0] == 404
    assert seen[f"/play/tables/{cy_board.table_id}/replay/"][0] == 404
    assert seen[f"/api/play/tables/{table_id}/"][0] == 200
    own = json.loads(seen[f"/api/play/tables/{table_id}/"][1])
    assert own["seed"] is None and own["replay_url"] is None and own["sealed"]
    # Ben's board is recorded as the forfeit it scores, and opened nothing.
    play = RobotPlay.objects.get(entry__player=ben, board__number=1)
    assert play.result == {"outcome": "forfeit", "fault": {"seat": 2, "kind": "abandoned"}}

    # The close shows everyone everything: the same search now finds the hands.
    services.robot_event_close(event=event, by=director)
    after = _bodies(browser, api, urls)
    assert set(card_tokens(after[f"/api/robots/{event.pk}/boards/1/"][1])) & hidden
    assert set(card_tokens(after[f"/play/tables/{table_id}/replay/frames.json"][1])) & hidden
    assert all(marker in after[f"/robots/{event.pk}/boards/1/"][1] for marker in html_markers)
    assert str(table.seed) in after[f"/play/tables/{table_id}/"][1]
    assert after[f"/play/tables/{cy_board.table_id}/replay/"][0] == 200
