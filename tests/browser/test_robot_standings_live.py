"""An open robot event's standings refresh themselves (htmx polling, under the site's CSP):
with the page open, another entrant's finished board appears without a reload."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from robot_events import services
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot
from tests.robot_events.conftest import new_director, new_event, new_field, play_board

pytestmark = pytest.mark.django_db(transaction=True)


def test_another_entrants_board_appears_without_a_reload(
    settings: Any, page: Any, problems: Problems
) -> None:
    # The page polls at this pace; a second keeps the wait short, never a fixed sleep.
    settings.ROBOTS_STANDINGS_REFRESH_S = 1
    event = new_event(new_director())
    ann, ben = new_field()[:2]
    services.robot_entry_join(event=event, player=ann)
    other = services.robot_entry_join(event=event, player=ben)

    sign_in(page, "ann", PASSWORD)
    page.goto(f"/robots/{event.pk}/")
    expect(page.locator("#standings")).to_contain_text("No board has been played yet.")
    # Survives only as long as the document does: a reload would drop it.
    page.evaluate("window.sameDocument = true")

    # Ben plays his first board at his own table, through the table's services.
    play = play_board(other, "greedy")
    assert play.finished is not None

    row = page.locator(f"#standings tr[data-entry='{other.pk}']")
    expect(row).to_be_visible()
    expect(row.locator("td").nth(2)).to_have_text("1")
    assert page.evaluate("window.sameDocument") is True
    snapshot(page, "robot-standings-live")
    assert_clean(problems)
