"""The league pages and the home page in a real browser.

A season with two divisions and a played round is written into the test database; the
organisers' and entrants' forms then go through the same services as the API.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from arena.models import Bot, BotVersion, Match, Player
from leagues.models import Division, Entry, Fixture, League, Round, Season
from tests.browser.conftest import PHONE, Problems, assert_clean, assert_fits_phone, snapshot
from tests.browser.test_arena_pages import INLINE, PASSWORD, player, sign_in, version

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class Leagues:
    olga: Player
    alice: Player
    bob: Player
    league: League
    season: Season
    played: Match
    versions: dict[str, BotVersion]


def league_match(x: BotVersion, y: BotVersion, score_x: int) -> Match:
    return Match.objects.create(
        variant="auction4",
        rules={},
        seed=1,
        board_count=1,
        version_x=x,
        version_y=y,
        decision_ms=500,
        bank_ms=20000,
        kind=Match.Kind.LEAGUE,
        status=Match.Status.DONE,
        finished=timezone.now(),
        score_x=score_x,
        mean_x=float(score_x),
        ci95=0.0,
        board_results=[score_x],
    )


def build_leagues() -> Leagues:
    olga, alice, bob, carol = (player(name) for name in ("olga", "alice", "bob", "carol"))
    versions = {}
    for owner, name in ((alice, "ace"), (bob, "bishop"), (carol, "castle"), (carol, "dune")):
        bot = Bot.objects.create(owner=owner, name=name, variant="auction4")
        versions[name] = version(bot, 1, "active")
    league = League.objects.create(
        name="Autumn League",
        description="Four bots, two divisions.",
        organiser=olga,
        variant="auction4",
        format=League.Format.ROUND_ROBIN,
        boards_per_match=1,
        decision_ms=500,
        bank_ms=20000,
    )
    season = Season.objects.create(
        league=league, number=1, status=Season.Status.RUNNING, round_count=1
    )
    premier = Division.objects.create(season=season, name="Premier", level=1, relegated=1)
    second = Division.objects.create(season=season, name="Second", level=2, promoted=1)
    round_ = Round.objects.create(season=season, number=1, seed=7)
    played = None
    for division, (x, y), score in (
        (premier, ("ace", "bishop"), 30),
        (second, ("castle", "dune"), -20),
    ):
        entry_x, entry_y = (
            Entry.objects.create(
                season=season, division=division, bot=versions[name].bot,
                version=versions[name], number=number,
            )
            for number, name in ((1, x), (2, y))
        )  # fmt: skip
        match = league_match(versions[x], versions[y], score)
        played = played or match
        Fixture.objects.create(
            round=round_, division=division, entry_x=entry_x, entry_y=entry_y,
            version_x=versions[x], version_y=versions[y], match=match,
        )  # fmt: skip
    assert played is not None
    return Leagues(olga, alice, bob, league, season, played, versions)


@pytest.fixture
def leagues() -> Leagues:
    return build_leagues()


def test_the_league_list_and_page_show_format_rules_time_control_and_organiser(
    page: Any, problems: Problems, leagues: Leagues
) -> None:
    page.goto("/leagues/")
    page.click("text=Autumn League")
    page.wait_for_url(f"**/leagues/{leagues.league.pk}/")
    facts = page.locator("dl.facts").inner_text()
    for fact in ("olga", "Round robin", "the variant's standard rules", "500 ms a decision",
                 "a bank of 20000 ms a board",
                 "points (win 2, draw 1, loss 0), then board-score difference, then "
                 "Sonneborn-Berger"):  # fmt: skip
        assert fact in facts
    assert "Premier, Second" in page.locator("table").inner_text()
    snapshot(page, "league")
    assert_clean(problems)


def test_the_season_page_shows_fixtures_results_and_marked_standings(
    page: Any, problems: Problems, leagues: Leagues
) -> None:
    page.goto(f"/leagues/{leagues.league.pk}/seasons/1/")
    premier, second = page.locator("table.standings").all()
    # Premier: ace beat bishop by 30 board points; bishop holds the relegation place.
    assert premier.locator("tbody tr").nth(0).inner_text().split()[:2] == ["1", "alice/ace"]
    assert "relegated" in (premier.locator("tbody tr").nth(1).get_attribute("class") or "")
    # Second: dune (Y) beat castle; dune holds the promotion place.
    top = second.locator("tbody tr").nth(0)
    assert "carol/dune" in top.inner_text() and top.get_attribute("class") == "promoted"
    assert "promoted" in top.locator(".visually-hidden").text_content()
    fixtures = page.locator("table.fixtures tbody tr")
    assert fixtures.count() == 2
    assert "X won" in fixtures.nth(0).inner_text() and "2 : 0" in fixtures.nth(0).inner_text()
    assert "Y won" in fixtures.nth(1).inner_text()
    page.click(f"text=match {leagues.played.pk}")
    page.wait_for_url(f"**/matches/{leagues.played.pk}/")
    assert page.locator("h1").inner_text() == f"Match {leagues.played.pk}"
    page.go_back()
    snapshot(page, "season")
    assert_clean(problems)


def test_the_season_page_reads_in_a_fixed_number_of_queries(
    leagues: Leagues, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(12):
        assert Client().get(f"/leagues/{leagues.league.pk}/seasons/1/").status_code == 200


def test_an_organiser_creates_a_league_and_opens_a_season_with_divisions(
    page: Any, problems: Problems, leagues: Leagues
) -> None:
    sign_in(page, "olga", PASSWORD)
    page.goto("/leagues/new/")
    page.fill("#id_name", "Winter Swiss")
    page.select_option("#id_format", "swiss")
    page.fill("#id_boards", "2")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/leagues/\d+/$"))
    league = League.objects.get(name="Winter Swiss")
    assert league.format == "swiss" and league.boards_per_match == 2
    assert league.organiser == leagues.olga
    page.fill("#id_planned_rounds", "3")
    page.fill("#id_divisions", "Gold, 0, 1\nSilver, 1")
    page.click("text=Open the season")
    page.wait_for_url(f"**/leagues/{league.pk}/seasons/1/")
    assert page.locator("h3").all_inner_texts()[:2] == ["Gold (1 relegated)", "Silver (1 promoted)"]
    season = league.seasons.get()
    assert season.planned_rounds == 3
    assert list(season.divisions.values_list("name", "promoted", "relegated")) == [
        ("Gold", 0, 1),
        ("Silver", 1, 0),
    ]
    snapshot(page, "season-new")
    assert_clean(problems)


def test_an_organiser_sets_and_stops_the_timetable_from_the_league_page(
    page: Any, problems: Problems, leagues: Leagues
) -> None:
    sign_in(page, "olga", PASSWORD)
    page.goto(f"/leagues/{leagues.league.pk}/")
    page.fill("#id_every_minutes", "45")
    page.click("text=Set the timetable")
    page.wait_for_url(f"**/leagues/{leagues.league.pk}/")
    assert "the next round every 45 minutes" in page.locator("dl.facts").inner_text()
    league = League.objects.get(pk=leagues.league.pk)
    assert league.timetable is not None and league.timetable.interval.every == 45
    snapshot(page, "league-timetable")
    page.click("text=Stop the timetable")
    page.wait_for_url(f"**/leagues/{leagues.league.pk}/")
    assert "rounds are scheduled by the organiser" in page.locator("dl.facts").inner_text()
    assert League.objects.get(pk=leagues.league.pk).timetable is None
    assert_clean(problems)


def test_bot_owners_enter_and_the_organiser_schedules_a_round(
    page: Any, problems: Problems, leagues: Leagues, settings: Any
) -> None:
    settings.SANDBOX_MODE = "plain"
    season = Season.objects.create(league=leagues.league, number=2)
    for username, bot in (("alice", "ace"), ("bob", "bishop")):
        sign_in(page, username, PASSWORD)
        page.goto(f"/leagues/{leagues.league.pk}/seasons/2/")
        page.select_option("#id_bot", label=bot)
        with page.expect_navigation():
            page.click('main button:text-is("Enter")')
        assert f"{bot} is entered in season 2" in page.locator(".messages").inner_text()
        page.wait_for_load_state("networkidle")
        with page.expect_navigation(wait_until="networkidle"):
            page.click("text=Sign out")
    assert sorted(season.entries.values_list("bot__name", flat=True)) == ["ace", "bishop"]
    sign_in(page, "olga", PASSWORD)
    page.goto(f"/leagues/{leagues.league.pk}/seasons/2/")
    assert page.locator("#id_round_number").input_value() == "1"
    with page.expect_navigation():
        page.click("text=Schedule round")
    assert "Round 1 is scheduled" in page.locator(".messages").inner_text()
    fixture = Fixture.objects.get(round__season=season)
    assert page.locator(f"table.fixtures a[href='/matches/{fixture.match_id}/']").count() == 1
    snapshot(page, "season-scheduled")
    assert_clean(problems)


def test_bad_league_input_is_refused_with_a_message_and_changes_nothing(
    leagues: Leagues,
) -> None:
    olga = Client()
    olga.login(username="olga", password=PASSWORD)
    base = f"/leagues/{leagues.league.pk}/"
    garbled = olga.post(f"{base}seasons/", {"divisions": "Gold, one, two"})
    assert garbled.status_code == 400
    assert "line 1: write a division as &#x27;name, promoted, relegated&#x27;" in garbled.text
    upside_down = olga.post(f"{base}seasons/", {"divisions": "Gold, 1, 0"})
    assert upside_down.status_code == 400
    assert "nobody can be promoted out of the top division" in upside_down.text
    assert leagues.league.seasons.count() == 1
    open_season = Season.objects.create(league=leagues.league, number=2)
    assert "Schedule a round" not in olga.get(f"{base}seasons/1/").text  # all its rounds are
    assert "Schedule a round" in olga.get(f"{base}seasons/2/").text
    skipped = olga.post(f"{base}seasons/2/rounds/", {"number": "3"})
    assert skipped.status_code == 400 and "the next round to schedule is 1" in skipped.text
    assert not open_season.rounds.exists()
    refused = olga.post(
        "/leagues/new/", {"name": "Odd", "variant": "auction4", "format": "elimination"}
    )
    assert refused.status_code == 400 and "unknown league format" in refused.text
    assert not League.objects.filter(name="Odd").exists()


def test_only_the_organiser_schedules_and_only_owners_enter_their_bots(
    leagues: Leagues,
) -> None:
    Season.objects.create(league=leagues.league, number=2)
    alice = Client()
    alice.login(username="alice", password=PASSWORD)
    base = f"/leagues/{leagues.league.pk}/seasons/2/"
    response = alice.post(f"{base}rounds/", {"number": "1"})
    assert response.status_code == 403
    assert "only the league's organiser can schedule rounds" in html.unescape(response.text)
    bishop = leagues.versions["bishop"].bot
    theft = alice.post(f"{base}entries/", {"bot": str(bishop.pk)})
    assert theft.status_code == 403 and "only a bot" in theft.text
    assert not Entry.objects.filter(season__number=2).exists()
    opening = alice.post(f"/leagues/{leagues.league.pk}/seasons/", {"name": "mine"})
    assert opening.status_code == 403 and leagues.league.seasons.count() == 2


def test_the_home_page_shows_leaderboards_recent_matches_and_running_leagues(
    page: Any, problems: Problems, leagues: Leagues
) -> None:
    from arena.models import Rating

    Rating.objects.create(
        version=leagues.versions["ace"], variant="auction4", elo=1612, elo_low=1550, elo_high=1680
    )
    page.goto("/")
    assert page.locator("h1").inner_text() == "Pinochle Arena"
    assert "Submit a bot in five minutes" in page.locator("#start-heading").inner_text()
    assert page.locator("a[href='/protocol/']").count() >= 1
    top = page.locator("#leaderboards table tbody tr").first.inner_text()
    assert "alice/ace" in top and "1612" in top
    assert page.locator("table.matches tbody tr").count() == 2
    assert page.locator("text=Autumn League").count() == 1
    assert page.locator("a[href='/tournaments/']").count() >= 1
    snapshot(page, "home-full")
    assert_clean(problems)


def test_the_home_page_reads_in_a_fixed_number_of_queries(
    leagues: Leagues, django_assert_max_num_queries: Any
) -> None:
    from django.db import connection

    from arena.variants import variant_names

    # Counts, the leaderboards' heads (one query, or one a variant where UNION cannot
    # limit its parts), their rows, recent matches, running leagues.
    union = connection.features.supports_slicing_ordering_in_compound
    with django_assert_max_num_queries(4 + (1 if union else len(variant_names())) + 3):
        assert Client().get("/").status_code == 200


def test_every_league_page_fits_a_phone(page: Any, problems: Problems, leagues: Leagues) -> None:
    page.set_viewport_size(PHONE)
    sign_in(page, "olga", PASSWORD)
    for name, path in [
        ("leagues", "/leagues/"),
        ("league", f"/leagues/{leagues.league.pk}/"),
        ("season", f"/leagues/{leagues.league.pk}/seasons/1/"),
        ("league-new", "/leagues/new/"),
    ]:
        page.goto(path)
        assert_fits_phone(page, name)
        snapshot(page, f"phone-{name}")
    assert_clean(problems)


def test_no_league_page_needs_inline_scripts_or_styles(leagues: Leagues) -> None:
    client = Client()
    client.login(username="olga", password=PASSWORD)
    for path in [
        "/leagues/",
        f"/leagues/{leagues.league.pk}/",
        f"/leagues/{leagues.league.pk}/seasons/1/",
        "/leagues/new/",
    ]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert INLINE.search(response.text) is None, path
