"""The robot event API: who may do what, and bad input answered 4xx with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from celery import current_app

from arena.models import Player
from robot_events import tasks
from robot_events.models import RobotBoard, RobotEntry, RobotEvent, RobotPlay
from tests.robot_events.conftest import client_for, play_table

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "Evening robots",
    "variant": "auction4",
    "boards": 3,
    "robots": "strong",
    "kind": "instant",
    "scoring": "imp",
}


def _counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (RobotEvent, RobotBoard, RobotEntry, RobotPlay))


def test_a_director_creates_an_event_with_its_commitment(director: Player) -> None:
    response = client_for(director).post("/api/robots/", GOOD, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    event = RobotEvent.objects.get(pk=body["id"])
    assert body["commitment"] == event.commitment and len(event.commitment) == 64
    assert event.secret not in response.content.decode()
    assert body["status"] == "open" and event.board_set.count() == 3


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"variant": "cutthroat3"}, "variant"),
        ({"boards": 0}, "boards"),
        ({"boards": 37}, "boards"),
        ({"boards": "two"}, "boards"),
        ({"robots": "genius"}, "robots"),
        ({"kind": "weekly"}, "kind"),
        ({"scoring": "bam"}, "scoring"),
        ({"name": ""}, "name"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(
    director: Player, change: dict[str, Any], field: str
) -> None:
    before = _counts()
    response = client_for(director).post("/api/robots/", {**GOOD, **change}, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert _counts() == before


def test_a_player_without_the_permission_cannot_create(field: list[Player]) -> None:
    response = client_for(field[0]).post("/api/robots/", GOOD, format="json")
    assert response.status_code == 403
    assert "director" in response.json()["detail"]
    assert client_for(None).post("/api/robots/", GOOD, format="json").status_code == 401
    assert RobotEvent.objects.count() == 0


def test_joining_twice_is_a_conflict(event: RobotEvent, field: list[Player]) -> None:
    api = client_for(field[0])
    assert api.post(f"/api/robots/{event.pk}/entries/").status_code == 201
    again = api.post(f"/api/robots/{event.pk}/entries/")
    assert again.status_code == 409
    assert "joined this event already" in again.json()["detail"]
    assert RobotEntry.objects.count() == 1


def test_joining_answers_the_entry_the_document_describes(
    event: RobotEvent, field: list[Player]
) -> None:
    # The join was documented as answering a board's play, and answered {id, event}: a client
    # built from the document looked for a board and a table that were never there.
    response = client_for(field[0]).post(f"/api/robots/{event.pk}/entries/")
    assert response.status_code == 201
    entry = RobotEntry.objects.get()
    assert response.json() == {
        "id": entry.pk,
        "event": event.pk,
        "player": "Ann",
        "joined": response.json()["joined"],
        "plays_url": f"/api/robots/{event.pk}/plays/",
    }
    document = client_for(None).get("/api/schema/?format=json").json()
    answer = document["paths"]["/api/robots/{event_id}/entries/"]["post"]["responses"]["201"]
    reference = answer["content"]["application/json"]["schema"]["$ref"]
    schema = document["components"]["schemas"][reference.rsplit("/", 1)[1]]
    assert set(schema["properties"]) == set(response.json())


def test_boards_are_started_in_order_and_never_twice(
    event: RobotEvent, field: list[Player]
) -> None:
    api = client_for(field[0])
    api.post(f"/api/robots/{event.pk}/entries/")
    first = api.post(f"/api/robots/{event.pk}/plays/")
    assert first.status_code == 201 and first.json()["board"] == 1
    # Asking again while board 1 is in play gives board 1 back, not board 2.
    assert api.post(f"/api/robots/{event.pk}/plays/").json()["id"] == first.json()["id"]
    assert first.json()["table_url"] == f"/play/tables/{first.json()['table']}/"
    play_table(RobotPlay.objects.get(pk=first.json()["id"]), "greedy")
    # The finished table is recorded when its entrant asks for the next board.
    assert api.post(f"/api/robots/{event.pk}/plays/").json()["board"] == 2
    play_table(RobotPlay.objects.get(entry__player=field[0], board__number=2), "greedy")
    done = api.post(f"/api/robots/{event.pk}/plays/")
    assert done.status_code == 409
    assert "every board" in done.json()["detail"]
    assert RobotPlay.objects.count() == 2
    mine = api.get(f"/api/robots/{event.pk}/plays/").json()
    assert [p["board"] for p in mine] == [1, 2]


def test_playing_without_joining_is_refused(event: RobotEvent, field: list[Player]) -> None:
    response = client_for(field[0]).post(f"/api/robots/{event.pk}/plays/")
    assert response.status_code == 403
    assert RobotPlay.objects.count() == 0


def test_a_malformed_table_result_is_refused(event: RobotEvent, field: list[Player]) -> None:
    from arena.errors import InvalidInput
    from robot_events import services

    entry = services.robot_entry_join(event=event, player=field[0])
    play = services.robot_play_start(entry=entry)
    with pytest.raises(InvalidInput):
        services.robot_play_finish(play=play, scores=[1, "x"], hand=None)  # type: ignore[list-item]
    play.refresh_from_db()
    assert play.finished is None


def test_only_the_director_closes_and_only_once(event: RobotEvent, director: Player) -> None:
    other = client_for(None).post(f"/api/robots/{event.pk}/close/")
    assert other.status_code == 401
    api = client_for(director)
    assert api.post(f"/api/robots/{event.pk}/close/").json()["status"] == "closed"
    assert api.post(f"/api/robots/{event.pk}/close/").status_code == 409
    verification = client_for(None).get(f"/api/robots/{event.pk}/verification/").json()
    assert verification["verified"] is True


def test_a_missing_board_is_a_404(event: RobotEvent, director: Player) -> None:
    response = client_for(director).get(f"/api/robots/{event.pk}/boards/9/")
    assert response.status_code == 404
    assert "boards 1 to 2" in response.json()["detail"]


def test_a_timetable_creates_one_event_a_day(director: Player) -> None:
    from django_celery_beat.models import PeriodicTask

    from robot_events import services

    response = client_for(director).post(
        "/api/robots/schedules/", {**GOOD, "name": "Daily robots", "hour": 18}, format="json"
    )
    assert response.status_code == 201, response.content
    task = PeriodicTask.objects.get(pk=response.json()["task"])
    assert task.task == services.SCHEDULE_TASK and task.crontab is not None
    assert task.crontab.hour == "18"
    schedule_id = response.json()["id"]
    # What beat sends: the PeriodicTask's own task name and kwargs, run by the task that
    # the worker registers under that name.
    assert tasks.schedule_run_task.name == task.task
    sent = current_app.tasks[task.task].apply(kwargs=json.loads(task.kwargs))
    assert sent.get() == f"event {RobotEvent.objects.get().pk}"
    event = RobotEvent.objects.get()
    assert event.name.startswith("Daily robots ")
    assert event.schedule_id == schedule_id and event.board_set.count() == 3
    # The beat delivering the same run twice creates nothing more.
    assert current_app.tasks[task.task].apply(kwargs={"schedule_id": schedule_id}).get() == (
        "skipped"
    )
    assert RobotEvent.objects.count() == 1


def test_a_timetable_at_an_impossible_hour_is_refused(director: Player) -> None:
    from django_celery_beat.models import PeriodicTask

    response = client_for(director).post(
        "/api/robots/schedules/", {**GOOD, "hour": 24}, format="json"
    )
    assert response.status_code == 400 and "hour" in response.json()
    assert PeriodicTask.objects.filter(task="robots.schedule_run").count() == 0
