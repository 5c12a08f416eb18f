"""No template comment reaches a page.

Django's ``{# ... #}`` comment ends on its own line: one that runs on to the next line is
not a comment at all, and its text is printed on the page as it stands. A comment of more
than one line is ``{% comment %}...{% endcomment %}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from arena import services as arena_services
from arena.models import Player
from leagues import services as league_services
from leagues.models import League
from robot_events import services as robot_services
from robot_events.models import ROBOT_VARIANTS, RobotEvent
from tests.arena.conftest import FIRST_LEGAL_BOT, trusted_version
from tournaments import demo as tournaments_demo
from tournaments.models import Event

ROOT = Path(__file__).resolve().parents[1]


def template_files() -> list[Path]:
    """Every app's templates (each app keeps its own under ``<app>/templates/``)."""
    return sorted(path for path in ROOT.glob("*/templates/**/*") if path.is_file())


def unclosed_comments(text: str) -> list[tuple[int, str]]:
    """The lines (number, text) where a ``{#`` comment is not closed on the same line, or a
    ``#}`` closes none opened on it."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        rest, broken = line, False
        while rest:
            opening, closing = rest.find("{#"), rest.find("#}")
            if opening < 0 and closing < 0:
                break
            if opening < 0 or closing < opening + 2:
                broken = True
                break
            rest = rest[closing + 2 :]
        if broken:
            found.append((number, line))
    return found


def test_the_scanner_finds_a_comment_left_open() -> None:
    assert unclosed_comments("{# one line #} <p>{{ x }}</p> {# two #}") == []
    assert unclosed_comments("{% comment %}\nmany\nlines\n{% endcomment %}") == []
    assert unclosed_comments("<p>\n{# starts here\n   ends here #}\n</p>") == [
        (2, "{# starts here"),
        (3, "   ends here #}"),
    ]
    assert unclosed_comments("{#} #}") == [(1, "{#} #}")]


def test_every_template_closes_each_comment_on_its_own_line() -> None:
    files = template_files()
    assert len(files) > 50  # the scan does see the templates
    broken = {
        path.relative_to(ROOT).as_posix(): found
        for path in files
        if (found := unclosed_comments(path.read_text()))
    }
    assert broken == {}


def _content() -> Player:
    """A player who owns a bot, organises a league and directs a robot event, beside the
    demo's tournaments (a finished one and one in play): lists with rows in them, since
    the event table (and the comment it once printed) is drawn only then."""
    tournaments_demo.seed(say=lambda _: None)
    player = arena_services.player_register(username="dora", password="a-long-password-1")
    player.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    player = Player.objects.select_related("user").get(pk=player.pk)
    trusted_version(player, "first", FIRST_LEGAL_BOT)
    league_services.league_create(
        organiser=player, name="Club league", variant="auction4", format=League.Format.SWISS
    )
    robot_services.robot_event_create(
        director=player,
        name="Instant robots",
        variant=ROBOT_VARIANTS[0],
        boards=2,
        robots="greedy",
        kind="instant",
        scoring="mp",
    )
    return player


def _pages(player: Player) -> list[str]:
    """The site's main pages, and the page of each thing made above."""
    pages = ["/", "/tournaments/", "/tournaments/ratings/", "/robots/", "/play/", "/leagues/"]
    pages += ["/matches/", "/leaderboards/auction4/", "/protocol/", "/ratings/sprt/"]
    pages += [f"/players/{player.user.username}/"]
    pages += [f"/bots/{bot}/" for bot in player.bots.values_list("pk", flat=True)]
    pages += [f"/leagues/{league.pk}/" for league in League.objects.all()]
    pages += [f"/tournaments/{event.pk}/" for event in Event.objects.all()]
    pages += [f"/robots/{event.pk}/" for event in RobotEvent.objects.all()]
    return pages


@pytest.mark.django_db
def test_no_template_comment_reaches_the_main_pages(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        player = _content()
    assert Event.objects.count() == 2 and RobotEvent.objects.count() == 1
    signed_in = Client()
    signed_in.force_login(player.user)
    pages = _pages(player)
    assert len(pages) == 16
    for client in (Client(), signed_in):
        for page in pages:
            response = client.get(page)
            assert response.status_code == 200, page
            text = response.content.decode()
            assert "{#" not in text and "#}" not in text, page
