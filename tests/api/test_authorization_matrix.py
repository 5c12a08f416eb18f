"""Who may do what, for every route of the site: generated from the URL configuration.

Every (route, method) outside the Django admin must be declared below; a new route without a
declaration fails ``test_every_route_has_a_declared_expectation``. Each declared route is
requested by four roles in a fresh world:

- ``anonymous``: no credentials;
- ``other``: a signed-in player with no relation to the objects;
- ``owner``: the bot's owner, the league's organiser, the event's director (one player, Alice,
  holds all three; she also plays in the match, and has an API token);
- ``admin``: a superuser who also has a player profile (the API gives staff no extra power:
  they use /admin/).

A cell is the expected status, ``OK`` (any 2xx), ``PASSES`` (authorization passed: neither
401 nor 403, nor a server error; the request may still be refused for its content, such as
entering a started event), or ``SIGN_IN`` (a page that needs a signed-in player sends the
browser to the sign-in page, back to where it was). A refused cell, or one sent to sign in,
must change nothing in the database. Routes that hold a secret name it: it must appear for
the roles allowed to see it and for no one else. The owner is asked last, since an allowed
write changes the world. In tournaments, staff may direct any event: the admin's cells there
are the director's.

A route's methods are read from its view: a viewset's bound actions, a class's handlers, or
a function view's ``require_http_methods`` list (``require_POST`` and the like); a function
view without one answers GET and any method it tests ``request.method`` against.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client, override_settings
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient
from rest_framework.views import APIView

from arena import services
from arena.models import Bot, BotVersion, Game, Match, Player
from arena.services.bots import player_token_create
from arena.services.matches import match_create
from arena.tasks import match_run_task
from leagues import services as league_services
from leagues.models import Entry as LeagueEntry
from leagues.models import League
from lobby import services as lobby_services
from lobby.models import GameTable
from robot_events import services as robot_services
from robot_events.models import RobotEvent, RobotSchedule
from tables import services as play_services
from tables.challenges import challenge_create
from tables.models import Challenge, PlayTable
from tests.arena.conftest import FIRST_LEGAL_BOT, PASSWORD
from tests.tournaments.conftest import entry_payload, play_all, running_event
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Result

ROLES = ("anonymous", "other", "admin", "owner")
OK = "2xx"
PASSES = "passes"
SIGN_IN = "sign-in"
EXCLUDED_PREFIXES = ("admin/",)
"""The Django admin checks staff status in every view of its own."""


@dataclass
class World:
    alice: Player
    bob: Player
    admin: Player
    bot: Bot
    version: BotVersion
    bobs_version: BotVersion
    match: Match
    league: League
    league_entry: LeagueEntry
    event: Event
    result: Result
    open_board: tuple[int, int, int]
    event_players: list[Player]
    token: str
    robot_event: RobotEvent
    robot_schedule: RobotSchedule
    play_table: PlayTable
    play_action: str
    finished_table: PlayTable
    challenge: Challenge
    lobby_table: GameTable

    def user(self, role: str) -> User | None:
        player = {"other": self.bob, "owner": self.alice, "admin": self.admin}.get(role)
        return None if player is None else player.user


SECRET_SOURCE = "alice-private-source-marker"
SECRET_LOG = "alice-private-build-log-marker"
SECRET_STDERR = "alice-private-stderr-marker"


def build_world() -> World:
    alice = services.player_register(username="alice", password=PASSWORD)
    bob = services.player_register(username="bob", password=PASSWORD)
    admin = services.player_register(username="root", password=PASSWORD)
    User.objects.filter(pk=admin.user_id).update(is_staff=True, is_superuser=True)
    bot = services.bot_create(owner=alice, name="alices", variant="auction4")
    source = FIRST_LEGAL_BOT + f"# {SECRET_SOURCE}\n".encode()
    version = services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(
        status=BotVersion.Status.ACTIVE, build_log=SECRET_LOG, status_reason=SECRET_LOG
    )
    bobs_bot = services.bot_create(owner=bob, name="bobs", variant="auction4")
    bobs_version = services.bot_version_submit(bot=bobs_bot, data=FIRST_LEGAL_BOT, filename="b.py")
    BotVersion.objects.filter(pk=bobs_version.pk).update(status=BotVersion.Status.ACTIVE)
    version.refresh_from_db()
    bobs_version.refresh_from_db()
    match = match_create(version_x=version, version_y=bobs_version, boards=1, requested_by=alice)
    # Played here whatever the broker (the embedded mode has already run it: a no-op then),
    # so that the replay viewer has its tables.
    match_run_task.apply(args=[match.pk])
    assert Game.objects.filter(match=match, replay__isnull=False).exists()
    # Seat 0 of table A is X's (Alice's) at the duplicate tables of every game.
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.DONE, stderr={"A": {"0": SECRET_STDERR}}
    )
    league = league_services.league_create(
        organiser=alice, name="Club", variant="auction4", format="round_robin"
    )
    season = league_services.season_create(league=league)
    league_entry = league_services.entry_create(
        season=season, bot=bot, version=None, follows_latest=False, division=None
    )
    event_players = [
        services.player_register(username=f"card{number}", password=PASSWORD)
        for number in range(10)
    ]
    event = running_event(alice, event_players[:8])
    open_board = _first_seating(event)
    play_all(event, skip={open_board})
    result = Result.objects.filter(section__event=event).order_by("id").first()
    assert result is not None
    token = player_token_create(player=alice)
    # Alice directs robot events too (the permission, not staff); Bob has not joined hers.
    alice.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    robot_event = robot_services.robot_event_create(
        director=Player.objects.select_related("user").get(pk=alice.pk),
        name="Robots",
        variant="single4",
        boards=1,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )
    robot_schedule = robot_services.robot_schedule_create(
        director=Player.objects.select_related("user").get(pk=alice.pk),
        hour=18,
        **_robot_body("owner"),
    )
    play_table, play_action, finished_table, challenge = _play_world(alice)
    return World(
        alice=alice,
        bob=bob,
        admin=admin,
        bot=bot,
        version=version,
        bobs_version=bobs_version,
        match=match,
        league=league,
        league_entry=league_entry,
        event=event,
        result=result,
        open_board=open_board,
        event_players=event_players,
        token=token,
        robot_event=robot_event,
        robot_schedule=robot_schedule,
        play_table=play_table,
        play_action=play_action,
        finished_table=finished_table,
        challenge=challenge,
        lobby_table=_lobby_table(alice),
    )


def _lobby_table(alice: Player) -> GameTable:
    """Alice's card table waiting for people: two open seats and one by invitation."""
    return lobby_services.table_open(
        host=alice.user,
        variant="auction4",
        seats=[{"kind": "host"}, {"kind": "open"}, {"kind": "open"}, {"kind": "invite"}],
    )


def _play_world(alice: Player) -> tuple[PlayTable, str, PlayTable, Challenge]:
    """Alice's table in play (and the action she may take there), a finished one, and a
    challenge she has started."""
    bots = [{"kind": "reference", "name": "random"}]
    table = play_services.table_start(
        owner=alice.user,
        variant="twohand",
        seed=7_316_042_915_377_208_123,
        dealer=0,
        human_seat=1,
        bots=bots,
    )
    action = str(play_services.hand_of(table).state.legal_actions[0])
    finished = play_services.table_start(
        owner=alice.user, variant="twohand", seed=5, dealer=0, human_seat=1, bots=bots
    )
    while not finished.is_over:
        legal = play_services.hand_of(finished).state.legal_actions
        play_services.table_act(
            table_id=finished.pk, user=alice.user, action=str(legal[0]), ply=finished.ply
        )
        finished.refresh_from_db()
    challenge = challenge_create(owner=alice.user, variant="twohand", opponent=bots[0], boards=1)
    return table, action, finished, challenge


def _lobby_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/tables/{w.lobby_table.pk}/{suffix}"


LOBBY_NEW_TABLE = {
    "variant": "auction4",
    "target_kind": "score",
    "decision_s": "30",
    "bank_s": "120",
    "substitute": "greedy",
    "seat_0": "host",
    "seat_1": "open",
    "seat_2": "open",
    "seat_3": "bot:reference:greedy",
}


def _first_seating(event: Event) -> tuple[int, int, int]:
    section = event.sections.exclude(size=None).get()
    movement = tournament_selectors.section_movement(event=event, section=section)
    seating = movement.seatings[0]
    number = next(
        iter(tournament_selectors.board_numbers(event=event, board_set=seating.board_set))
    )
    return seating.round, seating.table, number


def _result_body(world: World) -> dict[str, Any]:
    round_, table, number = world.open_board
    board = world.event.boards.get(number=number)
    payload = entry_payload(world.event.variant, board.seed, board.dealer, table)
    return {**payload, "section": "A", "round": round_, "table": table, "board": number}


def _correction_body(world: World) -> dict[str, Any]:
    board = world.result.board
    payload = entry_payload(world.event.variant, board.seed, board.dealer, 99)
    return {**payload, "reason": "the table miscounted"}


@dataclass(frozen=True)
class Route:
    """The declared expectation for one method of one named route."""

    expect: dict[str, int | str]
    url: Callable[[World], str]
    body: Callable[[World, str], dict[str, Any]] | None = None
    secret: str | tuple[str, ...] | None = None
    """Text only ``sees_secret`` may receive (``EVENT_SECRET`` and ``TOKEN`` are the world's)."""
    sees_secret: frozenset[str] = field(default_factory=frozenset)


def everyone(status: int | str = OK) -> dict[str, int | str]:
    return dict.fromkeys(ROLES, status)


def players_only(status: int | str = OK) -> dict[str, int | str]:
    return {"anonymous": 401, "other": status, "admin": status, "owner": status}


def owner_only(owner: int | str = OK, *, anonymous: int = 401) -> dict[str, int | str]:
    return {"anonymous": anonymous, "other": 403, "admin": 403, "owner": owner}


def director_only(
    director: int | str = OK, *, anonymous: int = 401, second: int | str | None = None
) -> dict[str, int | str]:
    """Tournaments: the director, and staff, who may direct any event. ``second``: what the
    director gets after staff did the same (an allowed write changed the world)."""
    return {
        "anonymous": anonymous,
        "other": 403,
        "admin": director,
        "owner": director if second is None else second,
    }


def _hidden_table(owner: int | str = OK, *, anonymous: int | str = 404) -> dict[str, int | str]:
    """A human's table (or challenge) in play: its owner's alone; anyone else is told there
    is no such table, not that it exists."""
    return {"anonymous": anonymous, "other": 404, "admin": 404, "owner": owner}


def _event_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/api/tournaments/{w.event.pk}/{suffix}"


def _season_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/api/leagues/{w.league.pk}/seasons/1/{suffix}"


def _version_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/api/bots/{w.bot.pk}/versions/{suffix}"


EVENT_SECRET = "event-secret"
ROBOT_SECRET = "robot-event-secret"


def _robots_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/api/robots/{w.robot_event.pk}/{suffix}"


def _robots_page_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/robots/{w.robot_event.pk}/{suffix}"


def _robot_body(role: str) -> dict[str, Any]:
    return {
        "name": f"{role} robots",
        "variant": "auction4",
        "boards": 2,
        "robots": "random",
        "kind": "instant",
        "scoring": "mp",
    }


TOKEN = "alices-api-token"
PLAY_SEED = "play-table-seed"
"""The deal seed of Alice's table in play: no one, Alice included, may see it yet."""
CHALLENGE_SECRET = "play-challenge-secret"
LOBBY_TOKEN = "lobby-invitation-token"
"""The secret Alice's challenge in play is dealt from: no one, Alice included, may see it yet."""


def signed_in(status: int | str = OK) -> dict[str, int | str]:
    """A page for any signed-in player: anonymous visitors are sent to sign in."""
    return {"anonymous": SIGN_IN, "other": status, "admin": status, "owner": status}


def owners_page(owner: int | str = 302, *, others: int = 403) -> dict[str, int | str]:
    """A page form for the owner alone (bot, league, the player herself)."""
    return {"anonymous": SIGN_IN, "other": others, "admin": others, "owner": owner}


def _page_event_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/tournaments/{w.event.pk}/{suffix}"


def _page_season_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/leagues/{w.league.pk}/seasons/1/{suffix}"


def _replay_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/matches/{w.match.pk}/boards/1/tables/A/{suffix}"


def _table_url(w: World) -> str:
    round_, table, number = w.open_board
    return f"/tournaments/{w.event.pk}/tables/A/{round_}/{table}/?board={number}"


def _table_form(world: World, role: str) -> dict[str, Any]:
    """The open board as its table reports it: staff check the scores, then Alice saves them."""
    _round, table, number = world.open_board
    board = world.event.boards.get(number=number)
    payload = entry_payload(world.event.variant, board.seed, board.dealer, table)
    fields: dict[str, Any] = {
        "outcome": payload["outcome"],
        "declarer": payload["declarer"],
        "bid": payload["bid"],
        "trump": payload["trump"] or "",
        "action": "check" if role == "admin" else "save",
    }
    # A pair's table reports one side's counters; the other side's follow from the total.
    fields["taken_0"] = payload["taken"][0]
    for seat, value in enumerate(payload["meld"]):
        fields[f"meld_{seat}"] = value
    return fields


def _upload(world: World, role: str) -> dict[str, Any]:
    source = FIRST_LEGAL_BOT + f"# page upload by {role}\n".encode()
    return {"file": SimpleUploadedFile("bot.py", source, content_type="text/x-python")}


ROUTES: dict[tuple[str, str], Route] = {
    # --- pages and sign-in ----------------------------------------------------------------
    ("home:index", "GET"): Route(everyone(), lambda w: "/"),
    ("login", "GET"): Route(everyone(), lambda w: "/accounts/login/"),
    ("login", "POST"): Route(
        everyone(PASSES),
        lambda w: "/accounts/login/",
        lambda w, role: {"username": "alice", "password": "wrong"},
    ),
    ("logout", "POST"): Route(everyone(PASSES), lambda w: "/accounts/logout/", lambda w, r: {}),
    # Sign-up: anyone signed out registers (under the API's registration quota) and is
    # signed in; a signed-in player is sent to her own page and nothing is made.
    ("arena:signup", "GET"): Route(
        {"anonymous": 200, "other": 302, "admin": 302, "owner": 302},
        lambda w: "/accounts/signup/",
    ),
    ("arena:signup", "POST"): Route(
        everyone(302),
        lambda w: "/accounts/signup/",
        lambda w, role: {
            "username": f"signup-{role}",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    ),
    ("password_change", "GET"): Route(
        signed_in(200),
        lambda w: "/accounts/password_change/",
    ),
    ("password_change", "POST"): Route(
        signed_in(200),
        lambda w: "/accounts/password_change/",
        lambda w, role: {"old_password": "wrong", "new_password1": "x", "new_password2": "y"},
    ),
    ("password_change_done", "GET"): Route(
        signed_in(200),
        lambda w: "/accounts/password_change/done/",
    ),
    ("password_reset", "GET"): Route(everyone(), lambda w: "/accounts/password_reset/"),
    ("password_reset", "POST"): Route(
        everyone(302),
        lambda w: "/accounts/password_reset/",
        lambda w, role: {"email": "nobody@example.org"},
    ),
    ("password_reset_done", "GET"): Route(everyone(), lambda w: "/accounts/password_reset/done/"),
    ("password_reset_confirm", "GET"): Route(
        everyone(), lambda w: "/accounts/reset/MQ/not-a-token/"
    ),
    ("password_reset_confirm", "POST"): Route(
        everyone(), lambda w: "/accounts/reset/MQ/not-a-token/", lambda w, r: {}
    ),
    ("password_reset_complete", "GET"): Route(everyone(), lambda w: "/accounts/reset/done/"),
    **{
        ("arena:favicon", method): Route(everyone(301), lambda w: "/favicon.ico")
        for method in ("GET", "POST", "PATCH", "DELETE")
    },
    ("arena:protocol", "GET"): Route(everyone(), lambda w: "/protocol/"),
    # --- arena pages: leaderboards, bots, matches, the replay viewer, the SPRT -------------
    ("arena:leaderboard", "GET"): Route(everyone(), lambda w: "/leaderboards/auction4/"),
    # Notices are each person's own: every signed-in reader gets hers (tests/arena/test_notices.py).
    ("arena:notices", "GET"): Route(signed_in(200), lambda w: "/notices/"),
    ("arena:notices", "POST"): Route(signed_in(302), lambda w: "/notices/", lambda w, r: {}),
    ("arena:sprt", "GET"): Route(
        everyone(), lambda w: f"/ratings/sprt/?a={w.version.pk}&b={w.bobs_version.pk}"
    ),
    ("arena:controls", "GET"): Route(everyone(), lambda w: "/ratings/controls/"),
    ("home:player", "GET"): Route(
        everyone(),
        lambda w: f"/players/{w.alice.user.username}/",
        secret=TOKEN,
        sees_secret=frozenset({"owner"}),
    ),
    ("home:player-token", "POST"): Route(
        owners_page(),
        lambda w: f"/players/{w.alice.user.username}/token/",
        lambda w, role: {},
        secret=TOKEN,
    ),
    ("arena:bot", "GET"): Route(
        everyone(),
        lambda w: f"/bots/{w.bot.pk}/",
        secret=(SECRET_LOG, SECRET_STDERR),
        sees_secret=frozenset({"owner"}),
    ),
    ("arena:bot-new", "GET"): Route(signed_in(), lambda w: "/bots/new/"),
    ("arena:bot-new", "POST"): Route(
        signed_in(302),
        lambda w: "/bots/new/",
        lambda w, role: {"name": f"{role}-page-bot", "variant": "auction4"},
    ),
    ("arena:bot-version-upload", "POST"): Route(
        owners_page(), lambda w: f"/bots/{w.bot.pk}/versions/", _upload
    ),
    # The parts of the bot's and the match's pages that refresh: read as the pages are.
    ("arena:bot-live", "GET"): Route(
        everyone(),
        lambda w: f"/bots/{w.bot.pk}/live/",
        secret=SECRET_LOG,
        sees_secret=frozenset({"owner"}),
    ),
    ("arena:match-live", "GET"): Route(
        everyone(), lambda w: f"/matches/{w.match.pk}/live/", secret=SECRET_STDERR
    ),
    # A challenge from Bob's bot's page with Alice's version: hers alone to send.
    ("arena:bot-challenge", "POST"): Route(
        owners_page(),
        lambda w: f"/bots/{w.bobs_version.bot_id}/challenge/",
        lambda w, role: {"version": w.version.pk, "boards": 1},
    ),
    ("arena:matches", "GET"): Route(everyone(), lambda w: "/matches/"),
    ("arena:match", "GET"): Route(
        everyone(), lambda w: f"/matches/{w.match.pk}/", secret=SECRET_STDERR
    ),
    ("arena:replay", "GET"): Route(everyone(), _replay_url(), secret=SECRET_STDERR),
    ("arena:replay-frames", "GET"): Route(
        everyone(), _replay_url("frames.json?seat=1"), secret=SECRET_STDERR
    ),
    # --- league pages and their forms --------------------------------------------------------
    ("leagues:list", "GET"): Route(everyone(), lambda w: "/leagues/"),
    ("leagues:new", "GET"): Route(signed_in(), lambda w: "/leagues/new/"),
    ("leagues:new", "POST"): Route(
        signed_in(302),
        lambda w: "/leagues/new/",
        lambda w, role: {"name": f"{role} page league", "variant": "auction4", "format": "swiss"},
    ),
    ("leagues:league", "GET"): Route(everyone(), lambda w: f"/leagues/{w.league.pk}/"),
    # The organiser's form for what the API's PATCH of the league changes.
    ("leagues:edit", "GET"): Route(owners_page(200), lambda w: f"/leagues/{w.league.pk}/edit/"),
    ("leagues:edit", "POST"): Route(
        owners_page(302),
        lambda w: f"/leagues/{w.league.pk}/edit/",
        lambda w, role: {"name": w.league.name, "description": f"edited by {role}"},
    ),
    # The organiser's and entrant's forms pass authorization and are refused for their
    # content (exact statuses: a page's PASSES would also take a redirect to sign in):
    # season 1 is still open, Alice's bot is entered already, and it is the only entrant.
    ("leagues:timetable", "POST"): Route(
        owners_page(302),
        lambda w: f"/leagues/{w.league.pk}/timetable/",
        lambda w, role: {"every_minutes": "60"},
    ),
    ("leagues:season-new", "POST"): Route(
        owners_page(400),
        lambda w: f"/leagues/{w.league.pk}/seasons/",
        lambda w, role: {"name": f"opened by {role}"},
    ),
    ("leagues:season", "GET"): Route(everyone(), _page_season_url()),
    # Anyone reads a bracket; the world's league is a round robin, which has none.
    ("leagues:bracket", "GET"): Route(everyone(404), _page_season_url("bracket/")),
    ("leagues:entry-new", "POST"): Route(
        owners_page(400), _page_season_url("entries/"), lambda w, role: {"bot": w.bot.pk}
    ),
    ("leagues:entry-withdraw", "POST"): Route(
        owners_page(),
        lambda w: _page_season_url(f"entries/{w.league_entry.pk}/withdraw/")(w),
        lambda w, role: {},
    ),
    ("leagues:round-new", "POST"): Route(
        owners_page(400), _page_season_url("rounds/"), lambda w, role: {"number": 1}
    ),
    # --- tournament pages (the running event of the API's cells) ---------------------------
    ("tournaments:list", "GET"): Route(everyone(), lambda w: "/tournaments/"),
    ("tournaments:ratings", "GET"): Route(everyone(), lambda w: "/tournaments/ratings/"),
    ("tournaments:event", "GET"): Route(everyone(), _page_event_url(), secret=EVENT_SECRET),
    ("tournaments:standings", "GET"): Route(
        everyone(), _page_event_url("standings/"), secret=EVENT_SECRET
    ),
    ("tournaments:standings-live", "GET"): Route(
        everyone(), _page_event_url("standings/live/"), secret=EVENT_SECRET
    ),
    ("tournaments:traveller", "GET"): Route(
        director_only(anonymous=403), _page_event_url("boards/1/"), secret=EVENT_SECRET
    ),
    ("tournaments:scorecard", "GET"): Route(
        director_only(anonymous=403), _page_event_url("scorecards/A/1/"), secret=EVENT_SECRET
    ),
    ("tournaments:verification", "GET"): Route(
        everyone(), _page_event_url("verification/"), secret=EVENT_SECRET
    ),
    # The director's forms. Any signed-in player may create an event (and directs it); the
    # running event takes no entry and cannot start again (400 on the event page); staff
    # finish it first, so that its director is then refused: it is no longer running.
    ("tournaments:new", "GET"): Route(signed_in(), lambda w: "/tournaments/new/"),
    ("tournaments:new", "POST"): Route(
        signed_in(302),
        lambda w: "/tournaments/new/",
        lambda w, role: {
            "name": f"{role} page night",
            "variant": "single4",
            "kind": "pairs",
            "movement": "mitchell",
            "boards_per_round": "2",
            "scale": "2-1",
            "par_bot": "greedy",
            "sections": "A",
        },
    ),
    ("tournaments:entry-new", "POST"): Route(
        director_only(400, anonymous=SIGN_IN),
        _page_event_url("entries/"),
        lambda w, role: {
            "section": "A",
            "player_1": w.event_players[8].user.username,
            "player_2": w.event_players[9].user.username,
        },
    ),
    ("tournaments:entry-withdraw", "POST"): Route(
        director_only(400, anonymous=SIGN_IN),
        lambda w: _page_event_url(
            f"entries/{tournament_selectors.player_entry_queryset(event=w.event).first().pk}/withdraw/"  # type: ignore[union-attr]
        )(w),
        lambda w, r: {},
    ),
    ("tournaments:start", "POST"): Route(
        director_only(400, anonymous=SIGN_IN), _page_event_url("start/"), lambda w, r: {}
    ),
    ("tournaments:finish", "POST"): Route(
        director_only(302, anonymous=SIGN_IN, second=400),
        _page_event_url("finish/"),
        lambda w, r: {},
    ),
    ("tournaments:round-next", "POST"): Route(
        director_only(302, anonymous=SIGN_IN), _page_event_url("rounds/next/"), lambda w, r: {}
    ),
    ("tournaments:round-close", "POST"): Route(
        director_only(302, anonymous=SIGN_IN),
        _page_event_url("rounds/close/"),
        lambda w, role: {"round": "1"},
    ),
    ("tournaments:table", "GET"): Route(
        director_only(anonymous=SIGN_IN), _table_url, secret=EVENT_SECRET
    ),
    ("tournaments:table", "POST"): Route(
        {"anonymous": SIGN_IN, "other": 403, "admin": 200, "owner": 302},
        _table_url,
        _table_form,
        secret=EVENT_SECRET,
    ),
    # The world's results are the director's and confirmed: she is told so on the event
    # page (302); a player of neither side is refused.
    ("tournaments:result-confirm", "POST"): Route(
        director_only(302, anonymous=SIGN_IN),
        lambda w: _page_event_url(f"results/{w.result.pk}/confirm/")(w),
        lambda w, r: {},
    ),
    ("tournaments:result-reject", "POST"): Route(
        director_only(302, anonymous=SIGN_IN),
        lambda w: _page_event_url(f"results/{w.result.pk}/reject/")(w),
        lambda w, r: {"reason": "the table miscounted"},
    ),
    ("tournaments:edit", "GET"): Route(
        director_only(anonymous=SIGN_IN), _page_event_url("edit/"), secret=EVENT_SECRET
    ),
    # The event is running: only its scale may change, so a new name is refused.
    ("tournaments:edit", "POST"): Route(
        director_only(400, anonymous=SIGN_IN),
        _page_event_url("edit/"),
        lambda w, role: {
            "name": f"renamed by {role}",
            "boards_per_round": "2",
            "scale": "2-1",
            "par_bot": "",
        },
    ),
    ("tournaments:hand-records", "GET"): Route(
        director_only(anonymous=403), _page_event_url("hand-records/"), secret=EVENT_SECRET
    ),
    ("tournaments:guide-cards", "GET"): Route(
        everyone(), _page_event_url("guide-cards/"), secret=EVENT_SECRET
    ),
    # --- robot duplicate events (Alice directs, by permission; staff direct any) -------------
    ("robot_events_api:list", "GET"): Route(everyone(), lambda w: "/api/robots/"),
    ("robot_events_api:list", "POST"): Route(
        director_only(201), lambda w: "/api/robots/", lambda w, role: _robot_body(role)
    ),
    ("robot_events_api:schedules", "POST"): Route(
        director_only(201),
        lambda w: "/api/robots/schedules/",
        lambda w, role: {**_robot_body(role), "hour": 18},
    ),
    # Alice's timetable: she (or staff) pauses, resumes or removes it; nobody else.
    ("robot_events_api:schedule", "PATCH"): Route(
        director_only(200),
        lambda w: f"/api/robots/schedules/{w.robot_schedule.pk}/",
        lambda w, role: {"running": False},
    ),
    ("robot_events_api:schedule", "DELETE"): Route(
        director_only(204, second=404), lambda w: f"/api/robots/schedules/{w.robot_schedule.pk}/"
    ),
    ("robot_events_api:detail", "GET"): Route(everyone(), _robots_url(), secret=ROBOT_SECRET),
    ("robot_events_api:entries", "POST"): Route(
        {"anonymous": 401, "other": 201, "admin": 201, "owner": 403}, _robots_url("entries/")
    ),
    ("robot_events_api:plays", "GET"): Route(
        {"anonymous": 401, "other": 403, "admin": 403, "owner": 403}, _robots_url("plays/")
    ),
    ("robot_events_api:plays", "POST"): Route(
        {"anonymous": 401, "other": 403, "admin": 403, "owner": 403}, _robots_url("plays/")
    ),
    ("robot_events_api:close", "POST"): Route(
        director_only(200, second=409), _robots_url("close/"), lambda w, role: {}
    ),
    ("robot_events_api:standings", "GET"): Route(everyone(), _robots_url("standings/")),
    ("robot_events_api:board", "GET"): Route(
        director_only(anonymous=403), _robots_url("boards/1/"), secret=ROBOT_SECRET
    ),
    ("robot_events_api:verification", "GET"): Route(
        everyone(), _robots_url("verification/"), secret=ROBOT_SECRET
    ),
    ("robot_events:list", "GET"): Route(everyone(), lambda w: "/robots/"),
    ("robot_events:new", "GET"): Route(director_only(anonymous=SIGN_IN), lambda w: "/robots/new/"),
    ("robot_events:new", "POST"): Route(
        director_only(302, anonymous=SIGN_IN),
        lambda w: "/robots/new/",
        lambda w, role: _robot_body(role),
    ),
    # The daily timetables and the form for a new one, as the API's schedules.
    ("robot_events:schedules", "GET"): Route(
        director_only(anonymous=SIGN_IN), lambda w: "/robots/schedules/"
    ),
    ("robot_events:schedules", "POST"): Route(
        director_only(302, anonymous=SIGN_IN),
        lambda w: "/robots/schedules/",
        lambda w, role: {**_robot_body(role), "hour": 18, "minute": 0},
    ),
    ("robot_events:schedule-running", "POST"): Route(
        director_only(302, anonymous=SIGN_IN),
        lambda w: f"/robots/schedules/{w.robot_schedule.pk}/running/",
        lambda w, role: {"running": "no"},
    ),
    ("robot_events:schedule-remove", "POST"): Route(
        director_only(302, anonymous=SIGN_IN, second=404),
        lambda w: f"/robots/schedules/{w.robot_schedule.pk}/remove/",
        lambda w, role: {},
    ),
    ("robot_events:event", "GET"): Route(everyone(), _robots_page_url(), secret=ROBOT_SECRET),
    ("robot_events:standings-live", "GET"): Route(
        everyone(), _robots_page_url("standings/live/"), secret=ROBOT_SECRET
    ),
    ("robot_events:traveller", "GET"): Route(
        director_only(anonymous=403), _robots_page_url("boards/1/"), secret=ROBOT_SECRET
    ),
    ("robot_events:verification", "GET"): Route(
        everyone(), _robots_page_url("verification/"), secret=ROBOT_SECRET
    ),
    ("robot_events:join", "POST"): Route(
        {"anonymous": SIGN_IN, "other": 302, "admin": 302, "owner": 403},
        _robots_page_url("join/"),
        lambda w, role: {},
    ),
    ("robot_events:next", "POST"): Route(
        {"anonymous": SIGN_IN, "other": 403, "admin": 403, "owner": 403},
        _robots_page_url("next/"),
        lambda w, role: {},
    ),
    ("robot_events:close", "POST"): Route(
        director_only(302, anonymous=SIGN_IN, second=409),
        _robots_page_url("close/"),
        lambda w, role: {},
    ),
    # --- play: a human's tables with bots, and challenges (only the owner sees a table) -----
    ("tables:home", "GET"): Route(everyone(), lambda w: "/play/"),
    ("tables:table-new", "POST"): Route(
        signed_in(302),
        lambda w: "/play/tables/new/",
        lambda w, role: {"variant": "twohand", "seat": "0", "bots": "reference:random"},
    ),
    ("tables:deal-options", "GET"): Route(
        everyone(), lambda w: "/play/tables/new/options/?variant=cutthroat3"
    ),
    ("tables:table", "GET"): Route(
        _hidden_table(), lambda w: f"/play/tables/{w.play_table.pk}/", secret=PLAY_SEED
    ),
    ("tables:table-state", "GET"): Route(
        _hidden_table(), lambda w: f"/play/tables/{w.play_table.pk}/state/", secret=PLAY_SEED
    ),
    ("tables:table-act", "POST"): Route(
        _hidden_table(302),
        lambda w: f"/play/tables/{w.play_table.pk}/act/",
        lambda w, role: {"action": w.play_action, "ply": str(w.play_table.ply)},
        secret=PLAY_SEED,
    ),
    ("tables:table-abandon", "POST"): Route(
        {"anonymous": SIGN_IN, "other": 404, "admin": 404, "owner": 302},
        lambda w: f"/play/tables/{w.play_table.pk}/abandon/",
        lambda w, role: {},
    ),
    ("tables:replay", "GET"): Route(
        _hidden_table(), lambda w: f"/play/tables/{w.finished_table.pk}/replay/"
    ),
    ("tables:replay-frames", "GET"): Route(
        _hidden_table(), lambda w: f"/play/tables/{w.finished_table.pk}/replay/frames.json"
    ),
    ("tables:challenges", "GET"): Route(everyone(), lambda w: "/play/challenges/"),
    ("tables:challenge-new", "POST"): Route(
        signed_in(302),
        lambda w: "/play/challenges/new/",
        lambda w, role: {"variant": "twohand", "opponent": "reference:random", "boards": "1"},
    ),
    ("tables:challenge", "GET"): Route(
        _hidden_table(), lambda w: f"/play/challenges/{w.challenge.pk}/", secret=CHALLENGE_SECRET
    ),
    # --- card tables for people: anyone watches, a signed-in person sits, the host hosts ----
    ("lobby:lobby", "GET"): Route(everyone(), lambda w: "/tables/"),
    ("lobby:new", "GET"): Route(signed_in(302), lambda w: "/tables/new/"),
    ("lobby:new", "POST"): Route(
        signed_in(302), lambda w: "/tables/new/", lambda w, role: LOBBY_NEW_TABLE
    ),
    ("lobby:new-options", "GET"): Route(
        everyone(), lambda w: "/tables/new/options/?variant=pinnacolo"
    ),
    ("lobby:table", "GET"): Route(
        everyone(), _lobby_url(), secret=LOBBY_TOKEN, sees_secret=frozenset({"owner"})
    ),
    ("lobby:frame", "GET"): Route(
        everyone(), _lobby_url("frame/"), secret=LOBBY_TOKEN, sees_secret=frozenset({"owner"})
    ),
    ("lobby:join", "GET"): Route(
        everyone(), lambda w: f"/tables/{w.lobby_table.pk}/join/{w.lobby_table.invite_token}/"
    ),
    ("lobby:act", "POST"): Route(
        {"anonymous": 403, "other": 403, "admin": 403, "owner": 409},
        _lobby_url("act/"),
        lambda w, role: {"action": "pass", "ply": "0"},
    ),
    ("lobby:talk", "POST"): Route(
        {"anonymous": 403, "other": 403, "admin": 403, "owner": 200},
        _lobby_url("talk/"),
        lambda w, role: {"key": "hello"},
    ),
    ("lobby:sit", "POST"): Route(
        # Bob takes the open seat first: it is no longer free for the others.
        {"anonymous": SIGN_IN, "other": 302, "admin": 409, "owner": 409},
        _lobby_url("sit/"),
        lambda w, role: {"seat": "1"},
    ),
    ("lobby:leave", "POST"): Route(
        {"anonymous": SIGN_IN, "other": 403, "admin": 403, "owner": 302},
        _lobby_url("leave/"),
        lambda w, role: {},
    ),
    ("lobby:fill", "POST"): Route(
        {"anonymous": SIGN_IN, "other": 403, "admin": 403, "owner": 302},
        _lobby_url("fill/"),
        lambda w, role: {"seat": "1", "bot": "reference:random"},
    ),
    ("lobby:result", "GET"): Route(everyone(), _lobby_url("result/")),
    # A hand is replayed once its game is over: the world's table has not started.
    ("lobby:hand-replay", "GET"): Route(everyone(404), _lobby_url("hands/1/")),
    ("lobby:hand-frames", "GET"): Route(everyone(404), _lobby_url("hands/1/frames.json")),
    ("tables_api:tables", "GET"): Route(players_only(), lambda w: "/api/play/tables/"),
    ("tables_api:tables", "POST"): Route(
        players_only(201),
        lambda w: "/api/play/tables/",
        lambda w, role: {"variant": "twohand", "bots": [{"kind": "reference", "name": "random"}]},
    ),
    ("tables_api:table", "GET"): Route(
        _hidden_table(anonymous=401),
        lambda w: f"/api/play/tables/{w.play_table.pk}/",
        secret=PLAY_SEED,
    ),
    ("tables_api:table-actions", "POST"): Route(
        _hidden_table(anonymous=401),
        lambda w: f"/api/play/tables/{w.play_table.pk}/actions/",
        lambda w, role: {"action": w.play_action, "ply": w.play_table.ply},
        secret=PLAY_SEED,
    ),
    ("tables_api:table-abandon", "POST"): Route(
        {"anonymous": 401, "other": 404, "admin": 404, "owner": OK},
        lambda w: f"/api/play/tables/{w.play_table.pk}/abandon/",
        lambda w, role: {},
    ),
    ("tables_api:challenges", "GET"): Route(players_only(), lambda w: "/api/play/challenges/"),
    ("tables_api:challenges", "POST"): Route(
        players_only(201),
        lambda w: "/api/play/challenges/",
        lambda w, role: {
            "variant": "twohand",
            "opponent": {"kind": "reference", "name": "random"},
            "boards": 1,
        },
    ),
    ("tables_api:challenge", "GET"): Route(
        _hidden_table(anonymous=401),
        lambda w: f"/api/play/challenges/{w.challenge.pk}/",
        secret=CHALLENGE_SECRET,
    ),
    # --- API: card tables for people --------------------------------------------------------
    ("lobby_api:tables", "GET"): Route(everyone(), lambda w: "/api/lobby/tables/"),
    ("lobby_api:tables", "POST"): Route(
        players_only(201),
        lambda w: "/api/lobby/tables/",
        lambda w, role: {
            "variant": "twohand",
            "seats": [
                {"kind": "host"},
                {"kind": "bot", "bot": {"kind": "reference", "name": "random"}},
            ],
        },
    ),
    # Anyone watches a table; only its host is given the invitation's token.
    ("lobby_api:table", "GET"): Route(
        everyone(),
        lambda w: f"/api/lobby/tables/{w.lobby_table.pk}/",
        secret=LOBBY_TOKEN,
        sees_secret=frozenset({"owner"}),
    ),
    ("lobby_api:sit", "POST"): Route(
        # Bob and the admin take the open seats; Alice hosts the table already.
        {"anonymous": 401, "other": OK, "admin": OK, "owner": 409},
        lambda w: f"/api/lobby/tables/{w.lobby_table.pk}/sit/",
        lambda w, role: {"seat": {"other": 1, "admin": 2}.get(role, 1)},
    ),
    ("lobby_api:leave", "POST"): Route(
        owner_only(), lambda w: f"/api/lobby/tables/{w.lobby_table.pk}/leave/", lambda w, r: {}
    ),
    ("lobby_api:fill", "POST"): Route(
        owner_only(),
        lambda w: f"/api/lobby/tables/{w.lobby_table.pk}/fill/",
        lambda w, role: {"seat": 1, "bot": {"kind": "reference", "name": "greedy"}},
    ),
    ("lobby_api:act", "POST"): Route(
        # Only a seated person acts, and not before the game starts.
        owner_only(409),
        lambda w: f"/api/lobby/tables/{w.lobby_table.pk}/act/",
        lambda w, role: {"action": "pass", "ply": 0},
    ),
    ("lobby_api:talk", "POST"): Route(
        owner_only(),
        lambda w: f"/api/lobby/tables/{w.lobby_table.pk}/talk/",
        lambda w, role: {"key": "hello"},
    ),
    # --- API: documents, tokens, players ----------------------------------------------------
    ("arena_api:api-root", "GET"): Route(everyone(), lambda w: "/api/"),
    ("schema", "GET"): Route(everyone(), lambda w: "/api/schema/"),
    ("swagger-ui", "GET"): Route(everyone(), lambda w: "/api/docs/"),
    ("redoc", "GET"): Route(everyone(), lambda w: "/api/redoc/"),
    ("arena_api:token", "POST"): Route(
        everyone(),
        lambda w: "/api/auth/token/",
        lambda w, role: {"username": "card9", "password": PASSWORD},
    ),
    ("arena_api:player-list", "GET"): Route(everyone(), lambda w: "/api/players/"),
    ("arena_api:player-list", "POST"): Route(
        everyone(201),
        lambda w: "/api/players/",
        lambda w, role: {"username": f"new-{role}", "password": PASSWORD},
    ),
    ("arena_api:player-detail", "GET"): Route(everyone(), lambda w: f"/api/players/{w.alice.pk}/"),
    # --- bots and versions -----------------------------------------------------------------
    ("arena_api:bot-list", "GET"): Route(everyone(), lambda w: "/api/bots/"),
    ("arena_api:bot-list", "POST"): Route(
        players_only(201),
        lambda w: "/api/bots/",
        lambda w, role: {"name": f"{role}-bot", "variant": "auction4"},
    ),
    ("arena_api:bot-detail", "GET"): Route(everyone(), lambda w: f"/api/bots/{w.bot.pk}/"),
    ("arena_api:bot-versions", "GET"): Route(
        everyone(), _version_url(), secret=SECRET_LOG, sees_secret=frozenset({"owner"})
    ),
    ("arena_api:bot-versions", "POST"): Route(
        owner_only(201),
        _version_url(),
        lambda w, role: {"source": FIRST_LEGAL_BOT.decode() + f"# {role}\n"},
    ),
    ("arena_api:bot-version-detail", "GET"): Route(
        everyone(), _version_url("1/"), secret=SECRET_LOG, sees_secret=frozenset({"owner"})
    ),
    ("arena_api:bot-version-source", "GET"): Route(
        owner_only(),
        _version_url("1/source/"),
        secret=SECRET_SOURCE,
        sees_secret=frozenset({"owner"}),
    ),
    ("arena_api:bot-version-ratings", "GET"): Route(everyone(), _version_url("1/ratings/")),
    # --- matches and ratings ----------------------------------------------------------------
    ("arena_api:match-list", "GET"): Route(everyone(), lambda w: "/api/matches/"),
    ("arena_api:match-list", "POST"): Route(
        owner_only(201),
        lambda w: "/api/matches/",
        lambda w, role: {"version": w.version.pk, "opponent": w.bobs_version.pk, "boards": 1},
    ),
    ("arena_api:match-detail", "GET"): Route(everyone(), lambda w: f"/api/matches/{w.match.pk}/"),
    ("arena_api:match-verification", "GET"): Route(
        everyone(), lambda w: f"/api/matches/{w.match.pk}/verification/", secret=SECRET_STDERR
    ),
    ("arena_api:match-replay", "GET"): Route(
        everyone(),
        lambda w: f"/api/matches/{w.match.pk}/replay/",
        secret=SECRET_STDERR,
        sees_secret=frozenset({"owner"}),
    ),
    ("arena_api:ratings", "GET"): Route(everyone(), lambda w: "/api/ratings/"),
    ("arena_api:notices", "GET"): Route(players_only(200), lambda w: "/api/notices/"),
    ("arena_api:notices-read", "POST"): Route(
        players_only(200), lambda w: "/api/notices/read/", lambda w, r: {}
    ),
    ("arena_api:sprt", "GET"): Route(
        everyone(), lambda w: f"/api/ratings/sprt/?a={w.version.pk}&b={w.bobs_version.pk}"
    ),
    ("arena_api:controls", "GET"): Route(everyone(), lambda w: "/api/ratings/controls/"),
    # --- leagues -----------------------------------------------------------------------------
    ("leagues_api:league-list", "GET"): Route(everyone(), lambda w: "/api/leagues/"),
    ("leagues_api:league-list", "POST"): Route(
        players_only(201),
        lambda w: "/api/leagues/",
        lambda w, role: {"name": f"{role} league", "variant": "auction4", "format": "swiss"},
    ),
    ("leagues_api:league-detail", "GET"): Route(
        everyone(), lambda w: f"/api/leagues/{w.league.pk}/"
    ),
    ("leagues_api:league-detail", "PATCH"): Route(
        owner_only(),
        lambda w: f"/api/leagues/{w.league.pk}/",
        lambda w, role: {"description": f"edited by {role}"},
    ),
    ("leagues_api:league-timetable", "GET"): Route(
        everyone(), lambda w: f"/api/leagues/{w.league.pk}/timetable/"
    ),
    ("leagues_api:league-timetable", "PUT"): Route(
        owner_only(),
        lambda w: f"/api/leagues/{w.league.pk}/timetable/",
        lambda w, role: {"every_minutes": 60},
    ),
    ("leagues_api:league-timetable", "DELETE"): Route(
        owner_only(204), lambda w: f"/api/leagues/{w.league.pk}/timetable/"
    ),
    ("leagues_api:seasons", "GET"): Route(
        everyone(), lambda w: f"/api/leagues/{w.league.pk}/seasons/"
    ),
    ("leagues_api:seasons", "POST"): Route(
        owner_only(PASSES), lambda w: f"/api/leagues/{w.league.pk}/seasons/", lambda w, r: {}
    ),
    ("leagues_api:season", "GET"): Route(everyone(), _season_url()),
    ("leagues_api:entries", "GET"): Route(everyone(), _season_url("entries/")),
    ("leagues_api:entries", "POST"): Route(
        owner_only(PASSES), _season_url("entries/"), lambda w, role: {"bot": w.bot.pk}
    ),
    ("leagues_api:entry", "GET"): Route(
        everyone(), lambda w: _season_url(f"entries/{w.league_entry.pk}/")(w)
    ),
    ("leagues_api:entry", "DELETE"): Route(
        owner_only(204), lambda w: _season_url(f"entries/{w.league_entry.pk}/")(w)
    ),
    ("leagues_api:rounds", "GET"): Route(everyone(), _season_url("rounds/")),
    ("leagues_api:rounds", "POST"): Route(
        owner_only(PASSES), _season_url("rounds/"), lambda w, role: {"number": 1}
    ),
    ("leagues_api:round", "GET"): Route(everyone(404), _season_url("rounds/1/")),
    ("leagues_api:standings", "GET"): Route(everyone(), _season_url("standings/")),
    # Anyone reads a bracket; the world's league is a round robin, which has none.
    ("leagues_api:bracket", "GET"): Route(everyone(404), _season_url("bracket/")),
    # --- tournaments (a running event, every result entered but one) -----------------------
    ("tournaments_api:list", "GET"): Route(everyone(), lambda w: "/api/tournaments/"),
    ("tournaments_api:list", "POST"): Route(
        players_only(201),
        lambda w: "/api/tournaments/",
        lambda w, role: {"name": f"{role} night", "variant": "single4"},
    ),
    ("tournaments_api:ratings", "GET"): Route(everyone(), lambda w: "/api/tournaments/ratings/"),
    ("tournaments_api:detail", "GET"): Route(everyone(), _event_url()),
    ("tournaments_api:detail", "PATCH"): Route(
        director_only(PASSES), _event_url(), lambda w, role: {"name": f"renamed by {role}"}
    ),
    ("tournaments_api:entries", "GET"): Route(everyone(), _event_url("entries/")),
    ("tournaments_api:entries", "POST"): Route(
        director_only(PASSES),
        _event_url("entries/"),
        lambda w, role: {"section": "A", "players": [p.pk for p in w.event_players[8:10]]},
    ),
    ("tournaments_api:entry", "DELETE"): Route(
        director_only(PASSES),
        lambda w: _event_url(
            f"entries/{tournament_selectors.player_entry_queryset(event=w.event).first().pk}/"  # type: ignore[union-attr]
        )(w),
    ),
    ("tournaments_api:start", "POST"): Route(
        director_only(PASSES), _event_url("start/"), lambda w, r: {}
    ),
    ("tournaments_api:finish", "POST"): Route(
        director_only(PASSES), _event_url("finish/"), lambda w, r: {}
    ),
    ("tournaments_api:round-next", "POST"): Route(
        director_only(PASSES), _event_url("rounds/next/"), lambda w, r: {}
    ),
    ("tournaments_api:round-close", "POST"): Route(
        director_only(PASSES), _event_url("rounds/close/"), lambda w, role: {"round": 1}
    ),
    ("tournaments_api:movement", "GET"): Route(everyone(), _event_url("movement/")),
    ("tournaments_api:results", "GET"): Route(director_only(anonymous=403), _event_url("results/")),
    ("tournaments_api:results", "POST"): Route(
        director_only(201, second=PASSES),
        _event_url("results/"),
        lambda w, role: _result_body(w),
    ),
    ("tournaments_api:result", "PATCH"): Route(
        director_only(),
        lambda w: _event_url(f"results/{w.result.pk}/")(w),
        lambda w, role: _correction_body(w),
    ),
    ("tournaments_api:corrections", "GET"): Route(
        director_only(anonymous=403), _event_url("corrections/")
    ),
    # The world's results are the director's, confirmed as entered: a player of the other
    # side is the only non-director allowed, and the director is told it is confirmed.
    ("tournaments_api:results-pending", "GET"): Route(
        players_only(), _event_url("results/pending/")
    ),
    ("tournaments_api:result-confirm", "POST"): Route(
        director_only(400),
        lambda w: _event_url(f"results/{w.result.pk}/confirm/")(w),
        lambda w, role: {},
    ),
    ("tournaments_api:result-reject", "POST"): Route(
        director_only(400),
        lambda w: _event_url(f"results/{w.result.pk}/reject/")(w),
        lambda w, role: {"reason": "the table miscounted"},
    ),
    ("tournaments_api:reviews", "GET"): Route(director_only(anonymous=403), _event_url("reviews/")),
    ("tournaments_api:standings", "GET"): Route(everyone(), _event_url("standings/")),
    ("tournaments_api:scorecard", "GET"): Route(
        {"anonymous": 403, "other": 403, "admin": 200, "owner": 200},
        _event_url("scorecard/?section=A&entry=1"),
    ),
    ("tournaments_api:board", "GET"): Route(director_only(anonymous=403), _event_url("boards/1/")),
    ("tournaments_api:hand-records", "GET"): Route(
        director_only(anonymous=403), _event_url("hand-records/")
    ),
    ("tournaments_api:hand-records-pdf", "GET"): Route(
        director_only(anonymous=403), _event_url("hand-records.pdf")
    ),
    ("tournaments_api:verification", "GET"): Route(
        everyone(),
        _event_url("verification/"),
        secret=EVENT_SECRET,
    ),
}


def _walk(
    patterns: list[Any], prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, URLPattern]]:
    """Each route's path, its name as ``reverse`` takes it (with its namespace) and pattern."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            yield prefix + str(pattern.pattern), f"{namespace}{pattern.name}", pattern


def _methods(pattern: URLPattern) -> list[str]:
    callback = pattern.callback
    actions = getattr(callback, "actions", None)
    if actions:  # a DRF viewset: the methods its router bound (HEAD is GET's)
        return sorted(method.upper() for method in actions if method != "head")
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if view_class is None:
        return _function_methods(callback)
    methods = ["get", "post", "put", "patch", "delete"]
    if not issubclass(view_class, APIView):
        methods.remove("put")  # Django's form views answer PUT by calling post()
    allowed = getattr(view_class, "http_method_names", methods)
    return [m.upper() for m in methods if hasattr(view_class, m) and m in allowed]


def _function_methods(view: Callable[..., Any]) -> list[str]:
    """The methods a function view answers: those of every ``require_http_methods`` around
    it (the decorator keeps its list in the closure of the function it returns, and
    ``functools.wraps`` links each layer to the next), else GET and those it tests for."""
    allowed: set[str] | None = None
    layer: Any = view
    while layer is not None:
        code = getattr(layer, "__code__", None)
        if code is not None and "request_method_list" in code.co_freevars:
            cell = layer.__closure__[code.co_freevars.index("request_method_list")]
            listed = {method.upper() for method in cell.cell_contents}
            allowed = listed if allowed is None else allowed & listed
        layer = getattr(layer, "__wrapped__", None)
    if allowed is None:
        source = inspect.getsource(inspect.unwrap(view))
        allowed = {"GET", *re.findall(r"request\.method\s*==\s*[\"'](\w+)[\"']", source)}
    return sorted(allowed - {"HEAD", "OPTIONS"})


def declared_routes() -> set[tuple[str, str]]:
    found = set()
    for route, name, pattern in _walk(get_resolver().url_patterns):
        if route.lstrip("^").startswith(EXCLUDED_PREFIXES):
            continue
        for method in _methods(pattern):
            found.add((name, method))
    return found


def test_every_route_has_a_declared_expectation() -> None:
    routes = declared_routes()
    undeclared = sorted(routes - set(ROUTES))
    assert not undeclared, f"declare who may use these routes: {undeclared}"
    stale = sorted(set(ROUTES) - routes)
    assert not stale, f"these declarations name no route: {stale}"


def _snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row the product stores (its apps and the beat schedule), for 'changed nothing'."""
    labels = (
        "arena",
        "leagues",
        "tournaments",
        "play",
        "robots",
        "lobby",
        "django_celery_beat",
        "authtoken",
        "auth",
    )
    rows = {}
    for model in apps.get_models():
        if model._meta.app_label in labels:
            rows[model._meta.label] = sorted(
                (repr(sorted(row.items())) for row in model.objects.values()),
            )
    return rows  # type: ignore[return-value]


def _client(world: World, role: str) -> APIClient:
    client = APIClient()
    user = world.user(role)
    if user is not None:
        client.force_login(user)
    return client


def _request(client: Client, method: str, url: str, body: dict[str, Any] | None) -> Any:
    if body is None:
        return client.generic(method, url)
    if any(isinstance(value, SimpleUploadedFile) for value in body.values()):
        assert method == "POST", "files are posted"
        # Multipart, as a browser's form with a file.
        return client.generic(method, url, encode_multipart(BOUNDARY, body), MULTIPART_CONTENT)
    if url.startswith("/api/"):
        return client.generic(method, url, json.dumps(body), "application/json")
    return client.generic(method, url, urlencode(body), "application/x-www-form-urlencoded")


def _refusal(response: Any) -> str:
    """What a refused page said (its error text sits below the page's head)."""
    found = re.findall(
        r'class="(?:error|errors|upload-error|message)[^"]*"[^>]*>([^<]*)',
        response.content.decode(errors="replace"),
    )
    return f" ({'; '.join(found)})" if found else ""


def _status_matches(expected: int | str, response: Any) -> bool:
    status = response.status_code
    if expected == SIGN_IN:
        if status != 302:
            return False
        target = urlsplit(response["Location"])
        return target.path == reverse("login") and target.query.startswith("next=")
    if expected == OK:
        return 200 <= status < 300
    if expected == PASSES:
        return status not in (401, 403) and status < 500
    return status == expected


@pytest.fixture(autouse=True)
def fast_hashing_and_plain_bots(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SANDBOX_MODE = "plain"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for the module, committed; each test's own transaction is rolled back, so
    every test starts from it. Emptied at the end, as Django's TransactionTestCase does."""
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=fast, SANDBOX_MODE="plain"),
    ):
        built = build_world()
    yield built
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.mark.parametrize(("name", "method"), sorted(ROUTES), ids=lambda part: str(part))
def test_each_role_gets_what_the_route_declares(
    db: None, world: World, name: str, method: str
) -> None:
    declaration = ROUTES[(name, method)]
    raw = declaration.secret
    named = {
        EVENT_SECRET: world.event.secret,
        TOKEN: world.token,
        ROBOT_SECRET: world.robot_event.secret,
        PLAY_SEED: str(world.play_table.seed),
        CHALLENGE_SECRET: world.challenge.seed_secret,
        LOBBY_TOKEN: world.lobby_table.invite_token,
    }
    secrets = [named.get(text, text) for text in ((raw,) if isinstance(raw, str) else raw or ())]
    for role in ROLES:
        client = _client(world, role)
        url = declaration.url(world)
        expected = declaration.expect[role]
        # Only a refusal is compared with the data before it, and a refusal of a request that
        # must succeed already fails on its status: no snapshot is needed for those.
        before = _snapshot() if method != "GET" and expected != OK else {}
        response = _request(
            client, method, url, declaration.body(world, role) if declaration.body else None
        )
        assert _status_matches(expected, response), (
            f"{method} {url} as {role}: expected {expected}, got {response.status_code}: "
            f"{response.content[:300]!r}{_refusal(response)}"
        )
        if method != "GET" and (response.status_code >= 400 or expected == SIGN_IN):
            assert _snapshot() == before, f"{method} {url} as {role} was refused but changed data"
        content = response.content.decode(errors="replace")
        for secret in secrets:
            if role in declaration.sees_secret:
                assert secret in content, f"{role} should see the secret of {url}"
            else:
                assert secret not in content, f"{url} leaks its secret to {role}"
