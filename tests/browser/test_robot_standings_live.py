"""An open robot event's standings refresh themselves (htmx polling, under the site's CSP):
with the page open, another entrant's finished board appears without a reload."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from arena import services as arena_services
from arena.models import Player
from leagues.robots import services
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot
from tests.leagues.robots.conftest import play_board

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_another_entrants_board_appears_without_a_reload(
    settings: Any, page: Any, problems: Problems
) -> None:
    # The page polls at this pace; a second keeps the wait short, never a fixed sleep.
    settings.ROBOTS_STANDINGS_REFRESH_S = 1
    director = arena_services.player_register(username="dora", password=PASSWORD)
    director.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    event = services.robot_event_create(
        director=Player.objects.get(pk=director.pk),
        name="Live robots",
        variant="single4",
        boards=2,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )
    ann, ben = (
        arena_services.player_register(username=name, password=PASSWORD, display_name=name)
        for name in ("ann", "ben")
    )
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
