"""Uploads are throttled per player, through the API and the bot page alike."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion, Player
from tests.arena.conftest import GOOD_BOT


@override_settings(UPLOAD_RATE="2/hour")
def test_a_player_over_the_upload_rate_is_told_to_wait(
    alice_client: APIClient, bob_client: APIClient, alices_bot: Bot
) -> None:
    url = f"/api/bots/{alices_bot.pk}/versions/"
    for revision in range(2):
        response = alice_client.post(url, {"source": f"{GOOD_BOT.decode()}# {revision}\n"})
        assert response.status_code == 201
    refused = alice_client.post(url, {"source": GOOD_BOT.decode()})
    assert refused.status_code == 429
    assert "throttled" in refused.json()["detail"].lower()
    assert BotVersion.objects.count() == 2
    # Reading is never throttled.
    assert alice_client.get(url).status_code == 200


@override_settings(UPLOAD_RATE="2/hour")
def test_the_bot_page_charges_only_stored_uploads_against_the_same_quota(
    alice: Player, alice_client: APIClient, alices_bot: Bot
) -> None:
    page = Client()
    page.force_login(alice.user)
    url = f"/bots/{alices_bot.pk}/versions/"
    # Refused uploads (no file, a file that does not compile) hand their slot back.
    assert page.post(url).status_code == 400
    broken = SimpleUploadedFile("bot.py", b"def act(observation, legal)\n")
    assert page.post(url, {"file": broken}).status_code == 400
    assert page.post(url, {"file": SimpleUploadedFile("bot.py", GOOD_BOT)}).status_code == 302
    api = f"/api/bots/{alices_bot.pk}/versions/"
    assert alice_client.post(api, {"source": f"{GOOD_BOT.decode()}# 2\n"}).status_code == 201
    refused = page.post(url, {"file": SimpleUploadedFile("bot.py", GOOD_BOT)})
    assert refused.status_code == 429
    assert "too many uploads: try again in" in refused.content.decode()
    assert BotVersion.objects.count() == 2
