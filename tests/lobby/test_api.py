"""The lobby's REST API: the same services, answered as frames, refusals as clear 4xx."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena.models import Player
from lobby import turns
from lobby.models import GameTable
from tests.people import client_for

pytestmark = pytest.mark.django_db

GREEDY = {"kind": "bot", "bot": {"kind": "reference", "name": "greedy"}}


def open_table(client: APIClient) -> dict[str, object]:
    answer = client.post(
        "/api/lobby/tables/",
        {"variant": "auction4", "seats": [{"kind": "host"}, GREEDY, GREEDY, GREEDY]},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    frame: dict[str, object] = answer.json()
    return frame


def test_a_person_opens_a_table_and_plays_through_the_api(alice: Player) -> None:
    client = client_for(alice)
    frame = open_table(client)
    table_id = int(str(frame["table"]))
    assert frame["status"] == "playing" and frame["seed"] is None
    table = GameTable.objects.get(pk=table_id)
    turns.bot_move(table_id=table_id, ply=table.ply)
    frame = client.get(f"/api/lobby/tables/{table_id}/").json()
    assert frame["to_act"] == 0 and frame["legal"]
    ply = frame["ply"]
    wrong = client.post(
        f"/api/lobby/tables/{table_id}/act/", {"action": "bid 5", "ply": ply}, format="json"
    )
    assert wrong.status_code == 400 and "legal now:" in wrong.json()["detail"]
    done = client.post(
        f"/api/lobby/tables/{table_id}/act/", {"action": "pass", "ply": ply}, format="json"
    )
    assert done.status_code == 200 and done.json()["ply"] == ply + 1
    again = client.post(
        f"/api/lobby/tables/{table_id}/act/", {"action": "pass", "ply": ply}, format="json"
    )
    assert again.status_code == 409 and "reload" in again.json()["detail"]


def test_a_spectator_reads_the_public_frame_and_the_list(alice: Player) -> None:
    frame = open_table(client_for(alice))
    seen = APIClient().get(f"/api/lobby/tables/{frame['table']}/").json()
    assert seen["viewer"] == {"seat": None, "host": False, "token": None}
    assert seen["view"] is not None and "hand" not in seen["view"]
    listed = APIClient().get("/api/lobby/tables/?status=playing").json()
    assert [row["id"] for row in listed] == [frame["table"]]
    assert APIClient().get("/api/lobby/tables/?status=maybe").status_code == 400


def test_a_bad_table_is_a_400_naming_the_problem(alice: Player) -> None:
    answer = client_for(alice).post(
        "/api/lobby/tables/",
        {"variant": "auction4", "seats": [{"kind": "host"}]},
        format="json",
    )
    assert answer.status_code == 400 and "4 seats" in answer.json()["detail"]
    assert not GameTable.objects.exists()
