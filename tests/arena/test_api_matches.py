"""Challenges, match results, replays, leaderboard, rating history and SPRT over the API."""

from __future__ import annotations

import itertools

import pytest
from rest_framework.test import APIClient

from arena.models import BotVersion, Match
from arena.tasks import match_run_task
from engine.replay import Replay as HandReplay
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, active_version, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    # The tests' own trusted bots, marked active: what these tests check starts after
    # validation, which has tests of its own (and would play two more matches).
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def _challenge(client: APIClient, x: BotVersion, y: BotVersion, boards: int = 2) -> dict:  # type: ignore[type-arg]
    response = client.post("/api/matches/", {"version": x.pk, "opponent": y.pk, "boards": boards})
    assert response.status_code == 201, response.content
    return response.json()


def test_a_challenge_is_queued_played_and_reported_per_board(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    created = _challenge(alice_client, *versions, boards=3)
    assert created["status"] == "queued"
    assert created["requested_by"] == "alice"
    match_run_task.apply(args=[created["id"]])

    detail = APIClient().get(f"/api/matches/{created['id']}/").json()
    assert detail["status"] == "done"
    assert [board["board"] for board in detail["boards"]] == [1, 2, 3]
    for board in detail["boards"]:
        assert set(board["tables"]) == {"A", "B"}
        a, b = board["tables"]["A"]["team_scores"], board["tables"]["B"]["team_scores"]
        # Section 9: X sits at 0/2 at table A and at 1/3 at table B.
        assert board["result_x"] == (a[0] - a[1]) + (b[1] - b[0])
    assert detail["score_x"] == sum(board["result_x"] for board in detail["boards"])


def test_the_replay_endpoint_serves_games_that_verify(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    match_id = _challenge(alice_client, *versions)["id"]
    match_run_task.apply(args=[match_id])
    everything = APIClient().get(f"/api/matches/{match_id}/replay/", {"verify": "true"}).json()
    assert len(everything["games"]) == 4
    assert all(game["verified"] for game in everything["games"])
    one = APIClient().get(f"/api/matches/{match_id}/replay/", {"board": 2, "table": "B"}).json()
    assert [(g["board"], g["table"]) for g in one["games"]] == [(2, "B")]
    assert HandReplay.from_json(one["games"][0]["hand"]).verify() is None
    bad = APIClient().get(f"/api/matches/{match_id}/replay/", {"table": "C"})
    assert bad.status_code == 400


def test_a_bots_stderr_is_shown_to_its_owner_only(
    alice_client: APIClient,
    bob_client: APIClient,
    alice,
    bob,  # type: ignore[no-untyped-def]
) -> None:
    noisy = active_version(
        alice,
        "noisy",
        b"import sys\ndef act(observation, legal):\n    print('alice-secret', file=sys.stderr)\n"
        b"    return legal[0]\n",
    )
    quiet = active_version(bob, "rnd", RANDOM_BOT)
    match_id = _challenge(alice_client, noisy, quiet)["id"]
    match_run_task.apply(args=[match_id])
    mine = alice_client.get(f"/api/matches/{match_id}/replay/").json()["stderr"]
    assert "alice-secret" in str(mine)
    assert "alice-secret" not in str(bob_client.get(f"/api/matches/{match_id}/replay/").json())
    assert "alice-secret" not in str(APIClient().get(f"/api/matches/{match_id}/replay/").json())


def test_only_your_own_version_can_challenge(
    bob_client: APIClient, anonymous_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    x, y = versions
    response = bob_client.post("/api/matches/", {"version": x.pk, "opponent": y.pk, "boards": 2})
    assert response.status_code == 403
    anonymous = anonymous_client.post("/api/matches/", {"version": x.pk, "opponent": y.pk})
    assert anonymous.status_code == 401
    missing = bob_client.post("/api/matches/", {"version": y.pk, "opponent": 999999})
    assert missing.status_code == 400
    assert "no bot version 999999" in missing.json()["detail"]
    too_many = bob_client.post("/api/matches/", {"version": y.pk, "opponent": x.pk, "boards": 5000})
    assert too_many.status_code == 400
    assert not Match.objects.exists()


def test_challenges_are_throttled(
    alice_client: APIClient,
    versions: tuple[BotVersion, BotVersion],
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.CHALLENGE_RATE = "2/hour"
    for _ in range(2):
        _challenge(alice_client, *versions)
    refused = alice_client.post(
        "/api/matches/", {"version": versions[0].pk, "opponent": versions[1].pk}
    )
    assert refused.status_code == 429
    assert Match.objects.count() == 2


def test_matches_are_filtered_by_bot_variant_and_status(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    played = _challenge(alice_client, *versions)["id"]
    match_run_task.apply(args=[played])
    waiting = _challenge(alice_client, *versions)["id"]
    client = APIClient()
    ids = lambda query: [m["id"] for m in client.get("/api/matches/", query).json()["results"]]  # noqa: E731
    assert ids({"status": "done"}) == [played]
    assert ids({"status": "queued"}) == [waiting]
    assert ids({"bot": versions[1].bot_id}) == [waiting, played]
    assert ids({"variant": "single4"}) == []
    assert client.get("/api/matches/", {"status": "lost"}).status_code == 400


def test_the_leaderboard_shows_every_rating_with_its_interval_and_history(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    for _ in range(3):
        match_run_task.apply(args=[_challenge(alice_client, *versions)["id"]])
    # No periodic fit is needed: each rated match refits its variant on completion.
    board = APIClient().get("/api/ratings/", {"variant": "auction4"}).json()["results"]
    assert len(board) == 2
    assert board[0]["elo"] >= board[1]["elo"]
    for row in board:
        assert row["matches"] == 3 and row["boards"] == 6
        assert row["low"] < row["elo"] < row["high"]
        assert row["last_match"] is not None and row["disabled"] is False
    assert board[0]["elo"] + board[1]["elo"] == pytest.approx(3000)  # the pool's mean, 1500
    x = versions[0]
    history = APIClient().get(f"/api/bots/{x.bot_id}/versions/{x.number}/ratings/").json()
    assert len(history["results"]) == 3
    steps = history["results"]
    assert all(a["after"] == b["before"] for a, b in itertools.pairwise(steps))
    assert sum(s["wins"] + s["draws"] + s["losses"] for s in steps) == 6
    assert APIClient().get("/api/ratings/", {"variant": "bridge"}).status_code == 400


def test_sprt_compares_two_versions_over_their_boards(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    for _ in range(2):
        match_run_task.apply(args=[_challenge(alice_client, *versions, boards=4)["id"]])
    x, y = versions
    body = (
        APIClient().get("/api/ratings/sprt/", {"a": x.pk, "b": y.pk, "elo0": 0, "elo1": 20}).json()
    )
    assert body["wins"] + body["draws"] + body["losses"] == 8
    assert body["verdict"] in {"H0", "H1", "continue"}
    assert body["lower_bound"] < 0 < body["upper_bound"]
    assert [point["boards"] for point in body["path"]] == list(range(9))
    bad = APIClient().get("/api/ratings/sprt/", {"a": x.pk, "b": y.pk, "elo0": 5, "elo1": 1})
    assert bad.status_code == 400
    assert "elo1 must be greater than elo0" in str(bad.json())


def test_a_cached_leaderboard_page_is_refreshed_when_ratings_change(
    alice_client: APIClient,
    versions: tuple[BotVersion, BotVersion],
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    assert APIClient().get("/api/ratings/", {"variant": "auction4"}).json()["count"] == 0
    match_id = _challenge(alice_client, *versions)["id"]
    with django_capture_on_commit_callbacks(execute=True):  # the rating write commits
        match_run_task.apply(args=[match_id])
    assert APIClient().get("/api/ratings/", {"variant": "auction4"}).json()["count"] == 2
