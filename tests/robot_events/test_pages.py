"""The robot event pages: the director's form, joining, the next board, travellers."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.models import Player
from robot_events import services
from robot_events.models import RobotEntry, RobotEvent
from tests.robot_events.conftest import play_board

pytestmark = pytest.mark.django_db


def _signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_the_director_creates_an_event_from_the_form(director: Player) -> None:
    client = _signed_in(director)
    assert client.get("/robots/new/").status_code == 200
    form = {
        "name": "Friday robots",
        "variant": "double4",
        "boards": "4",
        "robots": "random",
        "kind": "daylong",
        "scoring": "mp",
    }
    response = client.post("/robots/new/", form)
    event = RobotEvent.objects.get(name="Friday robots")
    assert response.status_code == 302 and response["Location"] == f"/robots/{event.pk}/"
    assert event.closes is not None and event.board_set.count() == 4
    bad = client.post("/robots/new/", {**form, "boards": "99"})
    assert bad.status_code == 400 and RobotEvent.objects.count() == 1


def test_a_player_without_the_permission_gets_no_form(field: list[Player]) -> None:
    assert _signed_in(field[0]).get("/robots/new/").status_code == 403
    assert "New event" not in _signed_in(field[0]).get("/robots/").content.decode()


def test_joining_from_the_page_once(event: RobotEvent, field: list[Player]) -> None:
    client = _signed_in(field[0])
    page = client.get(f"/robots/{event.pk}/").content.decode()
    assert 'id="join"' in page
    assert client.post(f"/robots/{event.pk}/join/").status_code == 302
    again = client.post(f"/robots/{event.pk}/join/")
    assert again.status_code == 409
    assert "joined this event already" in again.content.decode()
    assert RobotEntry.objects.count() == 1
    page = client.get(f"/robots/{event.pk}/").content.decode()
    assert "Play board 1" in page and 'id="join"' not in page


def test_a_played_board_links_its_traveller_in_an_instant_event(
    event: RobotEvent, field: list[Player]
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = play_board(entry, "greedy")
    client = _signed_in(field[0])
    page = client.get(f"/robots/{event.pk}/").content.decode()
    assert f"/robots/{event.pk}/boards/1/" in page
    assert f"/robots/{event.pk}/boards/2/" not in page
    assert "Play board 2" in page
    assert "(1 result so far)" in page
    traveller = client.get(f"/robots/{event.pk}/boards/1/").content.decode()
    assert f'<td class="num">{play.net}</td>' in traveller
    # Once Ben has played it too, Ann's line shows her matchpoints against his result.
    theirs = play_board(services.robot_entry_join(event=event, player=field[1]), "random")
    assert play.net is not None and theirs.net is not None
    mine = 2 if play.net > theirs.net else 1 if play.net == theirs.net else 0
    page = client.get(f"/robots/{event.pk}/").content.decode()
    assert f'<td class="num score">{float(mine)}</td>' in page
    assert "(2 results so far)" in page
    assert "par is shown when the event closes" in traveller


def test_after_the_close_the_traveller_shows_the_par(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play_board(entry, "greedy")
    services.robot_event_close(event=event, by=director)
    board = event.board_set.get(number=1)
    services.robot_board_par_compute(board_id=board.pk)
    board.refresh_from_db()
    traveller = Client().get(f"/robots/{event.pk}/boards/1/").content.decode()
    net = board.par_ns - board.par_ew  # type: ignore[operator]
    assert f"North-South {board.par_ns}, East-West {board.par_ew} (net {net})" in traveller
    verification = Client().get(f"/robots/{event.pk}/verification/").content.decode()
    assert event.secret in verification and "every board matches" in verification
