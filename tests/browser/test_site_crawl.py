"""Every page of the site, reached by following its links, fits a phone held upright.

The crawl starts at the home page, as a visitor and as a signed-in player, and follows every
link to a page of the site (the API's JSON, the admin and downloads aside; the hand records,
a page served beside the API, included). Each page is loaded at 390 x 844: it may not be
wider than the screen, since a page that scrolls sideways on a phone hides half of what it
says. Each page must answer without an error, and the pages a person looks for (the
sequential test of two versions, changing and resetting a password) must be among those a
link leads to.

No page may be reachable only by typing its address: every page of the route declarations
(tests/api) that answers a signed-in player with a page of the site must be of a kind the
player's crawl reached. Alice, the player who crawls, is also a bot author (her bot and its
versions), a director (her event, league and robot event) and a player at tables, events
and challenges, so her crawl is the crawl of each of those roles.

The world is the authorization matrix's (tests/api), which holds an object behind every
route, taken further: the tournament finished, a robot event played and closed, a challenge
played to its end, a finished table of every variant, and the demo's knockout in play (its
bracket is reached by links, as in the demo).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client

from arena.variants import variant_names
from leagues import demo as leagues_demo
from robot_events import services as robot_services
from tables import challenges
from tables.models import PlayTable
from tests.api.test_authorization_matrix import ROUTES, World, build_world
from tests.arena.conftest import PASSWORD
from tests.browser.conftest import PHONE, Problems, assert_fits_phone, sign_in, snapshot
from tests.robot_events.conftest import play_board
from tests.tables.conftest import greedy_table, play_out
from tests.tournaments.conftest import entry_payload
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)

OUTSIDE = re.compile(r"^/(api/|admin/|static/|media/|favicon\.ico)|\.(json|pdf|svg|png|txt)$")
"""Not pages of the site: the API's JSON and its documents, the admin, downloads."""
INSIDE_ANYWAY = re.compile(r"^/api/tournaments/\d+/hand-records/$")
"""A page for people that the API serves: the hand records of an event."""
LINKED_FROM_OUTSIDE = {
    "password_reset_confirm": "the link of the e-mail that resets a password",
    "password_reset_done": "the answer to the reset form, which says the e-mail is sent",
    "password_reset_complete": "the answer to a reset, which links to signing in",
    "password_change_done": "the answer to the change form",
    "lobby:join": "a card table's invitation, a link its host sends a friend",
    "login": "a visitor's page: the visitor's crawl reaches it",
    "password_reset": "a visitor's page: the visitor's crawl reaches it",
    "tournaments_api:hand-records": "the API's hand records, for programs: people read the event's"
    " printable hand records page",
    "tournaments:edit": "an event's form, linked from its page until the event starts: the"
    " crawl's event is over",
    "tournaments:table": "a table's score entry, linked from its event's page while the event is"
    " played: the crawl's event is over",
}
"""Pages reached other than by a link of the pages a signed-in player crawls: a link the site
sends by e-mail, a form's answer, a visitor's page, a page of a state the crawl is past."""
MOST_PAGES = 400
"""A bound on the crawl, far above the pages of its world: a crawl that reaches it has found
links that never end (a pager, a filter), which is a fault of its own."""


@dataclass
class Site:
    world: World
    finished_tables: list[PlayTable]
    bracket: str


def _finish_the_tournament(world: World) -> None:
    round_, table, number = world.open_board
    board = world.event.boards.get(number=number)
    tournament_services.result_enter(
        event=world.event,
        by=world.alice,
        section_name="A",
        round=round_,
        table=table,
        board_number=number,
        entry=tournament_services.score_entry_from(
            entry_payload(world.event.variant, board.seed, board.dealer, table)
        ),
    )
    tournament_services.event_finish(event=world.event, by=world.alice)


def _play_the_robot_event(world: World) -> None:
    for player, south in ((world.bob, "greedy"), (world.admin, "random")):
        entry = robot_services.robot_entry_join(event=world.robot_event, player=player)
        play_board(entry, south)
    robot_services.robot_event_close(event=world.robot_event, by=world.alice)
    for board in world.robot_event.board_set.all():
        robot_services.robot_board_par_compute(board_id=board.pk)


def _play_the_challenge(world: World) -> None:
    rng = random.Random(3)
    for _ in range(20):
        challenge = challenges.challenge_settle(challenge_id=world.challenge.pk)
        if challenge.is_over:
            return
        for row in challenges.challenge_tables(challenge):
            if not row.play_table.is_over:
                play_out(row.play_table, world.alice.user, rng=rng)
    raise AssertionError("the challenge did not finish")


def build_site() -> Site:
    world = build_world()
    _finish_the_tournament(world)
    _play_the_robot_event(world)
    _play_the_challenge(world)
    finished = [
        play_out(greedy_table(world.alice.user, variant, bot="random"), world.alice.user)
        for variant in variant_names()
    ]
    knockout = leagues_demo.seed_knockout(
        organiser=world.alice, versions=[world.version, world.bobs_version], say=lambda _: None
    )
    bracket = f"/leagues/{knockout.league_id}/seasons/{knockout.number}/bracket/"
    return Site(world=world, finished_tables=finished, bracket=bracket)


@pytest.fixture
def site(settings: Any) -> Site:
    settings.SANDBOX_MODE = "plain"
    settings.PLAY_REVEAL_MS = 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return build_site()


def _kind(path: str) -> str:
    """The page a path is an instance of (numbers stand for any object), for the report."""
    return re.sub(r"/\d+(?=/)", "/N", path)


def _slug(path: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"


def crawl(page: Any, start: list[str], name: str) -> list[str]:
    """Visit every page of the site a link leads to from ``start``, once each (a path with
    a query is visited once whatever the query), checking each at a phone's width. Returns
    the paths visited; fails naming every page that was wider than the phone."""
    page.set_viewport_size(PHONE)
    origin = urlsplit(page.url).netloc
    queue = list(start)
    seen: set[str] = set(start)
    visited: list[str] = []
    misfits: list[str] = []
    kinds: dict[str, int] = {}
    while queue:
        target = queue.pop(0)
        assert len(visited) < MOST_PAGES, f"the crawl found more than {MOST_PAGES} pages"
        response = page.goto(target)
        assert response is not None and response.status < 400, f"{target}: {response}"
        visited.append(urlsplit(target).path)
        try:
            assert_fits_phone(page, f"{_kind(urlsplit(target).path)} ({name})")
        except AssertionError as misfit:
            misfits.append(str(misfit))
        # Named by the kind of page and its place among those of its kind, not by the ids
        # of its objects, so that a second run writes over the first run's pictures.
        kind = _kind(urlsplit(target).path)
        kinds[kind] = kinds.get(kind, 0) + 1
        snapshot(page, f"crawl-{name}-{_slug(kind)}-{kinds[kind]}")
        links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        for link in links:
            parts = urlsplit(link)
            if parts.netloc != origin or parts.scheme not in ("http", "https"):
                continue
            path = parts.path
            if OUTSIDE.search(path) and not INSIDE_ANYWAY.search(path):
                continue
            key = f"{path}?" if parts.query else path
            if key in seen:
                continue
            seen.add(key)
            queue.append(f"{path}?{parts.query}" if parts.query else path)
    assert misfits == [], "\n".join(misfits)
    return visited


def pages_of_the_site(world: World) -> dict[str, str]:
    """Each kind of page the route declarations lead a signed-in player to, with its route's
    name: a full page of the site (not a fragment, a download or JSON) that answers 200."""
    client = Client()
    client.force_login(world.alice.user)
    pages: dict[str, str] = {}
    for (name, method), route in ROUTES.items():
        if method != "GET" or name in LINKED_FROM_OUTSIDE:
            continue
        url = route.url(world)
        path = urlsplit(url).path
        if OUTSIDE.search(path) and not INSIDE_ANYWAY.search(path):
            continue
        response = client.get(url)
        is_page = response.status_code == 200 and response.get("Content-Type", "").startswith(
            "text/html"
        )
        if is_page and b"<html" in response.content[:400].lower():
            pages[_kind(path)] = name
    return pages


def page_errors(problems: Problems) -> list[str]:
    """The console's errors but a card table's socket refused: the crawl's server speaks HTTP
    only (the card tables' own browser tests serve sockets through daphne), and a table page
    whose socket fails reads its frames by polling."""
    return [
        error
        for error in problems.console_errors
        if not (error.startswith("WebSocket connection to ") and "/ws/tables/" in error)
    ]


def test_every_page_a_visitor_reaches_fits_a_phone(
    page: Any, problems: Problems, site: Site
) -> None:
    page.goto("/")
    visited = set(crawl(page, ["/"], "visitor"))
    assert {"/ratings/sprt/", "/accounts/login/", "/accounts/password_reset/"} <= visited
    assert site.bracket in visited
    assert page_errors(problems) == []
    assert problems.failed_requests == []


def test_every_page_a_player_reaches_fits_a_phone(
    page: Any, problems: Problems, site: Site
) -> None:
    sign_in(page, "alice", PASSWORD)
    page.wait_for_load_state("networkidle")
    tables = [f"/play/tables/{table.pk}/" for table in site.finished_tables]
    visited = set(crawl(page, ["/", *tables], "player"))
    assert {"/ratings/sprt/", "/accounts/password_change/", "/play/challenges/"} <= visited
    world = site.world
    for path in (
        f"/tournaments/{world.event.pk}/verification/",
        f"/tournaments/{world.event.pk}/hand-records/",
        f"/tournaments/{world.event.pk}/guide-cards/",
        f"/robots/{world.robot_event.pk}/verification/",
        "/robots/schedules/",
        f"/leagues/{world.league.pk}/edit/",
        f"/play/tables/{world.finished_table.pk}/",
        f"/play/challenges/{world.challenge.pk}/",
        site.bracket,
    ):
        assert path in visited, path
    reached = {_kind(path) for path in visited}
    unlinked = {
        kind: name for kind, name in pages_of_the_site(world).items() if kind not in reached
    }
    assert unlinked == {}, f"pages no link of the site leads to: {unlinked}"
    assert page_errors(problems) == []
    assert problems.failed_requests == []
