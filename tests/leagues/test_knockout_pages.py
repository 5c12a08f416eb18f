"""A knockout from a person's side (README.md, "Leagues", knockout): the organiser creates
one from the page form or the API, and anyone reads its bracket, linked from the league's
and the season's pages: seeds, byes, results linked to their matches, the champion."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from rest_framework.test import APIClient

from arena.models import Match, Player, Rating
from leagues import services
from leagues.models import Entry, Fixture, League, Season
from tests.leagues.conftest import create_league, end_match, ready_version
from tests.people import PASSWORD


def _signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def test_the_organiser_creates_a_knockout_from_the_form_and_from_the_api(
    organiser: Player, organiser_client: APIClient
) -> None:
    page = _signed_in(organiser)
    assert 'value="knockout"' in page.get("/leagues/new/").content.decode()
    answer = page.post(
        "/leagues/new/", {"name": "Cup", "variant": "auction4", "format": "knockout"}
    )
    assert answer.status_code == 302
    assert League.objects.get(name="Cup").format == "knockout"

    created = create_league(organiser_client, name="API cup", format="knockout")
    assert created["format"] == "knockout"
    listed = APIClient().get("/api/leagues/", {"league_format": "knockout"}).json()
    assert {league["name"] for league in listed["results"]} == {"Cup", "API cup"}
    refused = organiser_client.post(
        "/api/leagues/", {"name": "X", "variant": "auction4", "format": "knockouts"}
    )
    assert refused.status_code == 400 and "knockouts" in refused.content.decode()


def _five_seeded(organiser: Player, owner: Player) -> Season:
    league = services.league_create(
        organiser=organiser, name="Cup", variant="auction4", format="knockout", boards_per_match=3
    )
    season = services.season_create(league=league)
    for name, elo in (("ace", 1700.0), ("bee", 1600.0), ("cat", 1500.0), ("dog", 1400.0)):
        version = ready_version(owner, name)
        Rating.objects.create(
            version=version, variant="auction4", elo=elo, elo_low=elo - 9, elo_high=elo + 9
        )
        services.entry_create(season=season, bot=version.bot, version=version)
    newcomer = ready_version(owner, "eel")  # unrated: seeded last
    services.entry_create(season=season, bot=newcomer.bot, version=newcomer)
    return season


def _sides(html: str) -> list[tuple[str, str, bool]]:
    """Each side shown in the bracket, in order: (seed, bot, whether it goes through)."""
    return [
        (seed, name, advanced == " advanced")
        for advanced, seed, name in re.findall(
            r'<p class="side( advanced| bye)?"><span class="seed">(\d*)</span>'
            r'<span class="name">(?:<a href="[^"]+">alice/(\w+)</a>|<em>bye</em>|'
            r'<span class="muted">to be decided</span>)',
            html,
        )
    ]


def test_anyone_reads_the_bracket_with_seeds_byes_results_and_the_champion(
    organiser: Player, alice: Player
) -> None:
    season = _five_seeded(organiser, alice)
    url = f"/leagues/{season.league_id}/seasons/1/bracket/"
    before = Client().get(url).content.decode()
    assert "The bracket is drawn when round 1 is scheduled" in before

    services.round_schedule(season=season, number=1)
    tie = Fixture.objects.get(walkover="")
    assert tie.match_id is not None
    end_match(tie.match_id, score_x=0)  # a draw on the total: eel won more boards
    Match.objects.filter(pk=tie.match_id).update(board_results=[-20, 30, -10])
    services.round_schedule(season=season, number=2)

    html = Client().get(url).content.decode()
    assert "<h3>Quarter-finals" in html and "<h3>Semi-finals" in html and "<h3>Final</h3>" in html
    # The quarter-finals in bracket order: 1 (bye), 4 v 5, 2 (bye), 3 (bye); then 1 v 5 and 2 v 3.
    assert _sides(html) == [
        ("1", "ace", True),
        ("", "", False),
        ("4", "dog", False),
        ("5", "eel", True),
        ("2", "bee", True),
        ("", "", False),
        ("3", "cat", True),
        ("", "", False),
        ("1", "ace", False),
        ("5", "eel", False),
        ("2", "bee", False),
        ("3", "cat", False),
        ("", "", False),
        ("", "", False),
    ]
    assert html.count("<em>bye</em>") == 3
    assert f'href="/matches/{tie.match_id}/"' in html
    assert "drawn: more boards won, 2 to 1" in html
    assert "Champion" not in html

    for number in (2, 3):
        for fixture in Fixture.objects.filter(round__number=number, walkover=""):
            assert fixture.match_id is not None
            end_match(fixture.match_id, score_x=40)  # the better seed, at X, wins
        if number == 2:
            services.round_schedule(season=season, number=3)
    services.rounds_close_ended()
    assert Season.objects.get().status == "finished"
    html = Client().get(url).content.decode()
    assert re.search(r'Champion: <strong><a href="/bots/\d+/">alice/ace</a></strong>', html)


def test_the_league_and_season_pages_link_to_the_bracket(organiser: Player, alice: Player) -> None:
    season = _five_seeded(organiser, alice)
    services.round_schedule(season=season, number=1)
    bracket = f"/leagues/{season.league_id}/seasons/1/bracket/"
    assert f'href="{bracket}"' in Client().get(f"/leagues/{season.league_id}/").content.decode()
    season_page = Client().get(f"/leagues/{season.league_id}/seasons/1/").content.decode()
    assert f'href="{bracket}"' in season_page
    assert "the round reached (the champion first), then seed" in season_page


def test_a_season_of_another_format_has_no_bracket(organiser_client: APIClient) -> None:
    league = create_league(organiser_client, format="round_robin")
    organiser_client.post(f"/api/leagues/{league['id']}/seasons/", {})
    answer = Client().get(f"/leagues/{league['id']}/seasons/1/bracket/")
    assert answer.status_code == 404
    assert "no knockout season 1" in answer.content.decode()
    assert "/bracket/" not in Client().get(f"/leagues/{league['id']}/").content.decode()


def test_the_bracket_page_reads_in_a_fixed_number_of_queries(
    organiser: Player, alice: Player, django_assert_max_num_queries: Any
) -> None:
    season = _five_seeded(organiser, alice)
    services.round_schedule(season=season, number=1)
    with django_assert_max_num_queries(12):
        assert Client().get(f"/leagues/{season.league_id}/seasons/1/bracket/").status_code == 200


def test_the_api_gives_the_same_bracket_and_its_champion(organiser: Player, alice: Player) -> None:
    season = _five_seeded(organiser, alice)
    url = f"/api/leagues/{season.league_id}/seasons/1/bracket/"
    assert APIClient().get(url).json() == {"season": 1, "status": "open", "brackets": []}
    for number in (1, 2, 3):
        services.round_schedule(season=season, number=number)
        for fixture in Fixture.objects.filter(round__number=number, walkover=""):
            assert fixture.match_id is not None
            end_match(fixture.match_id, score_x=-40)  # the worse seed, at Y, wins
        if number == 1:
            # Round 1's result already fills round 2 in; the final waits for both sides.
            rounds = APIClient().get(url).json()["brackets"][0]["rounds"]
            waiting = rounds[1]["ties"][0]
            assert (waiting["x"]["bot"], waiting["y"]["bot"], waiting["match"]) == (
                "ace",
                "eel",
                None,
            )
            unknown = {
                "seed": None,
                "entry": None,
                "bot": None,
                "owner": None,
                "advanced": False,
                "score": None,
            }
            assert rounds[2]["ties"][0]["x"] == rounds[2]["ties"][0]["y"] == unknown
    services.rounds_close_ended()

    answer = APIClient().get(url).json()
    assert answer["status"] == "finished"
    [bracket] = answer["brackets"]
    names = [
        [(t["x"]["bot"], t["y"] and t["y"]["bot"]) for t in r["ties"]] for r in bracket["rounds"]
    ]
    assert names == [
        [("ace", None), ("dog", "eel"), ("bee", None), ("cat", None)],
        [("ace", "eel"), ("bee", "cat")],
        [("cat", "eel")],
    ]
    final = bracket["rounds"][2]
    assert (final["name"], final["status"]) == ("Final", "complete")
    [tie] = final["ties"]
    assert (tie["x"]["seed"], tie["x"]["score"], tie["y"]["seed"], tie["y"]["score"]) == (
        3,
        -40,
        5,
        40,
    )
    assert tie["y"]["advanced"] and tie["decided_by"] == "on the board total"
    assert bracket["champion"] == tie["y"]["entry"] == Entry.objects.get(bot__name="eel").pk

    assert APIClient().get("/api/leagues/999/seasons/1/bracket/").status_code == 404
