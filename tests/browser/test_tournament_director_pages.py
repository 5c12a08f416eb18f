"""A director runs an event from the pages alone, on a phone: create it, enter the pairs,
start it and, once the tables have entered their results, finish it."""

from __future__ import annotations

from typing import Any

import pytest

from arena import services as arena_services
from arena.models import Player
from tests.browser.conftest import (
    PHONE,
    Problems,
    assert_clean,
    assert_fits_phone,
    sign_in,
    snapshot,
)
from tests.tournaments.conftest import play_all
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "cards-and-trumps-77"


def register(name: str) -> Player:
    return arena_services.player_register(
        username=name.lower(), password=PASSWORD, display_name=name
    )


def test_a_director_creates_enters_starts_and_finishes_an_event_on_a_phone(
    page: Any, problems: Problems
) -> None:
    register("Dora")
    names = ["Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]
    for name in names:
        register(name)
    page.set_viewport_size(PHONE)
    sign_in(page, "dora", PASSWORD)

    page.goto("/tournaments/")
    page.click("text=Direct a new event")
    page.wait_for_selector("h1:text-is('New event')")
    assert_fits_phone(page, "new event")
    page.fill("#id_name", "Tuesday pairs")
    page.select_option("#id_variant", "single4")
    page.select_option("#id_movement", "mitchell")
    page.fill("#id_boards_per_round", "2")
    page.select_option("#id_par_bot", "")
    snapshot(page, "tournament-director-new-event-phone")
    page.click("button:text-is('Create the event')")
    page.wait_for_selector("h1:text-is('Tuesday pairs')")
    event = Event.objects.get(name="Tuesday pairs")
    assert event.director.user.username == "dora"

    for first, second in zip(names[::2], names[1::2], strict=True):
        page.fill("#id_player_1", first.lower())
        page.fill("#id_player_2", second.lower())
        page.click("button:text-is('Add the entry')")
        page.wait_for_selector(".messages li:has-text('is in section A')")
    assert page.locator("ol.entries li").count() == 4
    assert_fits_phone(page, "event page before the start")
    # A pair entered by mistake is withdrawn from the page, and entered again.
    page.click("button[aria-label='Withdraw entry A4']")
    page.wait_for_selector(".messages li:has-text('is withdrawn')")
    assert page.locator("ol.entries li").count() == 3
    page.fill("#id_player_1", names[-2].lower())
    page.fill("#id_player_2", names[-1].lower())
    page.click("button:text-is('Add the entry')")
    page.wait_for_selector(".messages li:has-text('is in section A')")
    assert page.locator("ol.entries li").count() == 4
    snapshot(page, "tournament-director-entries-phone")

    page.click("button:text-is('Start the event')")
    page.wait_for_selector(".messages li:has-text('has started')")
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert page.locator("button:text-is('Finish the event')").is_visible()
    assert_fits_phone(page, "event page, running")
    snapshot(page, "tournament-director-running-phone")

    # The tables' results, entered through the services as the score-entry pages do.
    play_all(event)
    page.reload()
    page.click("button:text-is('Finish the event')")
    page.wait_for_selector(".messages li:has-text('is finished')")
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert page.locator("button:text-is('Finish the event')").count() == 0
    assert_fits_phone(page, "event page, finished")
    snapshot(page, "tournament-director-finished-phone")
    assert_clean(problems)
