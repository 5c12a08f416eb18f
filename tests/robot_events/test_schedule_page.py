"""A director sets a daily timetable of robot events from its page, through the API's own
service: the timetables are listed there, a bad setting is answered beside its field and
changes nothing, and a player who may not direct is told why."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django_celery_beat.models import PeriodicTask
from rest_framework.test import APIClient

from arena import services as arena_services
from arena.models import Player
from robot_events.models import RobotSchedule
from robot_events.services import SCHEDULE_TASK, robot_schedule_create, robot_schedule_run

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Evening robots",
    "variant": "single4",
    "boards": "6",
    "robots": "greedy",
    "kind": "daylong",
    "scoring": "imp",
    "hour": "19",
    "minute": "5",
}


def _signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_the_director_adds_a_timetable_and_the_page_lists_it(director: Player) -> None:
    client = _signed_in(director)
    assert 'href="/robots/schedules/"' in client.get("/robots/").content.decode()
    assert "No timetables yet." in client.get("/robots/schedules/").content.decode()

    answer = client.post("/robots/schedules/", FORM)

    assert answer.status_code == 302 and answer["Location"] == "/robots/schedules/"
    schedule = RobotSchedule.objects.select_related("task__crontab").get()
    assert (schedule.name, schedule.variant, schedule.boards, schedule.director_id) == (
        "Evening robots",
        "single4",
        6,
        director.pk,
    )
    assert (schedule.kind, schedule.scoring, schedule.robots) == ("daylong", "imp", "greedy")
    assert schedule.task is not None and schedule.task.task == SCHEDULE_TASK
    assert (schedule.task.crontab.hour, schedule.task.crontab.minute) == ("19", "5")
    assert json.loads(schedule.task.kwargs) == {"schedule_id": schedule.pk}
    shown = client.get(answer["Location"]).content.decode()
    assert "Evening robots is on the timetable" in shown
    assert "19:05 UTC" in shown and "Dora" in shown


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("hour", "24", "less than or equal to 23"),
        ("minute", "-1", "greater than or equal to 0"),
        ("boards", "99", "less than or equal to 36"),
        ("variant", "bridge", "Select a valid choice"),
        ("name", "   ", "This field is required"),
    ],
)
def test_a_bad_setting_is_answered_beside_its_field_and_changes_nothing(
    director: Player, field: str, value: str, message: str
) -> None:
    tasks = PeriodicTask.objects.count()
    answer = _signed_in(director).post("/robots/schedules/", {**FORM, field: value})
    assert answer.status_code == 400
    shown = answer.content.decode()
    assert f'id="{field}-error"' in shown and message in shown
    assert not RobotSchedule.objects.exists()
    assert PeriodicTask.objects.count() == tasks


def test_a_player_who_may_not_direct_is_told_why_and_nothing_is_made(
    field: list[Player],
) -> None:
    client = _signed_in(field[0])
    assert "/robots/schedules/" not in client.get("/robots/").content.decode()
    for answer in (client.get("/robots/schedules/"), client.post("/robots/schedules/", FORM)):
        assert answer.status_code == 403
        shown = answer.content.decode()
        assert "only staff and robot event directors set timetables" in shown
        assert '<nav aria-label="Site">' in shown
    assert not RobotSchedule.objects.exists()


def test_a_visitor_is_sent_to_sign_in() -> None:
    answer = Client().get("/robots/schedules/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


def _schedule(director: Player) -> RobotSchedule:
    settings = {key: FORM[key] for key in ("name", "variant", "robots", "kind", "scoring")}
    return robot_schedule_create(director=director, hour=19, boards=6, **settings)


def test_the_director_pauses_resumes_and_removes_a_timetable_and_its_events_stay(
    director: Player,
) -> None:
    schedule = _schedule(director)
    event = robot_schedule_run(schedule_id=schedule.pk)
    assert event is not None
    client = _signed_in(director)
    url = f"/robots/schedules/{schedule.pk}/"
    page = client.get("/robots/schedules/").content.decode()
    assert f'action="{url}running/"' in page and f'action="{url}remove/"' in page

    paused = client.post(f"{url}running/", {"running": "no"}, follow=True)
    assert "Evening robots is paused" in paused.content.decode()
    assert not PeriodicTask.objects.get(pk=schedule.task_id).enabled
    assert "Resume" in paused.content.decode()
    # Saying it twice changes nothing more.
    client.post(f"{url}running/", {"running": "no"})
    assert not PeriodicTask.objects.get(pk=schedule.task_id).enabled
    client.post(f"{url}running/", {"running": "yes"})
    assert PeriodicTask.objects.get(pk=schedule.task_id).enabled

    removed = client.post(f"{url}remove/", follow=True)
    assert "Evening robots is off the timetable" in removed.content.decode()
    assert not RobotSchedule.objects.exists()
    assert not PeriodicTask.objects.filter(pk=schedule.task_id).exists()
    event.refresh_from_db()
    assert event.schedule is None
    # A message the beat sent before the removal creates nothing; a second removal is a 404.
    assert robot_schedule_run(schedule_id=schedule.pk) is None
    again = client.post(f"{url}remove/")
    assert again.status_code == 404
    assert f"there is no timetable {schedule.pk}" in again.content.decode()


def test_another_director_may_not_change_a_timetable_and_is_told_why(
    director: Player,
) -> None:
    schedule = _schedule(director)
    other = arena_services.player_register(username="eve", password="robots-and-trumps-42")
    other.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    client = _signed_in(other)
    page = client.get("/robots/schedules/").content.decode()
    assert "remove/" not in page
    url = f"/robots/schedules/{schedule.pk}/"
    for answer in (client.post(f"{url}running/", {"running": "no"}), client.post(f"{url}remove/")):
        assert answer.status_code == 403
        assert "only the timetable&#x27;s director or staff" in answer.content.decode()
    assert PeriodicTask.objects.get(pk=schedule.task_id).enabled
    assert RobotSchedule.objects.filter(pk=schedule.pk).exists()


def test_the_api_pauses_and_removes_as_the_page_does(director: Player) -> None:
    schedule = _schedule(director)
    client = APIClient()
    client.force_authenticate(director.user)
    url = f"/api/robots/schedules/{schedule.pk}/"
    bad = client.patch(url, {"running": "maybe"}, format="json")
    assert (bad.status_code, bad.json()) == (400, {"running": ["Must be a valid boolean."]})
    assert PeriodicTask.objects.get(pk=schedule.task_id).enabled
    answer = client.patch(url, {"running": False}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"id": schedule.pk, "name": "Evening robots", "running": False}
    assert not PeriodicTask.objects.get(pk=schedule.task_id).enabled
    assert client.delete(url).status_code == 204
    assert client.delete(url).status_code == 404
    assert not RobotSchedule.objects.exists()
