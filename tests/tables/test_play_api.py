"""/api/play/: the same table through the API, documented in the OpenAPI."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena.models import Player

pytestmark = pytest.mark.django_db

GREEDY = {"kind": "reference", "name": "greedy"}


def test_a_hand_is_played_through_the_api(alice_client: APIClient) -> None:
    created = alice_client.post(
        "/api/play/tables/",
        {"variant": "twohand", "human_seat": 0, "dealer": 1, "bots": [GREEDY]},
        format="json",
    )
    assert created.status_code == 201, created.content
    table = created.json()
    assert table["seed"] is None and 'seed"' not in str(table["observation"])
    while table["status"] == "playing":
        action = table["controls"]["legal"][0]
        answer = alice_client.post(
            f"/api/play/tables/{table['id']}/actions/",
            {"action": action, "ply": table["ply"]},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        assert answer.json()["moves"][0]["action"] == action
        table = answer.json()["table"]
    assert table["result"]["side_scores"] and table["seed"] is not None
    listed = alice_client.get("/api/play/tables/").json()
    assert [row["id"] for row in listed] == [table["id"]]


def test_a_stale_ply_is_a_409_and_an_illegal_action_a_400(alice_client: APIClient) -> None:
    table = alice_client.post(
        "/api/play/tables/",
        {"variant": "single4", "human_seat": 1, "dealer": 0, "bots": [GREEDY] * 3},
        format="json",
    ).json()
    url = f"/api/play/tables/{table['id']}/actions/"
    refused = alice_client.post(url, {"action": "bid 5", "ply": table["ply"]}, format="json")
    assert refused.status_code == 400 and "bid" in refused.json()["detail"]
    stale = alice_client.post(url, {"action": "pass", "ply": table["ply"] + 1}, format="json")
    assert stale.status_code == 409 and "ply" in stale.json()["detail"]
    assert alice_client.get(f"/api/play/tables/{table['id']}/").json()["ply"] == table["ply"]


def test_a_bad_seat_spec_is_named(alice_client: APIClient) -> None:
    refused = alice_client.post(
        "/api/play/tables/",
        {"variant": "single4", "bots": [GREEDY, GREEDY, {"kind": "robot"}]},
        format="json",
    )
    assert refused.status_code == 400 and "kind" in refused.json()["detail"]


def test_nobody_else_sees_the_table(
    alice_client: APIClient, bob_client: APIClient, bob: Player
) -> None:
    table = alice_client.post(
        "/api/play/tables/", {"variant": "twohand", "bots": [GREEDY]}, format="json"
    ).json()
    assert bob_client.get(f"/api/play/tables/{table['id']}/").status_code == 404
    assert APIClient().get(f"/api/play/tables/{table['id']}/").status_code in (401, 403)


def test_the_openapi_document_lists_the_play_endpoints(alice_client: APIClient) -> None:
    schema = alice_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/play/tables/{table_id}/actions/" in schema["paths"]
