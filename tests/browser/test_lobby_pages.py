"""The lobby in a browser: the lists of tables, the new-table form built from the engine's
registry (variant, house rules, target, clock, seats), a table's seat given to a bot by its
host, and a card table that fits a phone and is played by the keyboard alone."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from arena import services as arena_services
from arena.seeding import seed_commitment
from lobby import selectors, services, turns
from lobby.models import GameTable
from tests.arena.conftest import PASSWORD
from tests.arena.workers import require_worker_services
from tests.browser.conftest import assert_fits_phone, sign_in, snapshot
from tests.browser.lobby_table import (
    TABLE,
    asgi_site,
    make_a_move,
    open_context,
    register,
    wait_turn_or_end,
)

PLAYED_OUT_SEED = 1
"""An auction4 deal (dealer 0) that greedy bots play out when seat 0 passes (the deal the
phone test plays)."""

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_table_is_opened_from_the_form_and_a_seat_given_to_a_bot(
    browser: Any, tmp_path: Path
) -> None:
    require_worker_services()
    register("alice")
    with asgi_site(tmp_path) as url:
        host = open_context(browser, url)
        host.page.goto("/")
        host.page.get_by_role("link", name="Tables", exact=True).click()
        expect(host.page.get_by_role("heading", name="New table")).to_be_visible()
        sign_in(host.page, "alice", PASSWORD)
        host.page.goto("/tables/")
        # The house rules are the variant's: another variant's form has other rules.
        host.page.select_option("#id_variant", "pinnacolo")
        expect(host.page.locator("#id_rule_closing_bonus")).to_have_count(1)
        host.page.select_option("#id_variant", "auction4")
        expect(host.page.locator("#id_rule_pass_count")).to_have_count(1)
        expect(host.page.locator("#id_rule_closing_bonus")).to_have_count(0)
        host.page.locator(".house-rules summary").click()
        host.page.fill("#id_rule_last_trick_bonus", "20")
        host.page.select_option("#id_seat_2", "open")
        host.page.select_option("#id_target_kind", "hands")
        host.page.fill("#id_target_value", "2")
        host.page.fill("#id_decision_s", "20")
        host.page.fill("#id_bank_s", "60")
        snapshot(host.page, "lobby-new-table-form")
        host.page.click("#open-table")
        expect(host.page.locator(f'{TABLE}[data-status="waiting"]')).to_have_count(1)
        table = GameTable.objects.get()
        assert table.target == {"kind": "hands", "value": 2}
        assert table.clock == {"decision_s": 20, "bank_s": 60}
        assert table.rules["last_trick_bonus"] == 20
        snapshot(host.page, "lobby-table-waiting")

        # The lobby lists it as waiting, its open seat free.
        host.page.goto("/tables/")
        expect(host.page.locator(f'#waiting-tables [data-table="{table.pk}"]')).to_contain_text(
            "open"
        )
        snapshot(host.page, "lobby-list")
        # Anyone may look at the table; a visitor is asked to sign in to take the seat.
        visitor = open_context(browser, url, phone=True)
        visitor.page.goto(f"/tables/{table.pk}/")
        expect(visitor.page.get_by_role("link", name="Sign in to sit here")).to_be_visible()
        assert_fits_phone(visitor.page, "a waiting table")
        snapshot(visitor.page, "lobby-table-waiting-visitor-phone")
        visitor.assert_clean()
        host.page.goto(f"/tables/{table.pk}/")
        host.page.locator('[data-seat="2"] select[name="bot"]').select_option("reference:greedy")
        # A frame that comes while the host chooses redraws the seats and keeps her choice.
        host.page.locator('button[data-talk="hello"]').click()
        expect(host.page.locator('[data-seat="0"] .bubble')).to_have_text("Hello!")
        host.page.locator('[data-seat="2"] button[data-control="fill"]').click()
        expect(host.page.locator(f'{TABLE}[data-status="playing"]')).to_have_count(1)
        seat = table.seats.get(seat=2)
        assert seat.bot == {"kind": "reference", "name": "greedy"}, seat.bot
        host.assert_clean()


def test_a_hand_is_played_by_the_keyboard_on_a_phone(browser: Any, tmp_path: Path) -> None:
    require_worker_services()
    alice = register("alice")
    with asgi_site(tmp_path) as url:
        player = open_context(browser, url, phone=True)
        sign_in(player.page, "alice", PASSWORD)
        greedy = {"kind": "reference", "name": "greedy"}
        bot = {"kind": "bot", "bot": greedy}
        table = services.table_open(
            host=alice.user,
            variant="auction4",
            target={"kind": "hands", "value": 1},
            seats=[{"kind": "host"}, bot, bot, {"kind": "open"}],
        )
        # The deal is fixed: on a random one the greedy declarer may throw the hand in
        # before a card is played. On this one seat 3 declares and plays the hand out, so
        # this seat passes once and plays its twelve cards. With a seat still open nothing
        # is dealt yet; the last seat given to a bot starts the game on this seed.
        GameTable.objects.filter(pk=table.pk).update(
            seed=PLAYED_OUT_SEED, commitment=seed_commitment(PLAYED_OUT_SEED), dealer=0
        )
        services.table_fill(table_id=table.pk, user=alice.user, seat=3, bot=greedy)
        player.page.goto(f"/tables/{table.pk}/")
        leave = player.page.locator("#leave")
        expect(leave).to_have_text("Leave (a bot plays for you until you sit again)")
        moves = 0
        shots: set[str] = set()
        while wait_turn_or_end(player.page) == "turn":
            phase = player.page.locator(TABLE).get_attribute("data-phase") or ""
            if phase not in shots:
                assert_fits_phone(player.page, f"the card table, {phase}")
                snapshot(player.page, f"lobby-phone-{phase}")
                shots.add(phase)
            make_a_move(player.page, keyboard=True)
            moves += 1
        assert moves >= 12
        # The frame that ends the game takes away what no longer applies: leaving, the keys.
        expect(leave).to_be_hidden()
        expect(player.page.locator(".card-table .keys")).to_be_hidden()
        snapshot(player.page, "lobby-phone-finished")
        assert_fits_phone(player.page, "the finished table")
        table.refresh_from_db()
        assert table.status == GameTable.Status.FINISHED
        player.page.reload()
        expect(player.page.locator(f'{TABLE}[data-status="finished"]')).to_have_count(1)
        expect(leave).to_have_count(0)
        expect(player.page.locator(".card-table .keys")).to_be_hidden()
        player.assert_clean()


def _play_to_a_trick(table_id: int, host: Any) -> None:
    """Play until the host is to play to a trick already led: the host passes in the
    auction and otherwise makes the first legal move; the bots' moves are played here, as
    the worker plays them."""
    for _ in range(100):
        table = GameTable.objects.get(pk=table_id)
        turns.bot_move(table_id=table_id, ply=table.ply)
        frame = selectors.frame_for(table_id=table_id, viewer=host)
        center = (frame["table_form"] or {}).get("center") or {}
        if frame["status"] != "playing" or (frame["legal"] and center.get("plays")):
            return
        if frame["pick"] is not None:
            cards = frame["pick"]["cards"][: frame["pick"]["count"]]
            action = " ".join([frame["pick"]["verb"], *cards])
        else:
            action = frame["legal"][0]["action"]
        services.table_act(table_id=table_id, user=host, action=action, ply=frame["ply"])
    raise AssertionError("no trick was led to the host")


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def _apart(one: dict[str, float], other: dict[str, float]) -> bool:
    return (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


@pytest.mark.parametrize("variant", ["cutthroat3", "twohand"])
def test_three_and_two_hand_tables_seat_everyone_on_a_phone_and_a_desktop(
    page: Any, problems: Any, variant: str
) -> None:
    """The seats of three and of two around the felt, the player's at the bottom, the
    widow or the stock in the middle, on a phone's width and a desktop's, mid-trick."""
    # Hashed by the tests' own fast hasher: this server runs in the tests' process.
    alice = arena_services.player_register(username="alice", password=PASSWORD)
    sign_in(page, "alice", PASSWORD)
    bot = {"kind": "bot", "bot": {"kind": "reference", "name": "greedy"}}
    players = 3 if variant == "cutthroat3" else 2
    table = services.table_open(
        host=alice.user,
        variant=variant,
        target={"kind": "hands", "value": 3},
        seats=[{"kind": "host"}] + [bot] * (players - 1),
    )
    _play_to_a_trick(table.pk, alice.user)
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator(f"{TABLE}.my-turn")).to_have_count(1)
    expect(page.locator(".trick .played").first).to_be_visible()
    middle = page.locator(".felt .middle")
    expect(middle).to_contain_text("Widow" if players == 3 else "Stock")
    others = ["left", "right"] if players == 3 else ["top"]
    for width, name in ((1280, "desktop"), (390, "phone")):
        page.set_viewport_size({"width": width, "height": 900 if width > 390 else 844})
        if width == 390:
            assert_fits_phone(page, f"the {variant} table")
        snapshot(page, f"lobby-{variant}-{name}")
        mine = _box(page, ".felt .seat-box.pos-bottom.me")
        boxes = [_box(page, f".felt .seat-box.pos-{where}") for where in others]
        centre = _box(page, ".felt .middle")
        assert page.locator(".felt .seat-box").count() == players
        # Every seat and the middle lie apart; the player's own seat is below the rest.
        for one, other in itertools.combinations([mine, centre, *boxes], 2):
            assert _apart(one, other), (name, one, other)
        assert all(box["y"] + box["height"] <= mine["y"] for box in [*boxes, centre]), name
        if players == 3:
            assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"], name
        # No row of the felt is kept empty (three players have no seat at the top).
        rows = page.eval_on_selector(".felt", "felt => getComputedStyle(felt).gridTemplateRows")
        assert "0px" not in rows.split(), (name, rows)
        # The whole hand is in sight: no card of a long hand drops below its frame.
        hand = _box(page, ".my-hand")
        cards = page.locator(".hand-card .card")
        assert cards.count() >= 10
        for index in range(cards.count()):
            card = _box(page, f".hand-card:nth-child({index + 1}) .card")
            assert (
                hand["y"] <= card["y"] and card["y"] + card["height"] <= hand["y"] + hand["height"]
            ), (
                name,
                index,
                hand,
                card,
            )
    assert [error for error in problems.console_errors if "WebSocket" not in error] == []
