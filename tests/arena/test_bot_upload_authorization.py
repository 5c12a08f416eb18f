"""Who may create bots, upload versions and read their source and build log."""

from __future__ import annotations

from rest_framework.test import APIClient

from arena.models import Bot, BotVersion
from tests.arena.conftest import GOOD_BOT


def test_anonymous_users_cannot_create_bots(anonymous_client: APIClient) -> None:
    response = anonymous_client.post(
        "/api/bots/", {"name": "x", "variant": "single4"}, format="json"
    )
    assert response.status_code == 401
    assert not Bot.objects.exists()


def test_anonymous_users_cannot_upload(anonymous_client: APIClient, alices_bot: Bot) -> None:
    response = anonymous_client.post(
        f"/api/bots/{alices_bot.pk}/versions/", {"source": GOOD_BOT.decode()}, format="json"
    )
    assert response.status_code == 401
    assert not BotVersion.objects.exists()


def test_another_player_cannot_add_versions(bob_client: APIClient, alices_bot: Bot) -> None:
    response = bob_client.post(
        f"/api/bots/{alices_bot.pk}/versions/", {"source": GOOD_BOT.decode()}, format="json"
    )
    assert response.status_code == 403
    assert "owner" in response.json()["detail"]
    assert not BotVersion.objects.exists()


def test_the_owner_uploads_and_reads_source_and_build_log(
    alice_client: APIClient, alices_bot: Bot
) -> None:
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/", {"source": GOOD_BOT.decode()}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 1
    assert "build_log" in response.json()

    source = alice_client.get(f"/api/bots/{alices_bot.pk}/versions/1/source/")
    assert source.status_code == 200
    assert source.content == GOOD_BOT

    detail = alice_client.get(f"/api/bots/{alices_bot.pk}/versions/1/")
    assert "sha256" in detail.json()["build_log"]


def test_another_player_sees_public_fields_but_not_source_or_build_log(
    alice_client: APIClient, bob_client: APIClient, anonymous_client: APIClient, alices_bot: Bot
) -> None:
    alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/", {"source": GOOD_BOT.decode()}, format="json"
    )
    for client in (bob_client, anonymous_client):
        detail = client.get(f"/api/bots/{alices_bot.pk}/versions/1/")
        assert detail.status_code == 200
        assert detail.json()["status"] in {"pending", "active"}
        assert "build_log" not in detail.json()
        assert "status_reason" not in detail.json()
        listing = client.get(f"/api/bots/{alices_bot.pk}/versions/")
        assert "build_log" not in listing.json()["results"][0]

    assert bob_client.get(f"/api/bots/{alices_bot.pk}/versions/1/source/").status_code == 403
    assert anonymous_client.get(f"/api/bots/{alices_bot.pk}/versions/1/source/").status_code == 401


def test_versions_are_numbered_one_two_three(alice_client: APIClient, alices_bot: Bot) -> None:
    numbers = []
    for revision in range(3):
        response = alice_client.post(
            f"/api/bots/{alices_bot.pk}/versions/",
            {"source": GOOD_BOT.decode() + f"# revision {revision}\n"},
            format="json",
        )
        numbers.append(response.json()["number"])
    assert numbers == [1, 2, 3]


def test_a_bot_name_is_unique_per_owner(
    alice_client: APIClient, bob_client: APIClient, alices_bot: Bot
) -> None:
    again = alice_client.post("/api/bots/", {"name": "greedy", "variant": "single4"}, format="json")
    assert again.status_code == 400
    assert "already" in again.json()["detail"]
    other_owner = bob_client.post(
        "/api/bots/", {"name": "greedy", "variant": "single4"}, format="json"
    )
    assert other_owner.status_code == 201


def test_an_unknown_variant_is_refused(alice_client: APIClient) -> None:
    response = alice_client.post("/api/bots/", {"name": "x", "variant": "bridge"}, format="json")
    assert response.status_code == 400
    assert "variant" in response.json()


def test_bots_are_filtered_by_owner_and_variant(
    alice_client: APIClient, bob_client: APIClient, alices_bot: Bot
) -> None:
    bob_client.post("/api/bots/", {"name": "b1", "variant": "single4"}, format="json")
    by_owner = alice_client.get("/api/bots/", {"owner": "bob"}).json()
    assert [bot["name"] for bot in by_owner["results"]] == ["b1"]
    by_variant = alice_client.get("/api/bots/", {"variant": "auction4"}).json()
    assert [bot["name"] for bot in by_variant["results"]] == ["greedy"]
