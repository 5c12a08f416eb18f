"""Signing up and a player's page in a real browser, on a desk's screen and a phone's:
a person signs up and lands on her own page signed in; a player's page shows a table she
played linked to its replay and her rating chart with its axes, with no sideways scroll."""

from __future__ import annotations

from typing import Any

import pytest

from arena import services as arena_services
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, snapshot
from tests.home.worlds import finished_table, rated_events, sealed_table

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = [1280, 390]


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("width", WIDTHS)
def test_a_person_signs_up_and_lands_on_her_own_page_signed_in(
    page: Any, problems: Problems, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/accounts/login/")
    page.click("main >> text=Sign up")
    page.wait_for_url("**/accounts/signup/")
    assert _fits(page)
    # First a password typed differently the second time: told beside its field.
    page.fill("#id_username", "newcomer")
    page.fill("#id_display_name", "New Comer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD + "x")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.locator("#error_password2").inner_text() == "The two passwords differ."
    assert page.locator("#id_username").input_value() == "newcomer"
    assert _fits(page)
    snapshot(page, f"signup-refused-{width}")
    problems.clear()  # the refused form answers 400 by design
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url("**/players/newcomer/")
    assert page.locator(".account .who").inner_text() == "newcomer"
    assert page.locator("h1").inner_text().startswith("New Comer")
    assert page.locator("#token-heading").is_visible()
    assert _fits(page)
    snapshot(page, f"signup-profile-{width}")
    assert_clean(problems)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_players_page_links_her_table_to_its_replay_and_charts_her_rating(
    page: Any, problems: Problems, width: int
) -> None:
    alice = arena_services.player_register(username="alice", password=PASSWORD)
    table = finished_table(alice.user, public=True)
    sealed, _challenge = sealed_table(alice.user)
    rated_events(alice)
    page.set_viewport_size({"width": width, "height": 900})
    # Seen by a visitor: the public table is linked, the sealed one is not.
    page.goto("/players/alice/")
    link = page.locator(f'a[href="/play/tables/{table.pk}/replay/"]')
    assert link.count() == 1
    assert page.locator(f'a[href*="/play/tables/{sealed.pk}/"]').count() == 0
    assert "sealed for now" in page.locator("table.player-tables").inner_text()
    chart = page.locator("figure.rating-chart.dated svg")
    assert chart.count() == 1
    labels = chart.locator("text.y-label").all_text_contents()
    dates = chart.locator("text.x-label").all_text_contents()
    assert len(labels) >= 2 and all(label.isdigit() for label in labels)
    assert len(dates) >= 2 and all(len(date) == 10 and date[4] == "-" for date in dates)
    assert chart.locator("polyline.line").count() == 1
    # Every axis label is drawn inside the chart's box.
    box = chart.bounding_box()
    for text in chart.locator("text").all():
        inner = text.bounding_box()
        assert (
            box["x"] - 1 <= inner["x"]
            and inner["x"] + inner["width"] <= box["x"] + box["width"] + 1
        )
    assert _fits(page)
    snapshot(page, f"player-profile-{width}")
    link.click()
    page.wait_for_url(f"**/play/tables/{table.pk}/replay/")
    assert_clean(problems)
