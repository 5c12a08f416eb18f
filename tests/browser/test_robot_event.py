"""A robot duplicate event in the browser: two humans each play a whole two-board event.

Each human signs in, joins, and plays both boards at the play table by clicking legal
actions (one always takes the first, the other bids when it may and plays its last legal
card, so that their results differ), coming back to the event through the table's
Continue link. The director then closes the event, and the standings and both travellers
are checked against matchpoints worked out here from the two tables' results.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from arena import services as arena_services
from arena.models import Player
from robot_events import services
from robot_events.models import RobotEvent, RobotPlay
from tables.models import PlayTable
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "robots-and-trumps-42"


def register(name: str) -> Player:
    return arena_services.player_register(
        username=name.lower(), password=PASSWORD, display_name=name
    )


@pytest.fixture
def event(db: None) -> RobotEvent:
    director = register("Dora")
    director.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    return services.robot_event_create(
        director=Player.objects.get(pk=director.pk),
        name="Browser robots",
        variant="single4",
        boards=2,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )


def act_once(page: Any, bold: bool) -> None:
    """Click one legal action: the first one; or, ``bold``, a bid over a pass and the last
    legal card. Then wait for the table to move on."""
    state = page.locator("#play-state")
    ply = state.get_attribute("data-ply")
    cards = page.locator("#act-form .card-button.playable")
    buttons = page.locator("#act-form .controls [data-action]")
    bid = page.locator("#act-form button[name=use_bid]")
    picks = page.locator("#act-form .card-pick input")
    if cards.count():
        (cards.last if bold else cards.first).click()
    elif bid.count() and (bold or not buttons.count()):
        bid.click()
    elif buttons.count():
        buttons.first.click()
    elif picks.count():
        # "Pick 3 cards, then give them": the count the table asks for.
        controls = page.locator("#act-form .controls").inner_text()
        asked = re.search(r"Pick (\d+) card", controls)
        assert asked is not None, f"the table asks for no count of cards: {controls!r}"
        for index in range(int(asked.group(1))):
            picks.nth(index).check()
        page.locator("#act-form button[name=send]").click()
    else:
        raise AssertionError(f"no legal action on the table at ply {ply}")
    expect(page.locator("#play-state")).not_to_have_attribute("data-ply", ply or "")


def play_the_table(page: Any, bold: bool) -> None:
    """Act until the hand is over, then follow Continue back to the event."""
    continue_link = page.locator("#continue-link")
    for _ in range(200):
        if continue_link.count():
            break
        # The table is shown once the page has revealed the bots' moves (play.js).
        expect(page.locator('#play-state[data-shown="true"]')).to_have_count(1)
        expect(page.locator(".your-turn, #continue-link").first).to_be_visible()
        if continue_link.count():
            break
        act_once(page, bold)
    with page.expect_navigation():
        continue_link.click()


def test_two_humans_play_a_robot_event_and_are_matchpointed(
    settings: Any, page: Any, browser: Any, live_server: Any, problems: Problems, event: RobotEvent
) -> None:
    # The pacing of the bots' moves is the table page's own test; here they show at once.
    settings.PLAY_REVEAL_MS = 0
    players = {"Ann": register("Ann"), "Ben": register("Ben")}
    for name, bold in (("Ann", False), ("Ben", True)):
        context = browser.new_context(base_url=live_server.url)
        tab = context.new_page()
        tab.set_default_timeout(120_000)
        tab.on("pageerror", lambda error: problems.console_errors.append(str(error)))
        tab.on(
            "response",
            lambda r: problems.failed_requests.append(f"{r.status} {r.url}")
            if r.status >= 400
            else None,
        )
        sign_in(tab, name.lower(), PASSWORD)
        tab.goto(f"/robots/{event.pk}/")
        tab.click("#join")
        for board in (1, 2):
            expect(tab.locator("#next-board")).to_have_text(f"Play board {board}")
            tab.click("#next-board")
            expect(tab.locator("#play-state")).to_be_visible()
            if board == 1 and name == "Ann":
                snapshot(tab, "robot-event-table")
            play_the_table(tab, bold)
            expect(tab.locator("#progress")).to_have_text(f"{board} of 2 played.")
        if name == "Ben":
            snapshot(tab, "robot-event-progress")
            # Instant: having played it, Ben sees how Ann did on board 1.
            tab.click(f"a[href='/robots/{event.pk}/boards/1/']")
            expect(tab.locator("table.traveller tbody tr")).to_have_count(2)
            snapshot(tab, "robot-event-traveller-before-close")
        context.close()

    # The two results, read from the tables themselves, matchpointed by hand: on a board
    # played twice the top is 2; the better net gets 2, a tie 1 each.
    nets: dict[str, dict[int, int]] = {}
    for name, player in players.items():
        for play in RobotPlay.objects.filter(entry__player=player).select_related("board"):
            table = PlayTable.objects.get(pk=play.table_id)
            assert table.result is not None
            ns, ew = table.result["side_scores"]
            nets.setdefault(name, {})[play.board.number] = ns - ew
    expected_mp = {"Ann": 0, "Ben": 0}
    for board in (1, 2):
        ann, ben = nets["Ann"][board], nets["Ben"][board]
        expected_mp["Ann"] += 2 if ann > ben else 1 if ann == ben else 0
        expected_mp["Ben"] += 2 if ben > ann else 1 if ann == ben else 0

    sign_in(page, "dora", PASSWORD)
    page.goto(f"/robots/{event.pk}/")
    page.click("#close-event")
    expect(page.locator("#event-status")).to_have_text("closed")
    for board in event.board_set.all():
        services.robot_board_par_compute(board_id=board.pk)
    page.goto(f"/robots/{event.pk}/")
    for name, player in players.items():
        entry = event.entries.get(player=player)
        row = page.locator(f"table.standings tr[data-entry='{entry.pk}']")
        expect(row.locator(".mp")).to_have_text(f"{float(expected_mp[name])}")
        expect(row.locator(".pct")).to_have_text(f"{100 * expected_mp[name] / 4}")
    snapshot(page, "robot-event-standings")
    for board in (1, 2):
        page.goto(f"/robots/{event.pk}/boards/{board}/")
        for name, player in players.items():
            entry = event.entries.get(player=player)
            row = page.locator(f"table.traveller tr[data-entry='{entry.pk}']")
            ann, ben = nets["Ann"][board], nets["Ben"][board]
            mine, theirs = (ann, ben) if name == "Ann" else (ben, ann)
            points = 2 if mine > theirs else 1 if mine == theirs else 0
            expect(row.locator(".score")).to_have_text(f"{float(points)}")
        expect(page.locator("#par")).to_contain_text("The greedy robots at every seat")
        expect(page.locator(".diagram .hand")).to_have_count(4)
        snapshot(page, f"robot-event-traveller-{board}")
    assert_clean(problems)
