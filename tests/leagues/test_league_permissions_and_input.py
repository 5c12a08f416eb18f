"""Only the organiser schedules and edits; entrants touch only their own entries; bad input
gets a clear 400 and changes nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena.models import BotVersion, Match
from leagues.models import Entry, Fixture, League, Round, Season
from tests.leagues.conftest import (
    FIRST_LEGAL_BOT,
    RANDOM_BOT,
    client_for,
    create_league,
    enter,
    open_season,
    ready_version,
    schedule,
)

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    return ready_version(alice, "first", FIRST_LEGAL_BOT), ready_version(bob, "rnd", RANDOM_BOT)


@pytest.fixture
def league(organiser_client: APIClient) -> dict:  # type: ignore[type-arg]
    league = create_league(organiser_client)
    open_season(organiser_client, league["id"])
    return league


def test_anyone_reads_a_league_and_its_creator_organises_it(
    organiser_client: APIClient,
    league: dict,  # type: ignore[type-arg]
) -> None:
    listed = APIClient().get("/api/leagues/", {"league_format": "round_robin"}).json()
    assert [row["name"] for row in listed["results"]] == ["Club league"]
    detail = APIClient().get(f"/api/leagues/{league['id']}/").json()
    assert (detail["organiser"], detail["boards_per_match"], detail["season_count"]) == (
        "olga",
        1,
        1,
    )


def test_only_the_organiser_edits_opens_seasons_and_schedules(
    alice_client: APIClient,
    alice_client_entered: None,
    league: dict,  # type: ignore[type-arg]
) -> None:
    base = f"/api/leagues/{league['id']}"
    edited = alice_client.patch(f"{base}/", {"boards_per_match": 5})
    assert edited.status_code == 403
    assert "organiser" in edited.json()["detail"]
    assert alice_client.post(f"{base}/seasons/", {}).status_code == 403
    assert schedule(alice_client, league["id"], 1).status_code == 403
    assert alice_client.put(f"{base}/timetable/", {"every_minutes": 5}).status_code == 403
    assert APIClient().post(f"{base}/seasons/1/rounds/", {"number": 1}).status_code == 401
    assert League.objects.get().boards_per_match == 1
    assert not Round.objects.exists()


@pytest.fixture
def alice_client_entered(
    alice_client: APIClient,
    bob_client: APIClient,
    league: dict,  # type: ignore[type-arg]
    versions: tuple[BotVersion, BotVersion],
) -> None:
    enter(alice_client, league["id"], versions[0])
    enter(bob_client, league["id"], versions[1])


def test_an_entrant_cannot_enter_or_withdraw_someone_elses_bot(
    alice_client: APIClient,
    bob_client: APIClient,
    league: dict,  # type: ignore[type-arg]
    versions: tuple[BotVersion, BotVersion],
) -> None:
    entries = f"/api/leagues/{league['id']}/seasons/1/entries/"
    refused = alice_client.post(entries, {"bot": versions[1].bot_id})
    assert refused.status_code == 403
    bobs = enter(bob_client, league["id"], versions[1])
    twice = bob_client.post(entries, {"bot": versions[1].bot_id})
    assert twice.status_code == 400
    assert "already entered" in twice.json()["detail"]
    assert alice_client.delete(f"{entries}{bobs['id']}/").status_code == 403
    assert Entry.objects.count() == 1
    assert bob_client.delete(f"{entries}{bobs['id']}/").status_code == 204
    assert not Entry.objects.exists()


def test_the_organiser_may_withdraw_an_entry_before_the_season_starts(
    organiser_client: APIClient,
    alice_client: APIClient,
    league: dict,  # type: ignore[type-arg]
    versions: tuple[BotVersion, BotVersion],
) -> None:
    alices = enter(alice_client, league["id"], versions[0])
    entries = f"/api/leagues/{league['id']}/seasons/1/entries/"
    assert organiser_client.delete(f"{entries}{alices['id']}/").status_code == 204


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"variant": "skat"}, "unknown variant 'skat'"),
        ({"variant": "pinnacolo", "rule_overrides": {"bid_max": 300}}, "bid_max"),
        ({"format": "elimination"}, "unknown league format 'elimination'"),
        ({"boards_per_match": 0}, "boards per match must be between 1 and 1000"),
        ({"rule_overrides": {"no_such_rule": 1}}, "no_such_rule"),
        ({"decision_ms": 1}, "decision_ms is at least 10"),
    ],
)
def test_a_league_with_bad_settings_is_refused(
    organiser_client: APIClient,
    fields: dict,
    message: str,  # type: ignore[type-arg]
) -> None:
    body = {"name": "Bad", "variant": "auction4", "format": "swiss", **fields}
    response = organiser_client.post("/api/leagues/", body, format="json")
    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert not League.objects.exists()


def test_the_organiser_edits_the_boards_and_time_control(
    organiser_client: APIClient,
    league: dict,  # type: ignore[type-arg]
) -> None:
    response = organiser_client.patch(
        f"/api/leagues/{league['id']}/", {"boards_per_match": 4, "decision_ms": 500}
    )
    assert response.status_code == 200
    assert (response.json()["boards_per_match"], response.json()["decision_ms"]) == (4, 500)


def test_a_league_cannot_change_game_after_creation(
    organiser_client: APIClient,
    league: dict,  # type: ignore[type-arg]
) -> None:
    response = organiser_client.patch(f"/api/leagues/{league['id']}/", {"variant": "single4"})
    assert response.status_code == 400
    assert "variant cannot change" in response.json()["detail"]
    assert League.objects.get().variant == "auction4"


def test_a_league_with_one_entrant_cannot_start(
    organiser_client: APIClient,
    alice_client: APIClient,
    league: dict,  # type: ignore[type-arg]
    versions: tuple[BotVersion, BotVersion],
) -> None:
    enter(alice_client, league["id"], versions[0])
    response = schedule(organiser_client, league["id"], 1)
    assert response.status_code == 400
    assert response.json()["detail"] == "season 1 has 1 entrant; a league needs at least two"
    season = Season.objects.get()
    assert (season.status, season.round_count) == ("open", None)
    assert Entry.objects.get().number is None
    assert not Round.objects.exists() and not Match.objects.exists()


def test_scheduling_out_of_order_or_past_the_last_round_is_refused(
    organiser_client: APIClient,
    alice_client_entered: None,
    league: dict,  # type: ignore[type-arg]
) -> None:
    skipped = schedule(organiser_client, league["id"], 2)
    assert skipped.status_code == 400
    assert skipped.json()["detail"] == "the next round to schedule is 1"
    assert schedule(organiser_client, league["id"], 1).status_code == 201
    for match_id in Fixture.objects.values_list("match_id", flat=True):
        Match.objects.filter(pk=match_id).update(status="done", score_x=10)
    past = schedule(organiser_client, league["id"], 2)
    assert past.status_code == 400
    assert past.json()["detail"] == "season 1 has 1 rounds; there is no round 2"
    assert Round.objects.count() == 1
    assert Match.objects.count() == 1


def test_the_next_round_waits_for_the_current_one(
    organiser_client: APIClient,
    alice_client: APIClient,
    bob_client: APIClient,
    carol,  # type: ignore[no-untyped-def]
    league: dict,  # type: ignore[type-arg]
    versions: tuple[BotVersion, BotVersion],
) -> None:
    enter(alice_client, league["id"], versions[0])
    enter(bob_client, league["id"], versions[1])
    third = ready_version(carol, "third", FIRST_LEGAL_BOT)
    enter(client_for(carol), league["id"], third)
    assert schedule(organiser_client, league["id"], 1).status_code == 201
    response = schedule(organiser_client, league["id"], 2)
    assert response.status_code == 400
    assert response.json()["detail"] == "round 1 is still being played"
    assert Round.objects.count() == 1


def test_entries_close_when_the_season_starts(
    organiser_client: APIClient,
    alice_client_entered: None,
    carol,  # type: ignore[no-untyped-def]
    league: dict,  # type: ignore[type-arg]
) -> None:
    assert schedule(organiser_client, league["id"], 1).status_code == 201
    late = ready_version(carol, "late", FIRST_LEGAL_BOT)
    response = client_for(carol).post(
        f"/api/leagues/{league['id']}/seasons/1/entries/", {"bot": late.bot_id}
    )
    assert response.status_code == 400
    assert "entries are closed" in response.json()["detail"]


def test_an_entry_must_play_the_leagues_variant_and_follow_only_when_allowed(
    alice,
    alice_client: APIClient,
    league: dict,  # type: ignore[no-untyped-def, type-arg]
) -> None:
    other_game = ready_version(alice, "single", FIRST_LEGAL_BOT, variant="single4")
    entries = f"/api/leagues/{league['id']}/seasons/1/entries/"
    wrong = alice_client.post(entries, {"bot": other_game.bot_id})
    assert wrong.status_code == 400
    assert "this league plays auction4" in wrong.json()["detail"]
    mine = ready_version(alice, "mine", FIRST_LEGAL_BOT)
    follow = alice_client.post(entries, {"bot": mine.bot_id, "follows_latest": True})
    assert follow.status_code == 400
    assert "does not follow the latest" in follow.json()["detail"]
    assert not Entry.objects.exists()
