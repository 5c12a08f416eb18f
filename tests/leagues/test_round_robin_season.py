"""A round robin season from entries to final standings, rounds scheduled through the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena.models import Match
from leagues import scheduling
from leagues.models import Fixture, Round, Season
from leagues.services import rounds_close_ended
from tests.leagues.conftest import (
    RANDOM_BOT,
    client_for,
    create_league,
    enter,
    open_season,
    play_round,
    ready_version,
    schedule,
)

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def three_entrants(organiser_client: APIClient, alice, bob, carol) -> int:  # type: ignore[no-untyped-def]
    league = create_league(organiser_client, boards_per_match=1)
    open_season(organiser_client, league["id"])
    for player, name, source in (
        (alice, "first", None),
        (bob, "rnd", RANDOM_BOT),
        (carol, "c", None),
    ):
        version = ready_version(player, name, **({"source": source} if source else {}))
        enter(client_for(player), league["id"], version)
    return int(league["id"])


def test_three_entrants_play_three_rounds_with_a_bye_each_to_final_standings(
    organiser_client: APIClient, three_entrants: int
) -> None:
    league_id = three_entrants
    for number in (1, 2, 3):
        response = schedule(organiser_client, league_id, number)
        assert response.status_code == 201, response.content
        fixtures = response.json()["fixtures"]
        assert [f["result"] for f in fixtures] == ["bye", "pending"]
        play_round(Round.objects.get(number=number))

    assert rounds_close_ended() == 1
    season = Season.objects.get()
    assert (season.status, season.round_count) == ("finished", 3)

    standings = APIClient().get(f"/api/leagues/{league_id}/seasons/1/standings/").json()
    assert standings["status"] == "finished"
    assert standings["tiebreaks"] == ["points", "board_difference", "sonneborn_berger"]
    rows = standings["divisions"][0]["rows"]
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert all((row["played"], row["byes"]) == (2, 1) for row in rows)
    assert sum(row["points"] for row in rows) == 3 * 2
    assert sum(row["board_difference"] for row in rows) == 0

    # The table agrees with the matches played, read through the scheduling rules.
    number_of = {row["entry"]: index for index, row in enumerate(rows, start=1)}
    games = [
        scheduling.GameResult(
            number_of[fixture.entry_x_id], number_of[fixture.entry_y_id], fixture.match.score_x
        )
        for fixture in Fixture.objects.filter(match__isnull=False).select_related("match")
    ]
    expected = scheduling.standings(number_of.values(), games)
    assert [(r.points, r.board_difference) for r in expected] == [
        (row["points"], row["board_difference"]) for row in rows
    ]


def test_every_fixture_of_a_round_is_a_league_match_dealt_from_a_committed_secret(
    organiser_client: APIClient, three_entrants: int
) -> None:
    schedule(organiser_client, three_entrants, 1)
    match = Match.objects.get()
    assert (match.kind, match.board_count, match.status, match.rated) == (
        "league",
        1,
        "queued",
        True,
    )
    # The round's seed is published with the round, so no rated match may be dealt from it.
    assert match.seed is None and not match.seed_chosen
    assert len(match.seed_commitment) == 64
    listed = APIClient().get(f"/api/leagues/{three_entrants}/seasons/1/rounds/").json()
    assert [(r["number"], r["status"], r["matches_playing"]) for r in listed["results"]] == [
        (1, "playing", 1)
    ]


def test_asking_twice_for_the_same_round_creates_nothing_new(
    organiser_client: APIClient, three_entrants: int
) -> None:
    first = schedule(organiser_client, three_entrants, 1)
    again = schedule(organiser_client, three_entrants, 1)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Round.objects.count() == 1
    assert Fixture.objects.count() == 2
    assert Match.objects.count() == 1


def test_a_failed_match_voids_its_fixture_and_the_round_still_completes(
    organiser_client: APIClient, three_entrants: int
) -> None:
    schedule(organiser_client, three_entrants, 1)
    Match.objects.update(status=Match.Status.FAILED, error="gave up after retries")
    assert schedule(organiser_client, three_entrants, 2).status_code == 201
    assert Round.objects.get(number=1).status == "complete"
    round_one = APIClient().get(f"/api/leagues/{three_entrants}/seasons/1/rounds/1/").json()
    void = [f for f in round_one["fixtures"] if f["result"] == "void"]
    assert len(void) == 1 and void[0]["match_status"] == "failed"
    rows = APIClient().get(f"/api/leagues/{three_entrants}/seasons/1/standings/").json()
    assert all(row["points"] == 0 and row["played"] == 0 for row in rows["divisions"][0]["rows"])
