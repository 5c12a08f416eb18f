"""A game that is one module, at a human's table in a real browser: the toy
(tests/engine/toy_highcard.py) is registered in the test process, which runs the live
server, and a hand of it is dealt from the play page and played to its end by clicks."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from arena import services as arena_services
from tables.models import PlayTable
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot
from tests.browser.test_play_table import settled
from tests.engine.toy_highcard import registered_toy

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_toy_hand_is_played_at_a_table(page: Any, problems: Problems, live_server: Any) -> None:
    arena_services.player_register(username="tove", password=PASSWORD)
    with registered_toy():
        sign_in(page, "tove", PASSWORD)
        page.goto("/play/")
        page.select_option("#variant", "highcard")
        # The deal form's seats and bots follow the variant: the toy's two seats by name.
        expect(page.locator('#seat option[value="1"]')).to_have_text("South")
        expect(page.locator("#seat option")).to_have_count(2)
        page.select_option("#seat", "1")
        page.select_option("#bots", "reference:random")
        page.click("#play-start-button")
        state = settled(page)
        expect(page.locator(".seat.you strong")).to_have_text("South")
        snapshot(page, "play-toy-start")
        while not page.locator("#result").count():
            ply = state.get_attribute("data-ply")
            page.locator(".card-button.playable").first.click()
            expect(page.locator(f'#play-state:not([data-ply="{ply}"])')).to_have_count(1)
            state = settled(page)
        snapshot(page, "play-toy-result")
        expect(page.locator("#side-scores tbody th")).to_have_text(["North", "South"])
        table = PlayTable.objects.get()
        assert table.variant == "highcard" and table.status == PlayTable.Status.FINISHED
        assert table.result is not None and sum(table.result["side_scores"]) == 3
        expect(page.locator("#side-scores tbody td")).to_have_text(
            [str(score) for score in table.result["side_scores"]]
        )
    assert_clean(problems)
