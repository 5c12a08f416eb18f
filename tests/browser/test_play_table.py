"""A human plays a whole hand with bots in a real browser, by clicks and keys.

One table of single4 (an auction, trump, passing and tricks) against greedy reference
bots: every move is made in the page, a reload mid-hand resumes the same state, a click on
a card the rules forbid is refused with the engine's reason, and no page, fragment or
action answer the browser received carries a card the seat could not know (computed from
the engine at the ply each answer is for).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from arena import services as arena_services
from tables import referee
from tables.models import PlayTable
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, assert_fits_phone, sign_in, snapshot
from tests.cards import card_tokens

pytestmark = pytest.mark.django_db(transaction=True)

PLY = re.compile(r'id="play-state"[^>]*data-ply="(\d+)"', re.S)
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|csrftoken=)"?[^"; ]+')


def known_faces(table: PlayTable, ply: int) -> set[str]:
    hand = referee.rebuild(
        table.variant,
        rules=table.rules,
        seed=table.seed,
        dealer=table.dealer,
        actions=table.actions[:ply],
    )
    seat = table.human_seat
    return set(card_tokens(hand.state.observation(seat))) | set(
        card_tokens([text for _, text in hand.heard_by(seat)])
    )


def settled(page: Any) -> Any:
    """The table once the bots' moves are shown: Escape skips the pacing."""
    state = page.locator("#play-state")
    expect(state).to_be_visible()
    page.keyboard.press("Escape")
    # Set by the page once every move is shown (at once after Escape, or at its own pace if
    # the reveal began after the key was pressed).
    expect(page.locator('#play-state[data-shown="true"]')).to_have_count(1)
    return state


def make_a_move(page: Any) -> None:
    """One legal move by the page's own controls, with the keyboard where it offers one."""
    if page.locator(".card-button.playable").count():
        page.keyboard.press("1")
    elif page.locator('button[data-action="pass"]').count():
        page.keyboard.press("p")
    elif page.locator(".card-pick input").count():
        count = int(page.locator("#act-form .controls p").inner_text().split()[1])
        for index in range(count):
            page.locator(".card-pick").nth(index).click()
        page.locator('#act-form button[name="send"]').click()
    else:
        page.locator("#act-form .controls button").first.click()


def test_a_whole_hand_by_clicks_and_keys(page: Any, problems: Problems, live_server: Any) -> None:
    arena_services.player_register(username="alice", password=PASSWORD)
    answers: list[str] = []

    def keep(response: Any) -> None:
        if "/play/tables/" in response.url and response.request.resource_type in (
            "document",
            "xhr",
            "fetch",
        ):
            answers.append(response.text())

    page.on("response", keep)
    sign_in(page, "alice", PASSWORD)
    page.goto("/")
    page.get_by_role("link", name="Play", exact=True).first.click()
    page.select_option("#variant", "single4")
    page.select_option("#seat", "0")
    page.click("#play-start-button")
    state = settled(page)
    table = PlayTable.objects.get()
    snapshot(page, "play-table-start")

    moves = 0
    reloaded = refused = False
    while not page.locator("#result").count():
        ply = state.get_attribute("data-ply")
        if not reloaded and moves == 3:
            hand_before = page.locator(".hand").inner_text()
            page.reload()
            state = settled(page)
            assert state.get_attribute("data-ply") == ply
            assert page.locator(".hand").inner_text() == hand_before
            reloaded = True
        if not refused and page.locator(".card-button.illegal").count():
            # aria-disabled tells assistive technology; a pointer can still press it.
            page.locator(".card-button.illegal").first.click(force=True)
            expect(page.locator("#refusal")).to_contain_text("Refused:")
            expect(page.locator("#refusal")).to_contain_text("rule: must_")
            snapshot(page, "play-table-refused")
            state = settled(page)
            assert state.get_attribute("data-ply") == ply
            refused = True
            problems.clear()  # the refusal's 400 is the point of this step
        make_a_move(page)
        expect(page.locator(f'#play-state:not([data-ply="{ply}"])')).to_have_count(1)
        if moves == 1:
            # The bots' answers are shown one at a time before the table is offered again.
            expect(page.locator(".reveal-step").first).to_be_visible()
            snapshot(page, "play-table-revealing")
        state = settled(page)
        moves += 1
        if moves == 6:
            snapshot(page, "play-table-tricks")
    snapshot(page, "play-table-result")
    assert reloaded
    expect(page.locator("#breakdown")).to_be_visible()
    # The finished table, with its result's breakdown, fits a phone.
    assert_fits_phone(page, "finished table")
    snapshot(page, "play-table-result-phone")
    table.refresh_from_db()
    assert table.status == PlayTable.Status.FINISHED

    # Every answer received while the hand was played: only what the seat could know.
    checked = 0
    for body in answers:
        found = PLY.search(body)
        if found is None or int(found.group(1)) >= table.ply:
            continue
        faces = set(card_tokens(CSRF.sub("", body)))
        leaked = faces - known_faces(table, int(found.group(1)))
        assert not leaked, f"ply {found.group(1)}: {sorted(leaked)}"
        checked += 1
    assert checked >= moves // 2

    page.click("#replay-link")
    expect(page.locator("#viewer")).to_be_visible()
    snapshot(page, "play-table-replay")
    assert_clean(problems)


def test_the_home_page_leads_to_a_challenge(page: Any, problems: Problems) -> None:
    arena_services.player_register(username="bruno", password=PASSWORD)
    sign_in(page, "bruno", PASSWORD)
    page.goto("/")
    page.click("#home-challenge")
    page.select_option("#c-variant", "twohand")
    page.select_option("#c-boards", "1")
    page.click("#challenge-start-button")
    # One row a board: the human's table, then the bot's own table of the same cards.
    expect(page.locator("#challenge-tables tbody tr")).to_have_count(1)
    expect(page.locator("#challenge-tables .comparison")).to_have_text("after your table")
    expect(page.locator("#challenge-expiry")).to_contain_text("Play it by")
    expect(page.locator("#challenge-expiry")).to_contain_text("counts as your forfeit")
    snapshot(page, "play-challenge")
    page.click("#next-table")
    state = settled(page)
    expect(page.locator(".card-button.playable").first).to_be_visible()
    snapshot(page, "play-challenge-table")
    while not page.locator("#result").count():
        ply = state.get_attribute("data-ply")
        make_a_move(page)
        expect(page.locator(f'#play-state:not([data-ply="{ply}"])')).to_have_count(1)
        state = settled(page)
    page.click("#continue-link")
    # The board's only table is over: the bot has played the same cards at every seat,
    # and the board is scored against that table.
    expect(page.locator("#challenge-result")).to_be_visible()
    expect(page.locator("#challenge-tables .comparison")).not_to_have_text("after your table")
    expect(page.locator("#challenge-tables .result strong")).to_have_count(1)
    expect(page.locator("#seed-secret")).to_be_visible()
    snapshot(page, "play-challenge-result")
    assert_clean(problems)
