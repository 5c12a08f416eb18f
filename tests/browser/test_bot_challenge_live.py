"""A bot author, in a browser and with a real Celery worker: she uploads a version and
watches it pass validation, challenges another player's bot from its page, and watches the
match go from queued to done, without reloading either page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from arena import services
from arena.models import Match
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version
from tests.arena.workers import celery_worker, require_worker_services
from tests.browser.conftest import Problems, assert_clean, assert_fits_phone, sign_in, snapshot

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PASSWORD = "cards-and-trumps-77"
# Set on the page once it is loaded: still there later, the page was never reloaded.
MARK = "window.__notReloaded = true"
STILL_MARKED = "window.__notReloaded === true"


def test_an_author_challenges_a_bot_from_its_page_and_watches_the_match_finish(
    page: Any, problems: Problems, tmp_path: Path, settings: Any
) -> None:
    require_worker_services()
    settings.SANDBOX_MODE = "plain"
    alice = services.player_register(username="alice", password=PASSWORD)
    bob = services.player_register(username="bob", password=PASSWORD)
    theirs = trusted_version(bob, "steady", RANDOM_BOT)
    mine = services.bot_create(owner=alice, name="first", variant="auction4")
    module = tmp_path / "first.py"
    module.write_bytes(FIRST_LEGAL_BOT)
    sign_in(page, "alice", PASSWORD)

    # Her upload is validated by the worker while her bot's page follows it.
    with celery_worker(tmp_path, "validator", SANDBOX_MODE="plain"):
        page.goto(f"/bots/{mine.pk}/")
        page.set_input_files("#id_file", str(module))
        with page.expect_navigation():
            page.click("form[enctype] button[type=submit]")
        versions = page.locator("#bot-versions")
        expect(versions).to_contain_text("pending")
        page.evaluate(MARK)
        expect(versions.locator("tbody tr").first).to_contain_text("active")
        assert page.evaluate(STILL_MARKED)
        expect(page.locator("#bot-versions[hx-trigger]")).to_have_count(0)
        # Her bot can be challenged now, and its page says so without a reload (by others:
        # its one version cannot play itself).
        expect(page.locator("#challenge")).to_contain_text("A version cannot play itself")
        snapshot(page, "bot-version-validated-live")

    # No worker now: the challenge waits in the queue until one starts.
    page.goto(f"/bots/{theirs.bot_id}/")
    form = page.locator("#challenge-form")
    expect(form.locator("#challenge-version")).to_contain_text("first v1")
    expect(form.locator("#challenge-opponent")).to_contain_text("steady v1 (latest)")
    assert_fits_phone(page, "a bot's page with its challenge form")
    snapshot(page, "bot-challenge-form-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    # The browser keeps the boards within the API's limits (the server refuses the rest
    # too: tests/arena/test_bot_challenge_page.py).
    boards = page.locator("#challenge-boards")
    assert (boards.get_attribute("min"), boards.get_attribute("max")) == ("1", "1000")
    page.fill("#challenge-boards", "2")
    page.click("#challenge-form button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert (match.version_x.bot_id, match.version_y_id, match.board_count) == (
        mine.pk,
        theirs.pk,
        2,
    )
    expect(page.locator(".messages")).to_contain_text(f"Your challenge is match {match.pk}")
    status = page.locator("#match-live dl.facts")
    expect(status).to_contain_text("queued")
    expect(status).to_contain_text("1st in the queue")
    assert_fits_phone(page, "a queued match's page")
    snapshot(page, "match-queued-phone")
    page.evaluate(MARK)

    with celery_worker(tmp_path, "player", SANDBOX_MODE="plain"):
        expect(status).to_contain_text("done")
    expect(page.locator("#match-live dl.facts")).to_contain_text("X's total")
    expect(page.locator("table.boards tbody tr")).to_have_count(4)
    expect(page.locator("#match-live[hx-trigger]")).to_have_count(0)
    assert page.evaluate(STILL_MARKED)
    assert_fits_phone(page, "a finished match's page")
    snapshot(page, "match-finished-live-phone")
    # The opponent's page lists the match among its bot's matches, done.
    page.goto(f"/bots/{theirs.bot_id}/")
    expect(page.locator("#bot-matches")).to_contain_text("done")
    assert_clean(problems)
