"""The Django admin of robot events, plays and timetables: everything that follows from an
event's secret (the secret, the boards' seeds, the pars, a play's contract) stays off its
pages until the event is closed, as on the verification page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django_celery_beat.models import PeriodicTask

from arena.models import Player
from arena.seeding import match_seed
from robot_events import services
from robot_events.models import RobotEvent, RobotPlay, RobotSchedule
from tests.robot_events.conftest import play_board

pytestmark = pytest.mark.django_db


def admin_client() -> Client:
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-9-long!")
    client = Client()
    client.force_login(root)
    return client


def admin_pages(client: Client, event: RobotEvent, play: RobotPlay) -> list[str]:
    urls = [
        "/admin/robots/robotevent/",
        f"/admin/robots/robotevent/{event.pk}/change/",
        "/admin/robots/robotplay/",
        f"/admin/robots/robotplay/{play.pk}/change/",
    ]
    pages = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        pages.append(response.content.decode())
    return pages


def revealing(event: RobotEvent) -> list[str]:
    """Everything that would let a reader compute or guess the event's deals."""
    boards = list(event.board_set.all())
    return [event.secret, str(match_seed(bytes.fromhex(event.secret)))] + [
        str(board.seed) for board in boards
    ]


def test_the_secret_and_the_seeds_stay_off_the_admin_until_the_close(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = play_board(entry, "greedy")
    assert play.result is not None and play.result.get("bid") is not None
    contract = f"&#x27;bid&#x27;: {play.result['bid']}"
    client = admin_client()
    for page in admin_pages(client, event, play):
        for value in revealing(event):
            assert value not in page
        assert contract not in page
    assert "sealed until the event is closed" in admin_pages(client, event, play)[1]

    services.robot_event_close(event=event, by=director)
    event.refresh_from_db()
    shown = admin_pages(client, event, play)
    assert event.secret in shown[1]
    for board in event.board_set.all():
        assert str(board.seed) in shown[1]
    assert contract in shown[3]


def test_the_admin_adds_nothing_and_changes_no_deal(event: RobotEvent) -> None:
    client = admin_client()
    assert client.get("/admin/robots/robotevent/add/").status_code == 403
    assert client.get("/admin/robots/robotplay/add/").status_code == 403
    assert client.get("/admin/robots/robotschedule/add/").status_code == 403
    before = (event.variant, event.boards, event.commitment)
    response = client.post(
        f"/admin/robots/robotevent/{event.pk}/change/",
        {
            "name": "Renamed",
            "variant": "double4",
            "boards": 9,
            "board_set-TOTAL_FORMS": "0",
            "board_set-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert event.name == "Renamed" and (event.variant, event.boards, event.commitment) == before


def test_deleting_a_timetable_removes_its_beat_task(director: Player) -> None:
    schedule = services.robot_schedule_create(
        director=director,
        name="Nightly",
        variant="single4",
        boards=2,
        robots="greedy",
        kind="daylong",
        scoring="mp",
        hour=20,
    )
    client = admin_client()
    page = client.get(f"/admin/robots/robotschedule/{schedule.pk}/change/")
    assert page.status_code == 200 and "Nightly" in page.content.decode()
    response = client.post(f"/admin/robots/robotschedule/{schedule.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not RobotSchedule.objects.exists()
    assert not PeriodicTask.objects.filter(name__startswith="robot schedule").exists()
