"""The deal form offers, in a real browser, only the bots the chosen variant has.

Only the pinochle games have a strong reference bot: choosing a Pinnacolo variant
swaps in (htmx, under the site's strict CSP) a bot list without it, and choosing single4
brings it back.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from arena import services as arena_services
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

STRONG = "reference:strong"


def test_the_bots_offered_follow_the_variant(page: Any, problems: Problems) -> None:
    arena_services.player_register(username="vera", password=PASSWORD)
    sign_in(page, "vera", PASSWORD)
    page.goto("/play/")
    expect(page.locator(f'#bots option[value="{STRONG}"]')).to_have_count(1)

    page.select_option("#variant", "pinnacolo3")
    # The swapped-in fields say which variant they are for: wait for exactly that.
    expect(page.locator('#bots[data-variant="pinnacolo3"]')).to_have_count(1)
    expect(page.locator(f'#bots option[value="{STRONG}"]')).to_have_count(0)
    expect(page.locator("#bots option")).to_have_text(
        ["random (reference bot)", "greedy (reference bot)"]
    )
    expect(page.locator("#seat option")).to_have_count(3)
    expect(page.locator("#partner")).to_have_count(0)
    snapshot(page, "play-deal-form-pinnacolo3")

    page.select_option("#variant", "single4")
    expect(page.locator('#bots[data-variant="single4"]')).to_have_count(1)
    expect(page.locator(f'#bots option[value="{STRONG}"]')).to_have_count(1)
    expect(page.locator(f'#partner option[value="{STRONG}"]')).to_have_count(1)
    snapshot(page, "play-deal-form-single4")

    page.goto("/play/challenges/")
    page.select_option("#c-variant", "pinnacolo2")
    expect(page.locator(f'#c-opponent option[value="{STRONG}"]')).to_have_count(0)
    expect(page.locator("#c-opponent option")).to_have_count(2)
    page.select_option("#c-variant", "double4")
    expect(page.locator(f'#c-opponent option[value="{STRONG}"]')).to_have_count(1)
    assert_clean(problems)
