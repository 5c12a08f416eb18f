"""/api/play/challenges/: a challenge of a bot through the API, its tables through the
table API, with the page's fair-play rules (the README's "Fair play across tables")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Player
from arena.seeding import deal_problems
from engine.registry import load_game
from tables.models import Challenge, PlayTable
from tests.arena.conftest import PASSWORD

pytestmark = pytest.mark.django_db

RANDOM = {"kind": "reference", "name": "random"}


def create(client: APIClient, **fields: Any) -> Any:
    body = {"variant": "twohand", "opponent": RANDOM, "boards": 1, **fields}
    return client.post("/api/play/challenges/", body, format="json")


def play_table(client: APIClient, table_id: int) -> dict[str, Any]:
    """Play the human's turns at one table through the table API until its hand is over."""
    table = client.get(f"/api/play/tables/{table_id}/").json()
    while table["status"] == "playing":
        answer = client.post(
            f"/api/play/tables/{table_id}/actions/",
            {"action": table["controls"]["legal"][0], "ply": table["ply"]},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        table = answer.json()["table"]
    return dict(table)


def test_a_challenge_is_played_through_the_api(alice_client: APIClient, empty_cache: None) -> None:
    created = create(alice_client, boards=2)
    assert created.status_code == 201, created.content
    challenge = created.json()
    assert challenge["status"] == "playing" and challenge["seed_secret"] is None
    assert challenge["format"] == "bot_table" and challenge["expires"] is not None
    assert challenge["tables_total"] == 2 and len(challenge["tables"]) == 1
    first = challenge["tables"][0]
    assert challenge["next_table"] == first["play_table"]
    assert first["api_url"] == f"/api/play/tables/{first['play_table']}/"
    assert first["comparison"] is None and first["result"] is None

    done = play_table(alice_client, first["play_table"])
    # The seed of a board gives away the match seed, and so every later board: it waits,
    # and so does the replay, until the challenge is over.
    assert done["seed"] is None and done["replay_url"] is None
    replay = alice_client.get(f"/play/tables/{first['play_table']}/replay/frames.json")
    assert replay.status_code == 404

    challenge = alice_client.get(f"/api/play/challenges/{challenge['id']}/").json()
    assert [(row["board"], row["table"]) for row in challenge["tables"]] == [(1, "A"), (2, "A")]
    assert challenge["seed_secret"] is None
    # Board 1's table is over: its bot-only table has been played, and the board scored.
    compared = challenge["tables"][0]
    assert compared["comparison"] is not None and compared["result"] is not None
    assert set(compared["comparison"]) == {"side_scores", "margin", "fault"}
    second = challenge["tables"][1]
    assert challenge["next_table"] == second["play_table"]
    # The human's seat moves on with the dealer: first to play on board 1, dealer on board 2.
    positions = [
        (row["human_seat"] - alice_client.get(row["api_url"]).json()["dealer"]) % 2
        for row in (first, second)
    ]
    assert positions == [1, 0]
    play_table(alice_client, second["play_table"])

    final = alice_client.get(f"/api/play/challenges/{challenge['id']}/").json()
    assert final["status"] == "finished" and final["next_table"] is None
    assert final["board_results"] == [row["result"] for row in final["tables"]]
    assert final["summary"]["boards"] == 2
    # Over: the secret is revealed and re-derives every deal; the seeds follow.
    boards = {
        row.board: (row.play_table.seed, row.play_table.dealer)
        for row in Challenge.objects.get(pk=final["id"]).tables.select_related("play_table")
    }
    game = load_game("twohand")
    assert deal_problems(final["seed_secret"], final["seed_commitment"], boards, game=game) == []
    assert alice_client.get(first["api_url"]).json()["seed"] is not None
    listed = alice_client.get("/api/play/challenges/").json()
    assert [row["id"] for row in listed] == [final["id"]]


def test_a_challenge_in_play_is_its_owners_alone(
    alice_client: APIClient, bob_client: APIClient, anonymous_client: APIClient, empty_cache: None
) -> None:
    challenge = create(alice_client).json()
    url = f"/api/play/challenges/{challenge['id']}/"
    assert bob_client.get(url).status_code == 404
    assert bob_client.get("/api/play/challenges/999999/").status_code == 404
    assert anonymous_client.get(url).status_code == 401
    assert bob_client.get("/api/play/challenges/").json() == []
    table = challenge["tables"][0]["api_url"]
    assert bob_client.get(table).status_code == 404


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"variant": "bezique"}, "variant"),
        # Pinnacolo has no strong reference bot.
        ({"variant": "pinnacolo2", "opponent": {"kind": "reference", "name": "strong"}}, "strong"),
        ({"opponent": {"kind": "robot"}}, "kind"),
        ({"boards": 9}, "boards"),
    ],
)
def test_bad_input_is_named_and_creates_nothing(
    alice_client: APIClient, empty_cache: None, fields: dict[str, Any], named: str
) -> None:
    refused = create(alice_client, **fields)
    assert refused.status_code == 400
    assert named in refused.json()["detail"]
    assert not Challenge.objects.exists() and not PlayTable.objects.exists()


def test_the_api_and_the_page_share_one_quota(
    alice: Player, alice_client: APIClient, settings: Any, empty_cache: None
) -> None:
    settings.PLAY_CHALLENGE_RATE = "2/hour"
    # A refused challenge hands its slot back: it costs nothing.
    assert create(alice_client, boards=9).status_code == 400
    assert create(alice_client).status_code == 201
    page = Client()
    assert page.login(username="alice", password=PASSWORD)
    body = {"variant": "twohand", "opponent": "reference:random", "boards": "1"}
    assert page.post("/play/challenges/new/", body).status_code == 302
    throttled = create(alice_client)
    assert throttled.status_code == 429 and "challenges of a bot" in throttled.json()["detail"]
    again = page.post("/play/challenges/new/", body)
    assert again.status_code == 429 and "too many challenges" in again.content.decode()
    assert Challenge.objects.count() == 2
