"""Tournament pages in a real browser: a whole small event entered through the pages alone.

Six pairs play a three-table Mitchell, one board a round. Each table's North-South player
enters the table's board from a phone, the director corrects one result, and the
standings page then shows what the API's standings say.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from tests.tournaments.conftest import entry_payload
from tournaments import services
from tournaments.models import Board, Event, Result

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "cards-and-trumps-77"
SEATS = ("North", "East", "South", "West")
TRUMPS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def register(name: str) -> Player:
    return arena_services.player_register(
        username=name.lower(), password=PASSWORD, display_name=name
    )


@pytest.fixture
def club_night(db: None) -> Event:
    director = register("Dora")
    names = ["Carol", "Dave", "Erin", "Frank", "Grace", "Heidi"]
    names += ["Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy"]
    players = [register(name) for name in names]
    event = services.event_create(
        director=director,
        name="Club night",
        variant="single4",
        movement="mitchell",
        boards_per_round=1,
        par_bot="",
    )
    for first, second in zip(players[::2], players[1::2], strict=True):
        services.entry_add(event=event, by=director, section_name="A", players=[first, second])
    return services.event_start(event=event, by=director)


def watched(context: Any, problems: Problems) -> Any:
    """A page of another browser context, reporting into the same ``problems``."""
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    tab.on(
        "console", lambda m: problems.console_errors.append(m.text) if m.type == "error" else None
    )
    tab.on("pageerror", lambda error: problems.console_errors.append(str(error)))
    tab.on("requestfailed", lambda r: problems.failed_requests.append(f"{r.method} {r.url}"))
    tab.on(
        "response",
        lambda r: problems.failed_requests.append(f"{r.status} {r.url}")
        if r.status >= 400
        else None,
    )
    return tab


@pytest.fixture
def phones(
    browser: Any, live_server: Any, problems: Problems, club_night: Event
) -> Iterator[dict[int, Any]]:
    """One phone per table, signed in as the table's North-South player (pairs 1-3 stay)."""
    contexts = []
    tabs = {}
    for table, username in ((1, "carol"), (2, "erin"), (3, "grace")):
        context = browser.new_context(base_url=live_server.url, viewport=PHONE)
        contexts.append(context)
        tab = watched(context, problems)
        sign_in(tab, username, PASSWORD)
        tabs[table] = tab
    yield tabs
    for context in contexts:
        context.close()


def enter_board(tab: Any, event: Event, round_: int, table: int) -> dict[str, Any]:
    """Fill in the table's board as a table would report it, check the scores, save."""
    tab.goto(f"/tournaments/{event.pk}/tables/A/{round_}/{table}/")
    heading = tab.locator("#entry-title").inner_text()
    number = int(heading.split()[-1])
    board = Board.objects.get(event=event, number=number)
    report = entry_payload("single4", board.seed, board.dealer, round_ * 10 + table)
    form = tab.locator("form.board-entry")
    form.locator("fieldset:has(legend:text-is('Declarer')) label.chip").filter(
        has_text=SEATS[report["declarer"]]
    ).click()
    tab.fill("#id_bid", str(report["bid"]))
    form.locator("fieldset:has(legend:text-is('Trump')) label.chip").filter(
        has_text=TRUMPS[report["trump"]]
    ).click()
    tab.fill("#id_meld_0", str(report["meld"][0]))
    tab.fill("#id_meld_1", str(report["meld"][1]))
    tab.fill("#id_taken_0", str(report["taken"][0]))
    tab.click("button[value=check]")
    tab.wait_for_selector(".confirm")
    if (round_, table) == (1, 1):
        assert_fits_phone(tab, "score entry, checked")
        snapshot(tab, "tournament-entry-confirm-phone")
    tab.click("button[value=save]")
    tab.wait_for_selector(f".messages li:text-is('Board {number} saved.')")
    return report


def test_a_whole_event_is_entered_through_the_pages_and_the_standings_match_the_api(
    page: Any, phones: dict[int, Any], problems: Problems, club_night: Event
) -> None:
    event = club_night
    phones[1].goto(f"/tournaments/{event.pk}/tables/A/1/1/")
    assert_fits_phone(phones[1], "score entry")
    snapshot(phones[1], "tournament-entry-phone")
    for round_ in (1, 2, 3):
        for table in (1, 2, 3):
            enter_board(phones[table], event, round_, table)
    assert Result.objects.filter(section__event=event).count() == 9
    event.refresh_from_db()
    assert event.current_round == 3

    # The director corrects a result; the table page shows the audit trail.
    sign_in(page, "dora", PASSWORD)
    page.goto(f"/tournaments/{event.pk}/tables/A/2/2/")
    result = Result.objects.get(section__event=event, round=2, table=2)
    page.click(f"a[href='?correct={result.pk}']")
    # Counters are the one thing the cards do not decide: any split of the 25 is possible.
    counters = result.taken_ns + 1 if result.taken_ns < 25 else result.taken_ns - 1
    page.fill("#id_taken_0", str(counters))
    page.fill("#id_reason", "the last trick went to North-South")
    page.click("button[value=check]")
    page.wait_for_selector(".confirm")
    page.click("button[value=save]")
    page.wait_for_selector(".audit")
    assert "the last trick went to North-South" in page.locator(".audit").inner_text()
    result.refresh_from_db()
    assert result.taken_ns == counters
    snapshot(page, "tournament-audit-trail")

    # Everyone's standings page says what the API says.
    page.goto(f"/tournaments/{event.pk}/standings/")
    rows = page.locator("table.standings tbody tr")
    shown = {
        int(rows.nth(i).get_attribute("data-entry")): (
            float(rows.nth(i).locator(".mp").inner_text()),
            float(rows.nth(i).locator(".pct").inner_text()),
        )
        for i in range(rows.count())
    }
    api = page.request.get(f"/api/tournaments/{event.pk}/standings/").json()
    expected = {
        row["entry"]: (float(row["matchpoints"]), float(row["percentage"]))
        for row in api["sections"][0]["standings"]
    }
    assert shown == expected
    snapshot(page, "tournament-standings")
    assert_clean(problems)
