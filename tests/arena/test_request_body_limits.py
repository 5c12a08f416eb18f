"""Bodies larger than an endpoint needs are refused with a 413 before they are read, in the
application itself (gunicorn is published without a proxy in front)."""

from __future__ import annotations

import io
import json
import zipfile

from django.test import Client
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion, Player
from tests.arena.conftest import GOOD_BOT

MiB = 1024 * 1024


def test_a_large_json_body_is_refused_unread(anonymous_client: APIClient) -> None:
    body = json.dumps({"username": "x" * (8 * MiB), "password": "a-long-test-password-1"})
    response = anonymous_client.generic("POST", "/api/players/", body, "application/json")
    assert response.status_code == 413
    assert "at most 262144" in response.json()["detail"]
    assert not Player.objects.exists()


def test_a_large_form_body_is_refused_on_the_sign_in_page(db: None) -> None:
    response = Client().post(
        "/accounts/login/", {"username": "u", "password": "p" * (4 * MiB)}, follow=False
    )
    assert response.status_code == 413
    assert "bytes" in response.json()["detail"]


def test_a_bot_upload_may_be_larger_but_not_unbounded(
    alice_client: APIClient, alices_bot: Bot
) -> None:
    url = f"/api/bots/{alices_bot.pk}/versions/"
    too_big = io.BytesIO(b"#" * (2 * MiB))
    too_big.name = "bot.py"
    response = alice_client.post(url, {"file": too_big}, format="multipart")
    assert response.status_code == 413
    assert "at most 1572864" in response.json()["detail"]
    # A zip just under the upload limit reaches the upload rules, which name the problem.
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as bundle:
        bundle.writestr("bot.py", GOOD_BOT)
        bundle.writestr("data.bin", bytes(1024 * 1024 + 10))
    archive.seek(0)
    archive.name = "bot.zip"
    response = alice_client.post(url, {"file": archive}, format="multipart")
    assert response.status_code == 400
    assert "limit" in str(response.json())
    assert not BotVersion.objects.exists()
    # And an ordinary module is accepted.
    module = io.BytesIO(GOOD_BOT)
    module.name = "bot.py"
    assert alice_client.post(url, {"file": module}, format="multipart").status_code == 201


def test_a_form_with_too_many_fields_is_refused(alice_client: APIClient) -> None:
    fields = "&".join(f"f{number}=1" for number in range(500))
    response = alice_client.generic(
        "POST", "/api/bots/", fields, "application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "fields" in response.json()["detail"]
    assert not Bot.objects.exists()


def test_a_malformed_content_length_is_refused(anonymous_client: APIClient) -> None:
    response = anonymous_client.generic(
        "POST", "/api/players/", "{}", "application/json", CONTENT_LENGTH="lots"
    )
    assert response.status_code == 400
    assert "Content-Length" in response.json()["detail"]
