"""Two people and two bots play a game at one table while a third person watches, each in
a browser of their own, over the table's socket.

Every move reaches all three pages; one player reloads mid-hand and carries on; the other
lets the clock run out once and the substitute bot plays that decision; the result page and
the score pad agree with the engine's account of the game; and no frame a page received
names a card its seat (or the spectator) could not know at that ply, while the same search
finds the hidden cards in the frames of those allowed to see them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from lobby import services
from lobby.models import GameTable
from tests.arena.conftest import PASSWORD
from tests.arena.workers import require_worker_services, wait_for
from tests.browser.conftest import snapshot
from tests.browser.lobby_engine import engine_scores, frame_faces, known_faces
from tests.browser.lobby_table import (
    TABLE,
    Seat,
    asgi_site,
    make_a_move,
    open_context,
    ply,
    register,
    sign_in,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

GREEDY = {"kind": "bot", "bot": {"kind": "reference", "name": "greedy"}}


def test_two_people_two_bots_and_a_spectator(browser: Any, tmp_path: Path) -> None:
    require_worker_services()
    alice, _, _ = (register(name) for name in ("alice", "bob", "carol"))
    with asgi_site(tmp_path, clocks=True) as url:
        north = open_context(browser, url)
        east = open_context(browser, url, phone=True)
        watcher = open_context(browser, url)
        sign_in(north.page, "alice", PASSWORD)
        sign_in(east.page, "bob", PASSWORD)
        sign_in(watcher.page, "carol", PASSWORD)

        # Alice opens the table (north, seat 0) with bob invited at east; bots elsewhere.
        # The clock is short so that a decision left alone runs out within the test.
        table = services.table_open(
            host=alice.user,
            variant="auction4",
            target={"kind": "hands", "value": 1},
            clock={"decision_s": 5, "bank_s": 20},
            seats=[{"kind": "host"}, {"kind": "invite"}, GREEDY, GREEDY],
        )
        north.page.goto(f"/tables/{table.pk}/")
        expect(north.page.locator("#invite-link")).to_be_visible()
        invitation = north.page.locator("#invite-link").inner_text()
        east.page.goto(invitation.replace(url, ""))
        snapshot(east.page, "lobby-invitation-phone")
        east.page.locator('[data-seat="1"] button[data-control="sit"]').click()
        watcher.page.goto(f"/tables/{table.pk}/")
        for person in (north, east, watcher):
            expect(person.page.locator(f'{TABLE}[data-connection="live"]')).to_have_count(1)
            expect(person.page.locator(f'{TABLE}[data-status="playing"]')).to_have_count(1)

        reloaded = timed_out = False
        moves = 0
        seats: dict[int, Seat] = {0: north, 1: east}
        while True:
            table.refresh_from_db()
            if table.status == GameTable.Status.FINISHED:
                break
            current = _to_act(table)
            mover = None if current is None else seats.get(current)
            if mover is None:
                _wait_for_ply_change(table)
                continue
            # Every page shows the table at the same ply before anyone moves.
            for other in (north, east, watcher):
                expect(other.page.locator(f'{TABLE}[data-ply="{table.ply}"]')).to_have_count(1)
            # Both happen in the auction's first round, where every seat calls: a game
            # dealt at random may be thrown in soon after it.
            if mover is east and not timed_out:
                # Bob lets his clock run out: the substitute plays his decision.
                before = table.ply
                expect(east.page.locator(".seat-box.me .clock.running")).to_have_count(1)
                _wait_for_ply_change(table, timeout=120)
                # The move was the substitute's: bob's page sent nothing for that ply.
                assert not [sent for sent in east.sent if sent.get("ply") == before]
                expect(east.page.locator(f'{TABLE}:not([data-ply="{before}"])')).to_have_count(1)
                timed_out = True
                continue
            if mover is north and not reloaded:
                north.page.reload()
                expect(north.page.locator(f'{TABLE}[data-ply="{table.ply}"]')).to_have_count(1)
                expect(north.page.locator(f'{TABLE}[data-connection="live"]')).to_have_count(1)
                reloaded = True
                snapshot(north.page, "lobby-together-after-reload")
            make_a_move(mover.page)
            moves += 1
            if moves in (3, 12):
                snapshot(north.page, f"lobby-together-north-{moves}")
                snapshot(east.page, f"lobby-together-east-phone-{moves}")
                snapshot(watcher.page, f"lobby-together-watcher-{moves}")

        assert reloaded and timed_out
        table.refresh_from_db()
        for person in (north, east, watcher):
            expect(person.page.locator(f'{TABLE}[data-status="finished"]')).to_have_count(1)
        snapshot(north.page, "lobby-together-finished")

        # Every move reached every page: each saw the final ply by its socket.
        for person in (north, east, watcher):
            assert person.frames, "no frame came by the socket"
            assert person.frames[-1]["ply"] == table.ply
            assert ply(person.page) == table.ply

        # The result page and the score pad agree with the engine.
        hands, totals = engine_scores(table)
        north.page.goto(f"/tables/{table.pk}/result/")
        for side, total in enumerate(totals):
            expect(north.page.locator(f'#result-pad [data-total="{side}"]')).to_have_text(
                str(total)
            )
        assert north.frames[-1]["scores"]["hands"] == hands
        assert north.frames[-1]["scores"]["totals"] == totals
        snapshot(north.page, "lobby-together-result")
        # Once the game is over its hands are replayed in the arena's viewer.
        north.page.get_by_role("link", name="Replay hand 1").click()
        expect(north.page.locator("#viewer")).to_be_visible()
        expect(north.page.locator("#table .seat").first).to_be_visible()
        snapshot(north.page, "lobby-together-replay")

        # No frame names a card its reader could not know at its ply.
        hidden_seen = {"seat": False, "spectator": False}
        for reader, seat in ((north, 0), (east, 1), (watcher, None)):
            known = known_faces(table, seat)
            for frame in reader.frames:
                leaked = frame_faces(frame) - known[frame["ply"]]
                assert not leaked, (seat, frame["ply"], sorted(leaked))
            # The search can fail: mid-game, the cards hidden from this reader are named in
            # the frames of a reader allowed to see them.
            allowed = north if seat is None else (east if seat == 0 else north)
            for frame in allowed.frames:
                if frame["status"] != "playing":
                    continue
                hidden = frame_faces(frame) - known[frame["ply"]]
                if hidden:
                    hidden_seen["spectator" if seat is None else "seat"] = True
                    break
        assert hidden_seen == {"seat": True, "spectator": True}


def _to_act(table: GameTable) -> int | None:
    from lobby.services import replay_of

    return replay_of(table).current


def _wait_for_ply_change(table: GameTable, timeout: float = 120) -> None:
    before = table.ply

    def moved() -> bool:
        table.refresh_from_db()
        return table.ply != before or table.status == GameTable.Status.FINISHED

    wait_for(moved, timeout, "the next move at the table")
