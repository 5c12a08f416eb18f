"""A league's organiser edits its description and time control from the league's page alone,
on a phone: a value the league's rules refuse is answered beside its field and saves
nothing; the corrected form is saved and the league's page shows the new description."""

from __future__ import annotations

from typing import Any

import pytest

from arena import services as arena_services
from leagues import services as league_services
from leagues.models import League
from tests.browser.conftest import (
    PHONE,
    Problems,
    assert_clean,
    assert_fits_phone,
    sign_in,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "cards-and-trumps-77"


def test_the_organiser_edits_the_league_on_a_phone(page: Any, problems: Problems) -> None:
    olga = arena_services.player_register(username="olga", password=PASSWORD)
    league = league_services.league_create(
        organiser=olga,
        name="Autumn League",
        variant="auction4",
        format=League.Format.ROUND_ROBIN,
        description="Four bots.",
        boards_per_match=4,
    )
    page.set_viewport_size(PHONE)
    sign_in(page, "olga", PASSWORD)
    page.wait_for_load_state("networkidle")

    page.goto(f"/leagues/{league.pk}/")
    with page.expect_navigation():
        page.click("text=Edit the league")
    page.wait_for_selector("h1:text-is('Edit Autumn League')")
    assert page.locator("#id_description").input_value() == "Four bots."
    assert_fits_phone(page, "league edit form")

    # Within the browser's own limits, but under the league's least decision time: the
    # server refuses it beside its field and saves nothing, the description included.
    page.fill("#id_description", "Four bots, one round robin.\nMatches on Fridays.")
    page.fill("#id_decision", "5")
    with page.expect_navigation():
        page.click("button:text-is('Save the league')")
    assert "decision_ms is at least 10" in page.locator("#decision-error").inner_text()
    assert page.locator("#id_description").input_value().startswith("Four bots, one round")
    assert League.objects.get(pk=league.pk).description == "Four bots."
    assert_fits_phone(page, "league edit form, a refused value")
    snapshot(page, "league-edit-refused-phone")
    # The refusal is a 400 answer, which the browser reports as a failed load: expected.
    assert problems.failed_requests == [f"400 {page.url}"]
    problems.clear()

    page.fill("#id_decision", "250")
    with page.expect_navigation():
        page.click("button:text-is('Save the league')")
    page.wait_for_selector(".messages li:has-text('The league Autumn League is saved.')")
    saved = League.objects.get(pk=league.pk)
    assert saved.description == "Four bots, one round robin.\nMatches on Fridays."
    assert (saved.decision_ms, saved.boards_per_match, saved.name) == (250, 4, "Autumn League")
    assert "Matches on Fridays." in page.locator("main").inner_text()
    assert "250 ms a decision" in page.locator("dl.facts").inner_text()
    assert_fits_phone(page, "league page, edited")
    snapshot(page, "league-edited-phone")
    assert_clean(problems)
