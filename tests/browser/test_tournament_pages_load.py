"""Every tournament page loads in a real browser with no console error or failed request,
on a desktop and on a phone, and the live standings refresh themselves while an event runs."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from arena import services as arena_services
from arena.models import Player
from tests.browser.conftest import PHONE, Problems, assert_clean, assert_fits_phone, snapshot
from tests.tournaments.conftest import play_all, running_event
from tournaments import selectors, services
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club(db: None) -> tuple[Player, list[Player]]:
    director = arena_services.player_register(
        username="dora", password="cards-and-trumps-77", display_name="Dora"
    )
    names = ["Carol", "Dave", "Erin", "Frank", "Grace", "Heidi"]
    names += ["Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy"]
    players = [
        arena_services.player_register(
            username=name.lower(), password="cards-and-trumps-77", display_name=name
        )
        for name in names
    ]
    return director, players


def test_every_page_of_a_finished_event_loads_cleanly(
    page: Any, problems: Problems, club: tuple[Player, list[Player]]
) -> None:
    director, players = club
    event = running_event(director, players, name="Tuesday pairs")
    play_all(event)
    services.event_finish(event=event, by=director)
    base = f"/tournaments/{event.pk}"
    visits = {
        "tournament-list": "/tournaments/",
        "tournament-event": f"{base}/",
        "tournament-final-standings": f"{base}/standings/",
        "tournament-traveller": f"{base}/boards/1/",
        "tournament-scorecard": f"{base}/scorecards/A/1/",
        "tournament-verification": f"{base}/verification/",
        "tournament-ratings": f"/tournaments/ratings/?variant={event.variant}",
        "tournament-hand-records": f"/api/tournaments/{event.pk}/hand-records/",
        "tournament-hand-records-page": f"{base}/hand-records/",
        "tournament-guide-cards": f"{base}/guide-cards/",
    }
    for name, url in visits.items():
        for size, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(url)
            assert page.locator("h1").count() == 1, url
            if size == "phone":
                assert_fits_phone(page, name)
            snapshot(page, f"{name}-{size}")
    page.goto(f"{base}/")
    page.click("text=Hand records")
    # count() does not wait: the new page may still be loading when the URL has changed.
    page.wait_for_selector("h1:text-is('Hand records')")
    expect(page.locator("section.hand-record")).to_have_count(6)
    page.goto(f"{base}/verification/")
    assert "every board matches" in page.locator("dl.facts").inner_text()
    # Every player of the event is rated, each row with its interval.
    page.goto(f"/tournaments/ratings/?variant={event.variant}")
    intervals = page.locator("table.leaderboard tbody .interval-text")
    assert intervals.count() == len(players)
    assert all("\N{EN DASH}" in text for text in intervals.all_inner_texts())
    assert_clean(problems)


def test_the_live_standings_refresh_themselves_while_the_event_runs(
    page: Any, problems: Problems, club: tuple[Player, list[Player]]
) -> None:
    director, players = club
    event: Event = running_event(director, players, name="Thursday pairs")
    page.goto(f"/tournaments/{event.pk}/standings/")
    first = page.locator("table.standings tr[data-entry='1'] .mp")
    assert first.inner_text() == "0.0"
    # A table enters its boards; the page shows them without being reloaded.
    play_all(event, skip={(r, t, b) for r in (1, 2, 3) for t in (2, 3) for b in range(1, 7)})
    expected = next(
        row for row in selectors.event_standings(event=event)[0]["standings"] if row["entry"] == 1
    )
    page.wait_for_selector(
        f"table.standings tr[data-entry='1'] .mp:text-is('{expected['matchpoints']}')",
        timeout=60_000,
    )
    snapshot(page, "tournament-live-standings")
    assert_clean(problems)
