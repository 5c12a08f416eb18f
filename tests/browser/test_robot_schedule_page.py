"""A robot event director sets a daily timetable of events from the pages alone, on a phone:
from the robot events list to the timetables' page, a setting refused beside its field, then
the timetable saved, listed, and in celery beat's schedule; then paused, resumed and
removed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from arena import services as arena_services
from robot_events.models import RobotSchedule
from robot_events.services import SCHEDULE_TASK
from tests.browser.conftest import (
    PHONE,
    Problems,
    assert_clean,
    assert_fits_phone,
    sign_in,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "robots-and-trumps-42"


def test_a_director_sets_a_daily_timetable_on_a_phone(page: Any, problems: Problems) -> None:
    dora = arena_services.player_register(username="dora", password=PASSWORD, display_name="Dora")
    dora.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    page.set_viewport_size(PHONE)
    sign_in(page, "dora", PASSWORD)
    page.wait_for_load_state("networkidle")

    page.goto("/robots/")
    with page.expect_navigation():
        page.click("text=Daily events")
    page.wait_for_selector("h1:text-is('Daily robot events')")
    assert page.locator("text=No timetables yet.").is_visible()
    assert_fits_phone(page, "daily robot events, none yet")

    # A name of spaces passes the browser's own check; the server refuses it beside the
    # field, and nothing is made.
    page.fill("#id_name", "   ")
    page.select_option("#id_variant", "single4")
    page.fill("#id_boards", "6")
    page.select_option("#id_kind", "daylong")
    page.select_option("#id_scoring", "imp")
    page.fill("#id_hour", "19")
    page.fill("#id_minute", "5")
    with page.expect_navigation():
        page.click("button:text-is('Add the timetable')")
    assert page.locator("#name-error").inner_text() == "This field is required."
    assert not RobotSchedule.objects.exists()
    assert_fits_phone(page, "daily robot events, a refused setting")
    snapshot(page, "robot-schedule-refused-phone")
    # The refusal is a 400 answer, which the browser reports as a failed load: expected.
    assert problems.failed_requests == [f"400 {page.url}"]
    problems.clear()

    page.fill("#id_name", "Evening robots")
    with page.expect_navigation():
        page.click("button:text-is('Add the timetable')")
    page.wait_for_selector(".messages li:has-text('Evening robots is on the timetable')")
    schedule = RobotSchedule.objects.select_related("task__crontab", "director").get()
    assert (schedule.name, schedule.variant, schedule.boards) == ("Evening robots", "single4", 6)
    assert (schedule.kind, schedule.scoring, schedule.director.pk) == ("daylong", "imp", dora.pk)
    assert schedule.task is not None and schedule.task.enabled
    assert schedule.task.task == SCHEDULE_TASK
    assert json.loads(schedule.task.kwargs) == {"schedule_id": schedule.pk}
    assert (schedule.task.crontab.hour, schedule.task.crontab.minute) == ("19", "5")
    row = page.locator("tbody tr")
    assert row.count() == 1
    assert "Evening robots" in row.inner_text() and "19:05 UTC" in row.inner_text()
    assert_fits_phone(page, "daily robot events, one timetable")
    snapshot(page, "robot-schedule-listed-phone")

    # The director pauses it, resumes it, then takes it off the timetable.
    with page.expect_navigation():
        page.click("button[aria-label='Pause Evening robots']")
    page.wait_for_selector(".messages li:has-text('Evening robots is paused')")
    assert "paused" in page.locator("tbody tr").inner_text()
    schedule.task.refresh_from_db()
    assert not schedule.task.enabled
    assert_fits_phone(page, "daily robot events, a paused timetable")
    snapshot(page, "robot-schedule-paused-phone")
    with page.expect_navigation():
        page.click("button[aria-label='Resume Evening robots']")
    page.wait_for_selector(".messages li:has-text('Evening robots runs again')")
    schedule.task.refresh_from_db()
    assert schedule.task.enabled
    with page.expect_navigation():
        page.click("button[aria-label='Remove Evening robots']")
    page.wait_for_selector(".messages li:has-text('Evening robots is off the timetable')")
    assert page.locator("text=No timetables yet.").is_visible()
    assert not RobotSchedule.objects.exists()
    assert_clean(problems)
