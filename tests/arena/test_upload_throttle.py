"""Uploads are throttled per player."""

from __future__ import annotations

from django.test import override_settings
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion
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
