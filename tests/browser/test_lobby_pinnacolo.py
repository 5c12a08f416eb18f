"""A hand of Pinnacolo at a card table (RULES.md section 8), played on a phone's touch
screen: the person draws or takes the pile by a button, and lays melds, lays off and
discards by tapping the cards in the hand, the table offering only the moves the picked
cards make (filtered from the legal actions, not a button for every combination); the melds
show on the table as the cards themselves. A tap lands where the person sees the card, however
many cards the hand holds (a taken pile makes it long) and whether a card is lifted.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from arena.seeding import seed_commitment
from lobby import services
from lobby.models import GameTable
from tests.arena.conftest import PASSWORD
from tests.arena.workers import require_worker_services
from tests.browser.conftest import assert_fits_phone, snapshot
from tests.browser.lobby_table import (
    TABLE,
    Seat,
    asgi_site,
    open_context,
    ply,
    register,
    sign_in,
    wait_turn_or_end,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BOT = {"kind": "bot", "bot": {"kind": "reference", "name": "greedy"}}
DEAL_SEED = 2026
"""The table's seed: a deal whose hand offers a meld, and picked cards that make some of
several moves."""


def _cards_of(action: str) -> list[str]:
    """The hand cards an action names (a wild laid as ``JK=5D`` is the joker)."""
    return [word.split("=")[0] for word in action.split()[1:] if not word.isdigit()]


def _pick(page: Any, cards: list[str]) -> None:
    """Pick these cards in the hand, one copy each (a deck of two has twins)."""
    for code, count in Counter(cards).items():
        for _ in range(count):
            page.locator(f'.hand-card[data-card="{code}"]:not(.picked)').first.tap()


def _legal(seat: Seat) -> list[str]:
    """The legal actions of the frame the page shows: the last one its socket brought, or,
    before any has (the first turn may be the person's), the one drawn into the page."""
    now = ply(seat.page)
    frames = [frame for frame in seat.frames if frame["ply"] == now]
    if frames:
        frame = frames[-1]
    else:
        frame = json.loads(seat.page.locator("#first-frame").text_content() or "{}")
        assert frame.get("ply") == now, (now, frame.get("ply"))
    return [entry["action"] for entry in frame["legal"]]


def test_a_pinnacolo_hand_by_tapping_cards_on_a_phone(browser: Any, tmp_path: Path) -> None:
    require_worker_services()
    alice = register("alice")
    with asgi_site(tmp_path) as url:
        player = open_context(browser, url, phone=True, touch=True)
        sign_in(player.page, "alice", PASSWORD)
        table = services.table_open(
            host=alice.user,
            variant="pinnacolo",
            target={"kind": "hands", "value": 1},
            seats=[{"kind": "host"}, BOT, BOT, {"kind": "open"}],
        )
        # The deal is fixed, so that the hand offers what the test looks for (a meld, and
        # picked cards that make some moves of several): with a seat still open nothing is
        # dealt yet, and the last seat given to a bot starts the game on this seed.
        GameTable.objects.filter(pk=table.pk).update(
            seed=DEAL_SEED, commitment=seed_commitment(DEAL_SEED)
        )
        services.table_fill(table_id=table.pk, user=alice.user, seat=3, bot=BOT["bot"])
        player.page.goto(f"/tables/{table.pk}/")
        laid = offered_several = False
        while wait_turn_or_end(player.page) == "turn":
            expect(player.page.locator(f'{TABLE}[data-connection="live"]')).to_have_count(1)
            before = ply(player.page)
            legal = _legal(player)
            melds = [action for action in legal if action.split()[0] in ("meld", "add")]
            calls = [action for action in legal if not _cards_of(action)]
            if calls:
                # Draw or take the pile: moves of no card are buttons of their own.
                wanted = next((a for a in calls if a.startswith("take")), calls[0])
                player.page.locator(f'.moves button[data-action="{wanted}"]').tap()
            elif melds and player.page.locator(f'.hand-card[data-action="{melds[0]}"]').count():
                # Where each card makes one move only, a click on the card makes it.
                player.page.locator(f'.hand-card[data-action="{melds[0]}"]').tap()
                laid = True
            elif melds:
                chosen = melds[0]
                _pick(player.page, _cards_of(chosen))
                offers = player.page.locator(".offers .offer")
                # Only the moves those very cards make are offered, each once.
                shown = [offers.nth(i).get_attribute("data-action") for i in range(offers.count())]
                same = [a for a in legal if sorted(_cards_of(a)) == sorted(_cards_of(chosen))]
                assert sorted(shown) == sorted(same)
                offered_several = offered_several or len(shown) < len(legal) - 1
                if not laid:
                    assert_fits_phone(player.page, "the Pinnacolo table, cards picked")
                    snapshot(player.page, "lobby-pinnacolo-offer-phone")
                player.page.locator(f'.offers button[data-action="{chosen}"]').tap()
                laid = True
            else:
                discard = next(a for a in legal if a.startswith("discard"))
                card = _cards_of(discard)[0]
                direct = player.page.locator(f'.hand-card.playable[data-action="{discard}"]')
                if direct.count():
                    direct.first.tap()
                else:
                    _pick(player.page, [card])
                    player.page.locator(f'.offers button[data-action="{discard}"]').tap()
            expect(player.page.locator(f'{TABLE}:not([data-ply="{before}"])')).to_have_count(1)
        table.refresh_from_db()
        assert table.status == GameTable.Status.FINISHED
        assert laid and offered_several
        # The melds lie on the table as their cards, under the seat that laid them.
        expect(player.page.locator(".seat-box .meld .card").first).to_be_visible()
        assert_fits_phone(player.page, "the Pinnacolo table")
        snapshot(player.page, "lobby-pinnacolo-finished-phone")
        player.page.set_viewport_size({"width": 1280, "height": 900})
        snapshot(player.page, "lobby-pinnacolo-finished")
        player.assert_clean()
