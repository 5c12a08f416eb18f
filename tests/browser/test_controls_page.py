"""Where the controls pay, in a real browser: reached from the leaderboard, it shows each
control's measured gain and cost per variant and rules, and where duplicate alone is used
because no control pays; and duplicate against plain deals, where no design beats them;
and each pairing's own measures; on a phone too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena import services
from arena.models import Match
from arena.services.control_value import EVIDENCE_BOARDS
from arena.services.design_value import NO_DESIGN, NO_DESIGN_CHOICE
from tests.arena.test_board_ratings import _version
from tests.arena.test_control_choice import BOARDS, finished_match
from tests.arena.test_design_value import no_design_history
from tests.browser.conftest import Problems, assert_clean, assert_fits_phone, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_controls_page_shows_where_no_control_pays(page: Any, problems: Problems) -> None:
    owner = services.player_register(username="tester", password="a-long-test-password-1")
    pair = (_version(owner, "x"), _version(owner, "y"))
    rng = random.Random(4)
    for _ in range(EVIDENCE_BOARDS // BOARDS):
        finished_match(pair, rng, explained=False, noise=40)
    page.goto("/leaderboards/auction4/")
    with page.expect_navigation():
        page.locator("#controls-link").click()
    assert page.locator("h1").inner_text() == "Where the controls pay"
    off = page.locator("#controls-off")
    assert (
        off.inner_text() == "Duplicate alone, no control pays: the reference pairing in auction4."
    )
    row = page.locator('#controls-table tr[data-variant="auction4"][data-control="reference"]')
    assert row.count() == 1
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == "auction4" and cells[1].startswith("default")
    assert cells[4] == str(EVIDENCE_BOARDS) and cells[6] == "1.50"
    assert float(cells[5]) < 1.5
    assert cells[7].startswith("no: does not pay: gain ")
    # The luck has no measure yet in auction4: it still runs, and says it is measured.
    luck = page.locator(
        '#controls-table tr[data-variant="auction4"][data-control="luck"] td.choice'
    )
    assert luck.inner_text() == f"yes: measuring: 0 of {EVIDENCE_BOARDS} boards, runs as before"
    # The one pairing has played its 200 boards: its own measure is listed, and decides
    # for its matches.
    own = page.locator('#pairings-table tr[data-variant="auction4"][data-control="reference"]')
    assert own.count() == 1
    cells = own.locator("td").all_inner_texts()
    assert cells[1] == "x \u2013 y" and cells[2] == str(EVIDENCE_BOARDS)
    assert cells[6].startswith("off: does not pay: gain ")
    snapshot(page, "controls-wide")
    assert_fits_phone(page, "controls")
    snapshot(page, "controls-phone")
    assert_clean(problems)


def test_the_controls_page_says_where_no_design_beats_plain_deals(
    page: Any, problems: Problems
) -> None:
    owner = services.player_register(username="tester", password="a-long-test-password-1")
    no_design_history((_version(owner, "x"), _version(owner, "y")), seed=11)
    page.goto("/ratings/controls/")
    assert page.locator("#designs-heading").inner_text() == "Duplicate against plain deals"
    assert page.locator(".designs-none").all_inner_texts() == [
        "No design beats plain deals in auction4 (default rules): duplicate alone runs, the "
        "cheapest design, and no control is played."
    ]
    row = page.locator('#designs-table tr[data-variant="auction4"]')
    assert row.count() == 1 and row.get_attribute("data-verdict") == NO_DESIGN
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == "auction4" and cells[1].startswith("default")
    assert cells[3] == str(EVIDENCE_BOARDS)
    # Plain deals' error over duplicate's, with its interval, then with the controls.
    error, interval = cells[5].split(" ", 1)
    # The interval's ends are joined by an en dash.
    low, high = (float(end) for end in interval.strip("()").split("\u2013"))
    assert low < 1 < high and low < float(error) < high
    assert cells[6].endswith(f"on {EVIDENCE_BOARDS} boards")
    assert cells[7].startswith(f"{NO_DESIGN}: plain deals' error is {error} times duplicate's")
    # The controls above say why they are off.
    choice = page.locator(
        '#controls-table tr[data-variant="auction4"][data-control="reference"] td.choice'
    )
    assert choice.inner_text() == f"no: {NO_DESIGN_CHOICE}"
    assert page.locator("#controls-off").count() == 0
    snapshot(page, "controls-designs-wide")
    assert_fits_phone(page, "controls with designs")
    snapshot(page, "controls-designs-phone")
    assert_clean(problems)


def test_a_match_page_says_which_controls_ran_and_why_on_a_phone(
    page: Any, problems: Problems
) -> None:
    owner = services.player_register(username="tester", password="a-long-test-password-1")
    match = finished_match(
        (_version(owner, "x"), _version(owner, "y")), random.Random(6), explained=True, noise=12
    )
    Match.objects.filter(pk=match.pk).update(score_x=160, mean_x=8.0, ci95=20.0)
    page.goto(f"/matches/{match.pk}/")
    items = page.locator("ul.controls-run li").all_inner_texts()
    assert items == [
        "The reference pairing: ran (eligible), 5.0 s of worker CPU",
        "The random bot's luck: not run (not against the random bot)",
    ]
    with page.expect_navigation():
        page.get_by_role("link", name="Where the controls pay").click()
    assert page.locator("h1").inner_text() == "Where the controls pay"
    page.go_back()
    assert_fits_phone(page, "match with controls")
    snapshot(page, "match-controls-phone")
    assert_clean(problems)
