"""No board's results, traveller or hands reach an entrant who has not played it.

Ann plays both boards of an instant event and Ben only board 1. Every page and every API
answer Ben can fetch is searched for what only board 2 shows: its four hands (as the
traveller page draws them, and as the API lists their cards) and Ann's result rows on it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from arena.models import Player
from leagues.robots import services
from leagues.robots.models import RobotEvent, RobotPlay
from tests.leagues.robots.conftest import PASSWORD, client_for, play_board

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


def _board_two_markers(event: RobotEvent, director: Player) -> tuple[list[str], list[str]]:
    """What only board 2 shows: HTML fragments of its page, JSON fragments of its API."""
    page = Client()
    page.force_login(director.user)
    html = page.get(f"/robots/{event.pk}/boards/2/").content.decode()
    hands = re.findall(r'<div class="hand seat-\w+">.*?</div>', html, flags=re.S)
    rows = re.findall(r"<tr data-entry=.*?</tr>", html, flags=re.S)
    assert len(hands) == 4 and len(rows) == 1
    data: dict[str, Any] = client_for(director).get(f"/api/robots/{event.pk}/boards/2/").json()
    api = [_compact(hand["cards"]) for hand in data["hands"]]
    api += [_compact(row) for row in data["rows"]]
    return hands + rows, api


def test_an_entrant_sees_nothing_of_a_board_they_have_not_played(
    half_played: RobotEvent, field: list[Player], director: Player
) -> None:
    event = half_played
    html_markers, api_markers = _board_two_markers(event, director)
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
    play_board(ann_entry, "greedy")
    # In a daylong event even the entrant who played it waits for the close.
    for player in (field[0], field[1], None):
        response = client_for(player).get(f"/api/robots/{event.pk}/boards/1/")
        assert response.status_code == 403
    services.robot_event_close(event=event, by=director)
    for player in (field[0], field[1], None):
        response = client_for(player).get(f"/api/robots/{event.pk}/boards/1/")
        assert response.status_code == 200
        assert len(response.json()["rows"]) == 1
