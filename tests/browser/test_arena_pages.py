"""The arena's pages in a real browser: leaderboards, bots, matches, players, the protocol.

A small arena is written straight into the test database (players, bots, versions, a few
finished matches with their games and rating history), so each page has something to show
without playing matches; creating bots and uploading versions go through the pages.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from playwright.sync_api import expect
from rest_framework.authtoken.models import Token

from arena.elo import Tally
from arena.models import Board, Bot, BotVersion, Game, Match, Player, Rating, RatingChange
from arena.pages import charts
from tests.arena.test_board_ratings import _finish as finish
from tests.arena.test_board_ratings import _version as rated_version
from tests.browser.conftest import PHONE, Problems, assert_clean, assert_fits_phone, snapshot
from tests.browser.conftest import sign_in as sign_in_only

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "cards-and-trumps-77"
GOOD_BOT = b"def act(observation, legal):\n    return legal[0]\n"
# Text that only the owner of alice's bot may ever receive: asserted absent for others.
SECRET_LOG = "BUILD-LOG-OF-ALICE-ONLY"
SECRET_REASON = "validation failed: timeout at seat 0: REASON-FOR-ALICE-ONLY"
ALICE_STDERR = "STDERR-OF-ALICE-ONLY"
BOB_STDERR = "STDERR-OF-BOB-ONLY"


@dataclass
class Arena:
    alice: Player
    bob: Player
    greedy: Bot
    steady: Bot
    active: BotVersion
    disabled: BotVersion
    opponent: BotVersion
    match: Match


def player(username: str) -> Player:
    user = User.objects.create_user(username, password=PASSWORD)
    return Player.objects.create(user=user, display_name=username.title())


def version(bot: Bot, number: int, status: str, reason: str = "", log: str = "") -> BotVersion:
    return BotVersion.objects.create(
        bot=bot,
        number=number,
        kind=BotVersion.Kind.MODULE,
        source=GOOD_BOT,
        sha256=hashlib.sha256(GOOD_BOT).hexdigest(),
        size=len(GOOD_BOT),
        status=status,
        status_reason=reason,
        build_log=log,
        fault_count=1 if status == "disabled" else 0,
        games_played=4,
    )


def finished_match(x: BotVersion, y: BotVersion, seq: int, results: list[int]) -> Match:
    """A done auction4 match of len(results) boards; on board 2 X times out at table B."""
    match = Match.objects.create(
        variant="auction4",
        rules={},
        seed=seq,
        board_count=len(results),
        version_x=x,
        version_y=y,
        decision_ms=1000,
        bank_ms=60000,
        status=Match.Status.DONE,
        completion_seq=1_000_000 + seq,  # far from the counter that real matches draw on
        finished=timezone.now() - timedelta(minutes=10 - seq),
        score_x=sum(results),
        share_x=0.6,
        mean_x=sum(results) / len(results),
        ci95=39.2,
        board_results=results,
        faults=1,
        stderr={"A": {"0": ALICE_STDERR, "1": BOB_STDERR}},
    )
    for number, result in enumerate(results, start=1):
        board = Board.objects.create(variant="auction4", rules={}, seed=number, dealer=0)
        # Table A: X at seats 0/2 (side 0); table B: X at 1/3 (side 1).
        a = [250 + result // 2, 250]
        b = [250, 250 + result - result // 2]
        fault = {"seat": 1, "kind": "timeout", "reason": "no answer in 1000 ms"}
        for table, scores in (("A", a), ("B", b)):
            faulty = number == 2 and table == "B"
            Game.objects.create(
                match=match,
                board=board,
                number=number,
                table=table,
                seat_versions=[x.pk, y.pk, x.pk, y.pk] if table == "A" else [y.pk, x.pk] * 2,
                team_scores=scores,
                result=None,
                fault=fault if faulty else None,
            )
    return match


def build_arena() -> Arena:
    alice, bob = player("alice"), player("bob")
    greedy = Bot.objects.create(owner=alice, name="greedy", variant="auction4")
    steady = Bot.objects.create(owner=bob, name="steady", variant="auction4")
    version(greedy, 1, "rejected", reason=SECRET_REASON, log=SECRET_LOG)
    active = version(greedy, 2, "active", log="compiled 1 module(s)\nstatus: active")
    disabled = version(greedy, 3, "disabled", reason="disabled after 5 faults in 40 games")
    opponent = version(steady, 1, "active")
    ratings = {
        active.pk: Rating.objects.create(
            version=active, variant="auction4", elo=1555, matches=12, boards=120,
            elo_low=1520, elo_high=1600,
            last_match=timezone.now(),
        ),
        opponent.pk: Rating.objects.create(
            version=opponent, variant="auction4", elo=1445, matches=3, boards=30,
            elo_low=1390, elo_high=1480,
            last_match=timezone.now() - timedelta(days=1),
        ),
        disabled.pk: Rating.objects.create(
            version=disabled, variant="auction4", elo=1490, matches=2, boards=20,
            elo_low=1300, elo_high=1680,
        ),
    }  # fmt: skip
    match = None
    elo = {active.pk: 1500.0, opponent.pk: 1500.0}
    for seq, results in enumerate(([30, -10], [50, 20], [-40, 10]), start=1):
        match = finished_match(active, opponent, seq, results)
        tally = Tally.of(results)
        for side, sign, seen in ((active, 1, tally), (opponent, -1, tally.flipped())):
            before = elo[side.pk]
            elo[side.pk] = before + sign * 10 * (1 if sum(results) > 0 else -1)
            RatingChange.objects.create(
                rating=ratings[side.pk], match=match, before=before, after=elo[side.pk],
                wins=seen.wins, draws=seen.draws, losses=seen.losses, score=seen.score,
                expected=0.5,
            )  # fmt: skip
    assert match is not None
    return Arena(alice, bob, greedy, steady, active, disabled, opponent, match)


@pytest.fixture
def arena() -> Arena:
    return build_arena()


def sign_in(page: Any, username: str, password: str) -> None:
    """Sign in, then let the landing page finish its requests (its icon too): a navigation
    that starts while one is in flight cancels it, which would read as a failed request."""
    sign_in_only(page, username, password)
    page.wait_for_load_state("networkidle")


def on_phone(page: Any) -> None:
    page.set_viewport_size(PHONE)


# --- leaderboards ---------------------------------------------------------------------


def test_the_leaderboard_shows_ratings_with_interval_bars(
    page: Any, problems: Problems, arena: Arena
) -> None:
    page.goto("/leaderboards/auction4/")
    assert page.locator("h1").inner_text() == "Leaderboard: auction4"
    rows = page.locator("table.leaderboard tbody tr")
    assert rows.count() == 3
    first = rows.nth(0)
    assert "alice/greedy" in first.inner_text() and "1520" in first.inner_text()
    # The interval is drawn with SVG attributes: x and width from the page's common scale.
    bar = first.locator("svg rect.range")
    assert float(bar.get_attribute("width")) > 0
    assert first.locator("svg").get_attribute("aria-label") == "1520 to 1600"
    provisional = rows.filter(has_text="bob/steady")
    assert provisional.locator("abbr.provisional").count() == 1
    disabled = rows.filter(has_text="v3")
    assert "disabled" in (disabled.get_attribute("class") or "")
    assert disabled.locator(".badge.bad").inner_text() == "disabled"
    snapshot(page, "leaderboard")
    assert_clean(problems)


def test_a_leaderboard_says_when_its_ratings_do_not_describe_a_cycle(
    page: Any, problems: Problems
) -> None:
    # Strong beats greedy, greedy beats the third bot, the third bot beats strong (35-15 over
    # 50 boards each, rated the way a completed match is): no ratings can say that.
    owner = player("carol")
    strong, greedy, third = (rated_version(owner, name) for name in ("strong", "greedy", "third"))
    for x, y in ((strong, greedy), (greedy, third), (third, strong)):
        finish(x, y, [10] * 35 + [-10] * 15)
    page.goto("/leaderboards/auction4/")
    notice = page.locator("#model-check")
    assert "These ratings do not describe the results well" in notice.inner_text()
    assert "carol/strong v1 vs carol/greedy v1 scored 70% over 50 boards" in notice.inner_text()
    snapshot(page, "leaderboard-poor-fit")
    on_phone(page)
    page.reload()
    assert_fits_phone(page, "the leaderboard with its model check")
    snapshot(page, "leaderboard-poor-fit-phone")
    assert_clean(problems)


def test_the_leaderboard_sorts_on_the_server(page: Any, problems: Problems, arena: Arena) -> None:
    page.goto("/leaderboards/auction4/")
    page.click("th >> text=Matches")
    page.wait_for_url("**/leaderboards/auction4/?sort=matches")
    names = page.locator("table.leaderboard tbody tr td:nth-child(2)").all_inner_texts()
    assert [name.split()[0] for name in names] == ["alice/greedy", "bob/steady", "alice/greedy"]
    assert page.locator("th[aria-sort=descending]").inner_text() == "Matches"
    page.goto("/leaderboards/auction4/?sort=last_played")
    assert "never" in page.locator("table.leaderboard tbody tr").nth(2).inner_text()
    assert_clean(problems)


def test_the_leaderboard_refuses_a_bad_sort_or_page_with_a_message(arena: Arena) -> None:
    client = Client()
    response = client.get("/leaderboards/auction4/?sort=luck")
    assert response.status_code == 400
    assert "sort must be one of rating, matches, boards, last_played" in response.text
    assert client.get("/leaderboards/auction4/?page=zero").status_code == 400
    assert client.get("/leaderboards/auction4/?page=9").status_code == 404
    assert client.get("/leaderboards/whist/").status_code == 404


def test_the_leaderboard_is_paginated(arena: Arena, settings: Any) -> None:
    for index in range(55):
        bot = Bot.objects.create(owner=arena.bob, name=f"filler{index}", variant="auction4")
        Rating.objects.create(
            version=version(bot, 1, "active"),
            variant="auction4",
            elo=1000,
            elo_low=900,
            elo_high=1100,
        )
    client = Client()
    first = client.get("/leaderboards/auction4/")
    assert first.text.count('class="num">58<') == 0 and "Page 1 of 2" in first.text
    second = client.get("/leaderboards/auction4/?sort=rating&page=2")
    assert second.status_code == 200 and ">51<" in second.text and "Page 2 of 2" in second.text


def test_the_leaderboard_reads_in_a_fixed_number_of_queries(
    arena: Arena, django_assert_max_num_queries: Any
) -> None:
    for index in range(30):
        bot = Bot.objects.create(owner=arena.bob, name=f"filler{index}", variant="auction4")
        Rating.objects.create(
            version=version(bot, 1, "active"),
            variant="auction4",
            elo=1000,
            elo_low=900,
            elo_high=1100,
        )
    client = Client()
    with django_assert_max_num_queries(4):
        assert client.get("/leaderboards/auction4/").status_code == 200


# --- the bot page ---------------------------------------------------------------------


def test_the_bot_page_shows_versions_ratings_history_matches_and_faults(
    page: Any, problems: Problems, arena: Arena
) -> None:
    page.goto(f"/bots/{arena.greedy.pk}/")
    assert page.locator("h1").inner_text() == "greedy"
    versions = page.locator("table.versions tbody tr")
    assert versions.count() == 3
    assert "disabled" in versions.nth(0).inner_text()
    assert "rejected" in versions.nth(2).inner_text()
    chart = page.locator("figure.rating-chart svg").first
    assert chart.get_attribute("role") == "img"
    assert chart.locator("polyline").get_attribute("points").count(",") == 4  # 1500 + 3 matches
    assert "from 1500 to 1510 over 3 rated matches" in chart.locator("title").text_content()
    assert page.locator("table.faults").inner_text().split() == ["Kind", "Games", "timeout", "3"]
    assert page.locator("table.matches tbody tr").count() == 3
    snapshot(page, "bot-anonymous")
    assert_clean(problems)


def test_the_challenge_button_is_disabled_as_the_form_is_sent(
    page: Any, problems: Problems, arena: Arena
) -> None:
    # The post is answered "204 No Content", which leaves the page where it is, so that the
    # button can be read after the form went; the server's own guard against a form sent
    # twice is tests/arena/test_bot_challenge_page.py's.
    posts: list[str] = []

    def answer(route: Any) -> None:
        posts.append(route.request.method)
        route.fulfill(status=204)

    sign_in(page, "alice", PASSWORD)
    page.goto(f"/bots/{arena.steady.pk}/")
    page.route(f"**/bots/{arena.steady.pk}/challenge/", answer)
    button = page.locator("#challenge-form button[type=submit]")
    with page.expect_request(f"**/bots/{arena.steady.pk}/challenge/"):
        button.dblclick()
    expect(button).to_be_disabled()
    assert posts == ["POST"]
    snapshot(page, "bot-challenge-sent")
    # A navigation answered with no content is reported as aborted: that one is the test's.
    assert problems.console_errors == []


def test_the_leaderboard_and_the_bot_page_lead_to_the_test_of_two_versions(
    page: Any, problems: Problems, arena: Arena
) -> None:
    """A person asking whether a new version beats an old one finds the SPRT where she reads
    ratings: the leaderboard links it, and the bot page compares two of its versions."""
    page.goto("/leaderboards/auction4/")
    page.click("#sprt-link")
    page.wait_for_url("**/ratings/sprt/")
    assert page.locator("h1").inner_text() == "Sequential test of two versions"
    page.goto(f"/bots/{arena.greedy.pk}/")
    compare = page.locator("#sprt-compare")
    # The newest version against the one before it, unless another is chosen.
    assert compare.locator("#sprt-a option:checked").inner_text() == "v3"
    assert compare.locator("#sprt-b option:checked").inner_text() == "v2"
    page.select_option("#sprt-a", label="v2")
    page.select_option("#sprt-b", label="v1")
    on_phone(page)
    assert_fits_phone(page, "bot page")
    snapshot(page, "bot-compare-phone")
    compare.locator("button").click()
    page.wait_for_url(re.compile(r"/ratings/sprt/\?a=\d+&b=\d+$"))
    first = arena.greedy.versions.get(number=1)
    assert page.url.endswith(f"?a={arena.active.pk}&b={first.pk}")
    assert page.locator("#sprt-a").input_value() == str(arena.active.pk)
    assert page.locator("#sprt-b").input_value() == str(first.pk)
    assert_fits_phone(page, "sprt")
    snapshot(page, "sprt-from-bot-phone")
    assert_clean(problems)


@pytest.mark.parametrize("reader", [None, "bob"])
def test_nobody_but_the_owner_receives_build_logs_reasons_or_stderr(
    arena: Arena, reader: str | None
) -> None:
    client = Client()
    if reader:
        client.login(username=reader, password=PASSWORD)
    text = client.get(f"/bots/{arena.greedy.pk}/").text
    for secret in (SECRET_LOG, "REASON-FOR-ALICE-ONLY", ALICE_STDERR, BOB_STDERR, "compiled 1"):
        assert secret not in text
    assert "Upload a new version" not in text


def test_the_owner_reads_her_build_logs_reasons_and_only_her_own_stderr(
    page: Any, problems: Problems, arena: Arena
) -> None:
    sign_in(page, "alice", PASSWORD)
    page.goto(f"/bots/{arena.greedy.pk}/")
    assert "REASON-FOR-ALICE-ONLY" in page.locator("table.versions").inner_text()
    page.click("summary >> text=Build log of v1")
    assert SECRET_LOG in page.locator("details.build-log").last.inner_text()
    text = page.content()
    assert ALICE_STDERR in text and BOB_STDERR not in text
    snapshot(page, "bot-owner")
    assert_clean(problems)


def test_the_bot_page_reads_in_a_fixed_number_of_queries(
    arena: Arena, django_assert_max_num_queries: Any
) -> None:
    for seq in range(4, 24):
        finished_match(arena.active, arena.opponent, seq, [10, -5])
    client = Client()
    client.login(username="alice", password=PASSWORD)
    # One of them reads the reader's own active versions, for the challenge form.
    with django_assert_max_num_queries(10):
        assert client.get(f"/bots/{arena.greedy.pk}/").status_code == 200


def test_a_player_creates_a_bot_and_uploads_a_version_from_its_page(
    page: Any, problems: Problems, arena: Arena, settings: Any, tmp_path: Path
) -> None:
    settings.SANDBOX_MODE = "plain"
    sign_in(page, "bob", PASSWORD)
    page.goto("/bots/new/")
    page.fill("#id_name", "cautious")
    page.select_option("#id_variant", "single4")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/bots/\d+/$"))
    assert page.locator("h1").inner_text() == "cautious"
    module = tmp_path / "cautious.py"
    module.write_bytes(GOOD_BOT)
    page.set_input_files("#id_file", str(module))
    with page.expect_navigation():
        page.click("form[enctype] button[type=submit]")
    assert "Version 1 was received" in page.locator(".messages").inner_text()
    bot = Bot.objects.get(name="cautious")
    assert bot.variant == "single4" and list(bot.versions.values_list("number", flat=True)) == [1]
    snapshot(page, "bot-uploaded")
    assert_clean(problems)


def test_a_refused_upload_says_why_and_stores_nothing(
    page: Any, problems: Problems, arena: Arena, tmp_path: Path
) -> None:
    sign_in(page, "alice", PASSWORD)
    page.goto(f"/bots/{arena.greedy.pk}/")
    broken = tmp_path / "broken.py"
    broken.write_bytes(b"def act(observation, legal)\n    return legal[0]\n")
    page.set_input_files("#id_file", str(broken))
    problems.clear()
    with page.expect_navigation():
        page.click("form[enctype] button[type=submit]")
    # The same message as the API's 400, from the same check (arena.uploads).
    assert (
        "bot.py does not compile: expected ':' (line 1"
        in page.locator("#upload-error").inner_text()
    )
    assert arena.greedy.versions.count() == 3
    assert [failure.split()[0] for failure in problems.failed_requests] == ["400"]


def test_another_player_cannot_upload_to_a_bot_page(arena: Arena, tmp_path: Path) -> None:
    client = Client()
    client.login(username="bob", password=PASSWORD)
    module = tmp_path / "bot.py"
    module.write_bytes(GOOD_BOT)
    with module.open("rb") as upload:
        response = client.post(f"/bots/{arena.greedy.pk}/versions/", {"file": upload})
    assert response.status_code == 403
    assert "only the bot's owner can add versions" in html.unescape(response.text)
    assert arena.greedy.versions.count() == 3
    anonymous = Client().post(f"/bots/{arena.greedy.pk}/versions/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_a_bad_bot_name_is_refused_with_the_apis_message(arena: Arena) -> None:
    client = Client()
    client.login(username="bob", password=PASSWORD)
    response = client.post("/bots/new/", {"name": "no spaces", "variant": "auction4"})
    assert response.status_code == 400
    assert "A bot name is 1 to 64 letters" in response.text
    taken = client.post("/bots/new/", {"name": "steady", "variant": "auction4"})
    assert taken.status_code == 400 and "you already have a bot named" in taken.text
    assert Bot.objects.filter(owner=arena.bob).count() == 1


# --- matches --------------------------------------------------------------------------


def test_the_match_page_compares_each_boards_tables_and_links_their_replays(
    page: Any, problems: Problems, arena: Arena
) -> None:
    match = arena.match  # boards [-40, 10]
    Match.objects.filter(pk=match.pk).update(cv_mean_x=-12.5, cv_ci95=21.25)
    page.goto(f"/matches/{match.pk}/")
    assert page.locator("h1").inner_text() == f"Match {match.pk}"
    assert "-15.00 ± 39.20" in page.locator("dd.mean").inner_text()
    assert "-12.50 ± 21.25" in page.locator("dd.mean-cv").inner_text()
    changes = page.locator("table.rating-changes tbody tr")
    assert changes.count() == 2
    # Boards -40 and 10: one lost and one won, half a point a board.
    first_change = changes.nth(0).inner_text()
    assert first_change.startswith("X v2")
    assert "1\u20130\u20131" in first_change and "0.500" in first_change
    rows = page.locator("table.boards tbody tr")
    assert rows.count() == 4
    first = rows.nth(0).inner_text()
    assert "230 : 250" in first and "-20" in first and "-40" in first
    assert "timeout" in rows.nth(3).inner_text()
    links = page.locator("table.boards a").evaluate_all("links => links.map(a => a.pathname)")
    assert links == [f"/matches/{match.pk}/boards/{n}/tables/{t}/" for n in (1, 2) for t in "AB"]
    text = page.content()
    assert ALICE_STDERR not in text and BOB_STDERR not in text
    snapshot(page, "match")
    assert_clean(problems)


def test_the_match_list_filters_by_variant_bot_and_status(
    page: Any, problems: Problems, arena: Arena
) -> None:
    page.goto("/matches/")
    assert page.locator("table.matches tbody tr").count() == 3
    page.select_option("#id_status", "queued")
    page.click("form.filters button")
    page.wait_for_url("**/matches/?*status=queued*")
    assert page.locator("table.matches tbody").inner_text().strip() == "No matches."
    page.goto(f"/matches/?bot={arena.steady.pk}&variant=auction4&status=done")
    assert page.locator("table.matches tbody tr").count() == 3
    snapshot(page, "matches")
    assert_clean(problems)
    assert Client().get("/matches/?status=lost").status_code == 400
    assert Client().get("/matches/?bot=x").status_code == 400


def test_the_match_pages_read_in_a_fixed_number_of_queries(
    arena: Arena, django_assert_max_num_queries: Any
) -> None:
    long = finished_match(arena.active, arena.opponent, 50, [5] * 40)
    client = Client()
    with django_assert_max_num_queries(4):
        assert client.get(f"/matches/{long.pk}/").status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get("/matches/").status_code == 200


# --- players, the protocol, the browsable API -----------------------------------------


def test_a_player_sees_and_renews_her_api_token_on_her_page(
    page: Any, problems: Problems, arena: Arena
) -> None:
    sign_in(page, "alice", PASSWORD)
    page.goto("/players/alice/")
    assert "You have no API token yet." in page.content()
    with page.expect_navigation():
        page.click("text=Create a token")
    first = Token.objects.get(user=arena.alice.user).key
    assert page.locator("code.token").inner_text() == first
    with page.expect_navigation():
        page.click("text=Replace it with a new token")
    second = Token.objects.get(user=arena.alice.user).key
    assert second != first and page.locator("code.token").inner_text() == second
    assert "greedy" in page.locator("table").first.inner_text()
    snapshot(page, "player-self")
    assert_clean(problems)


@pytest.mark.parametrize("reader", [None, "bob"])
def test_nobody_else_receives_a_players_token(arena: Arena, reader: str | None) -> None:
    token = Token.objects.create(user=arena.alice.user).key
    client = Client()
    if reader:
        client.login(username=reader, password=PASSWORD)
    response = client.get("/players/alice/")
    assert response.status_code == 200 and token not in response.text
    assert "no-store" in response["Cache-Control"]
    refused = client.post("/players/alice/token/")
    assert refused.status_code in (302, 403)
    assert Token.objects.get(user=arena.alice.user).key == token


def test_the_protocol_document_is_a_page(page: Any, problems: Problems, arena: Arena) -> None:
    page.goto("/protocol/")
    assert page.locator("h1").inner_text() == "The bot protocol, version 1"
    assert page.locator("article h2").count() >= 5
    snapshot(page, "protocol")
    assert_clean(problems)


@pytest.mark.parametrize(
    "path",
    ["/api/ratings/?variant=auction4", "/api/bots/{bot}/versions/"],
    ids=["ratings", "versions"],
)
def test_the_browsable_api_opens_the_leaderboard_and_versions(
    page: Any, problems: Problems, arena: Arena, path: str
) -> None:
    response = page.goto(path.format(bot=arena.greedy.pk))
    assert response.status == 200
    assert "Django REST framework" in page.content()
    assert_clean(problems)


# --- every page on a phone ------------------------------------------------------------


def test_every_arena_page_fits_a_phone(page: Any, problems: Problems, arena: Arena) -> None:
    on_phone(page)
    for name, path in [
        ("home", "/"),
        ("leaderboard", "/leaderboards/auction4/"),
        ("bot", f"/bots/{arena.greedy.pk}/"),
        ("match", f"/matches/{arena.match.pk}/"),
        ("matches", "/matches/"),
        ("player", "/players/alice/"),
        ("protocol", "/protocol/"),
        ("sprt", f"/ratings/sprt/?a={arena.active.pk}&b={arena.disabled.pk}"),
    ]:
        page.goto(path)
        assert_fits_phone(page, name)
        snapshot(page, f"phone-{name}")
    assert_clean(problems)


INLINE = re.compile(r"<script(?![^>]*\bsrc=)|<style|\sstyle=", re.IGNORECASE)
"""What a Content-Security-Policy of script-src 'self'; style-src 'self' would refuse."""


def test_no_arena_page_needs_inline_scripts_or_styles(arena: Arena) -> None:
    client = Client()
    client.login(username="alice", password=PASSWORD)
    for path in [
        "/",
        "/leaderboards/auction4/",
        f"/bots/{arena.greedy.pk}/",
        "/bots/new/",
        f"/matches/{arena.match.pk}/",
        "/matches/",
        "/players/alice/",
        "/protocol/",
    ]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert INLINE.search(response.text) is None, path


# --- the match page against real play, and the charts' geometry -----------------------


@pytest.mark.parametrize("variant", ["auction4", "cutthroat3"])
def test_a_played_matchs_table_margins_add_up_to_its_board_results(
    arena: Arena, settings: Any, variant: str
) -> None:
    """TOURNAMENTS.md "Duplicate for bots": a board's result is the sum of X's margins at
    its tables; the page's margins come from the stored games, the result from the runner."""
    from arena import selectors
    from arena.services.matches import match_create
    from arena.tasks import match_run_task

    settings.SANDBOX_MODE = "plain"
    sides = []
    for owner, name in ((arena.alice, "first"), (arena.bob, "second")):
        bot = Bot.objects.create(owner=owner, name=f"{name}-{variant}", variant=variant)
        sides.append(version(bot, 1, "active"))
    match = match_create(version_x=sides[0], version_y=sides[1], boards=3, seed=11, rated=False)
    match_run_task.apply(args=[match.pk])  # a no-op if the embedded mode already played it
    shown = selectors.match_page(match_id=match.pk)
    assert shown.match.status == Match.Status.DONE, shown.match.error
    assert len(shown.boards) == 3
    for board in shown.boards:
        assert {table.table for table in board.tables} == set(shown.seatings)
        assert round(sum(table.x_minus_y for table in board.tables)) == board.result_x
    response = Client().get(f"/matches/{match.pk}/")
    assert len(re.findall(r"/boards/\d+/tables/", response.text)) == 3 * len(shown.seatings)


@given(
    values=st.lists(st.floats(0, 3000), min_size=1, max_size=50),
    value=st.floats(0, 3000),
    spread=st.tuples(st.floats(0, 300), st.floats(0, 300)),
)
def test_an_interval_bar_stays_inside_its_track(
    values: list[float], value: float, spread: tuple[float, float]
) -> None:
    low, high = value - spread[0], value + spread[1]
    scale = charts.Scale.around([*values, value, low, high])
    bar = charts.interval_bar(value, low, high, scale)
    assert -0.01 <= bar.x <= bar.x + bar.width <= charts.BAR_WIDTH + 0.01
    assert bar.x - 0.02 <= bar.mark <= bar.x + bar.width + 0.02


@given(st.lists(st.floats(0, 3000), min_size=1, max_size=200))
def test_a_rating_line_stays_inside_its_chart(ratings: list[float]) -> None:
    line = charts.rating_line(ratings)
    assert line is not None and line.steps == len(ratings) - 1
    points = [tuple(map(float, point.split(","))) for point in line.points.split()]
    assert len(points) == len(ratings)
    for x, y in points:
        assert 0 <= x <= charts.CHART_WIDTH and 0 <= y <= charts.CHART_HEIGHT
    assert [x for x, _ in points] == sorted(x for x, _ in points)


def test_fault_reasons_write_cards_with_suit_symbols(
    page: Any, problems: Problems, arena: Arena
) -> None:
    game = arena.match.games.get(number=2, table="B")
    game.fault = {"seat": 1, "kind": "illegal", "reason": "'play QS' is not legal (9H TD)"}
    game.save()
    page.goto(f"/matches/{arena.match.pk}/")
    assert page.locator("td .reason").inner_text() == "'play Q♠' is not legal (9♥ T♦)"
    assert_clean(problems)


@pytest.mark.parametrize(
    "module", ["arena.pages.charts", "arena.templatetags.cards", "leagues.pages.leagues"]
)
def test_the_page_helpers_examples_hold(module: str) -> None:
    import doctest
    import importlib

    outcome = doctest.testmod(importlib.import_module(module))
    assert outcome.attempted > 0 and outcome.failed == 0
