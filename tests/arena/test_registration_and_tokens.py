"""A newcomer registers, receives a token, and the token authenticates."""

from __future__ import annotations

from rest_framework.test import APIClient

from arena.models import Player


def test_a_player_registers_and_gets_a_working_token(db: None) -> None:
    client = APIClient()
    response = client.post(
        "/api/players/",
        {"username": "dora", "password": "cards-and-trumps-77", "display_name": "Dora"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["display_name"] == "Dora"
    token = response.json()["token"]

    obtained = client.post(
        "/api/auth/token/", {"username": "dora", "password": "cards-and-trumps-77"}, format="json"
    )
    assert obtained.status_code == 200
    assert obtained.json()["token"] == token

    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/bots/", {"name": "first", "variant": "single4"}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["owner"] == "dora"


def test_it_refuses_a_weak_password_and_stores_nothing(db: None) -> None:
    response = APIClient().post(
        "/api/players/", {"username": "eve", "password": "123"}, format="json"
    )
    assert response.status_code == 400
    assert "password" in response.json()
    assert not Player.objects.exists()


def test_it_refuses_a_taken_username(db: None, alice: Player) -> None:
    response = APIClient().post(
        "/api/players/", {"username": "ALICE", "password": "another-good-password-9"}, format="json"
    )
    assert response.status_code == 400
    assert "taken" in response.json()["detail"]


def test_a_wrong_password_gets_no_token(db: None, alice: Player) -> None:
    response = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json"
    )
    assert response.status_code == 400


def test_players_are_listed_publicly_with_pagination(db: None, alice: Player, bob: Player) -> None:
    response = APIClient().get("/api/players/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [p["username"] for p in body["results"]] == ["alice", "bob"]
    assert "password" not in body["results"][0]
