"""The demo's knockout (leagues/demo.py): a season in play whose bracket a visitor reaches
by the leagues' links, from the list to the league to its bracket; seeding it again adds
nothing."""

from __future__ import annotations

import re

from django.test import Client

from arena.models import Player
from leagues import demo
from leagues.models import Fixture, League, Season
from tests.leagues.conftest import ready_version


def test_the_demo_knockout_is_in_play_and_its_bracket_is_reached_by_links(
    alice: Player, bob: Player, carol: Player
) -> None:
    versions = [ready_version(owner, f"{owner.user.username}-ref") for owner in (alice, bob, carol)]
    said: list[str] = []
    season = demo.seed_knockout(organiser=alice, versions=versions, say=said.append)
    again = demo.seed_knockout(organiser=alice, versions=versions, say=said.append)
    assert again.pk == season.pk and League.objects.count() == 1
    assert season.league.format == League.Format.KNOCKOUT
    assert (season.status, season.round_count) == (Season.Status.RUNNING, 2)
    # Three in a bracket of four: seed 1 has a bye, seeds 2 and 3 play round 1.
    fixtures = Fixture.objects.filter(round__season=season, round__number=1)
    assert sorted(f.walkover for f in fixtures) == ["", Fixture.Walkover.BYE]
    assert said[-1] == "knockout Reference bots cup: round 1 of 2 scheduled"

    visitor = Client()
    listing = visitor.get("/leagues/").content.decode()
    league_url = f"/leagues/{season.league_id}/"
    assert f'href="{league_url}"' in listing
    league_page = visitor.get(league_url).content.decode()
    bracket_url = f"/leagues/{season.league_id}/seasons/{season.number}/bracket/"
    assert f'href="{bracket_url}"' in league_page
    bracket = visitor.get(bracket_url)
    assert bracket.status_code == 200
    assert len(re.findall(r"<em>bye</em>", bracket.content.decode())) == 1
