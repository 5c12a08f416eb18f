"""A knockout's bracket in a real browser, on a phone: reached from the season's page, it
shows the seeds, the byes, the results linked to their matches and the champion, and
scrolls inside its own frame rather than the page.

A finished six-bot knockout is written into the test database as the services would have
left it (tests/leagues/test_knockout_season.py plays one through the services).
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.models import Bot, BotVersion, Match
from leagues.models import Entry, Fixture, League, Round, Season
from tests.browser.conftest import PHONE, Problems, assert_clean, assert_fits_phone, snapshot
from tests.browser.test_arena_pages import player, version
from tests.browser.test_league_pages import league_match

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "the-patient-meld-counter",  # seed 1, the champion
    "bishop",
    "castle",
    "dune",
    "a-rather-long-bot-name-that-wraps",
    "fen",
]


def _tie(round_: Round, x: Entry, y: Entry, score_x: int, boards: list[int]) -> Fixture:
    assert x.version is not None and y.version is not None
    match = league_match(x.version, y.version, score_x)
    Match.objects.filter(pk=match.pk).update(board_results=boards)
    return Fixture.objects.create(
        round=round_, entry_x=x, entry_y=y, version_x=x.version, version_y=y.version, match=match
    )


def build_knockout() -> tuple[League, dict[str, Fixture]]:
    olga, alice = player("olga"), player("alice")
    league = League.objects.create(
        name="Winter Cup",
        organiser=olga,
        variant="auction4",
        format=League.Format.KNOCKOUT,
        boards_per_match=3,
    )
    season = Season.objects.create(
        league=league, number=1, status=Season.Status.FINISHED, round_count=3
    )
    seeds: dict[int, Entry] = {}
    for number, name in enumerate(NAMES, start=1):
        bot = Bot.objects.create(owner=alice, name=name, variant="auction4")
        seeds[number] = Entry.objects.create(
            season=season, bot=bot, version=version(bot, 1, BotVersion.Status.ACTIVE), number=number
        )
    first, second, final = (
        Round.objects.create(season=season, number=number, seed=number, status="complete")
        for number in (1, 2, 3)
    )
    # Six in a bracket of eight: 1 and 2 have byes; 5 beats 4, 3 draws with 6 but won more
    # boards; then 1 beats 5, 2 goes through a failed match; 1 wins the final.
    for seed in (1, 2):
        Fixture.objects.create(round=first, entry_x=seeds[seed], walkover=Fixture.Walkover.BYE)
    ties = {
        "4v5": _tie(first, seeds[4], seeds[5], -30, [-30, 10, -10]),
        "3v6": _tie(first, seeds[3], seeds[6], 0, [20, 10, -30]),
        "1v5": _tie(second, seeds[1], seeds[5], 40, [40, 0, 0]),
        "2v3": _tie(second, seeds[2], seeds[3], 0, []),
        "final": _tie(final, seeds[1], seeds[2], 25, [25, -5, 5]),
    }
    Match.objects.filter(pk=ties["2v3"].match_id).update(status=Match.Status.FAILED, score_x=None)
    return league, ties


def test_the_bracket_shows_seeds_byes_results_and_the_champion_on_a_phone(
    page: Any, problems: Problems
) -> None:
    league, ties = build_knockout()
    page.set_viewport_size(PHONE)
    page.goto(f"/leagues/{league.pk}/seasons/1/")
    page.click("text=The bracket")
    page.wait_for_url(f"**/leagues/{league.pk}/seasons/1/bracket/")
    assert page.locator("h1").inner_text() == "Winter Cup, season 1: bracket"
    assert page.locator("p.champion").inner_text() == (
        "Champion: alice/the-patient-meld-counter (seed 1)"
    )
    rounds = page.locator(".bracket-round h3").all_inner_texts()
    assert rounds == ["Quarter-finals (complete)", "Semi-finals (complete)", "Final (complete)"]
    quarter_finals = page.locator(".bracket-round").nth(0).locator(".tie")
    assert quarter_finals.count() == 4
    assert quarter_finals.nth(0).locator(".bye").count() == 1
    assert "drawn: more boards won, 2 to 1" in quarter_finals.nth(3).inner_text()
    semi_finals = page.locator(".bracket-round").nth(1)
    assert "the match failed: the better seed goes through" in semi_finals.inner_text()
    through = page.locator(".side.advanced .name").all_inner_texts()
    assert [name.split("/")[1].split()[0] for name in through] == [
        "the-patient-meld-counter",
        "a-rather-long-bot-name-that-wraps",
        "bishop",
        "castle",
        "the-patient-meld-counter",
        "bishop",
        "the-patient-meld-counter",
    ]

    # The bracket is wider than the phone: it scrolls inside its own frame, not the page.
    frame = page.locator("section .table-wrap")
    assert frame.evaluate("element => element.scrollWidth > element.clientWidth")
    assert page.locator(".scroll-hint").is_visible()
    assert_fits_phone(page, "the bracket")
    snapshot(page, "knockout-bracket-phone")

    final = ties["final"].match_id
    final_link = page.locator(f"a[href='/matches/{final}/']")
    final_link.scroll_into_view_if_needed()
    final_link.click()
    page.wait_for_url(f"**/matches/{final}/")
    assert page.locator("h1").inner_text() == f"Match {final}"

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/leagues/{league.pk}/seasons/1/bracket/")
    assert not page.locator(".scroll-hint").is_visible()
    snapshot(page, "knockout-bracket-desktop")
    assert_clean(problems)
