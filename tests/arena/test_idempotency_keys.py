"""Idempotency-Key on the POSTs that create matches and bot versions."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion, IdempotencyRecord, Match
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    # The tests' own trusted bots, marked active: what these tests check starts after
    # validation, which has tests of its own (and would play two more matches).
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def test_a_repeated_challenge_with_the_same_key_gets_the_first_answer_and_no_new_match(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    body = {"version": versions[0].pk, "opponent": versions[1].pk, "boards": 2}
    first = alice_client.post("/api/matches/", body, HTTP_IDEMPOTENCY_KEY="challenge-1")
    again = alice_client.post("/api/matches/", body, HTTP_IDEMPOTENCY_KEY="challenge-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Match.objects.count() == 1
    other_key = alice_client.post("/api/matches/", body, HTTP_IDEMPOTENCY_KEY="challenge-2")
    no_key = alice_client.post("/api/matches/", body)
    assert (other_key.status_code, no_key.status_code) == (201, 201)
    assert Match.objects.count() == 3


def test_a_key_sent_again_with_another_body_or_endpoint_is_refused_and_changes_nothing(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    body = {"version": versions[0].pk, "opponent": versions[1].pk, "boards": 2}
    assert alice_client.post("/api/matches/", body, HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    changed = alice_client.post("/api/matches/", {**body, "boards": 3}, HTTP_IDEMPOTENCY_KEY="k")
    assert changed.status_code == 422
    assert "already used for a different request" in changed.json()["detail"]
    upload = alice_client.post(
        f"/api/bots/{versions[0].bot_id}/versions/",
        {"source": RANDOM_BOT.decode()},
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert upload.status_code == 422
    assert (Match.objects.count(), versions[0].bot.versions.count()) == (1, 1)


def test_keys_belong_to_their_user(
    alice_client: APIClient, bob_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    alices = {"version": versions[0].pk, "opponent": versions[1].pk, "boards": 2}
    bobs = {"version": versions[1].pk, "opponent": versions[0].pk, "boards": 2}
    assert (
        alice_client.post("/api/matches/", alices, HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    )
    answer = bob_client.post("/api/matches/", bobs, HTTP_IDEMPOTENCY_KEY="same")
    assert answer.status_code == 201 and answer.json()["version_x"]["id"] == versions[1].pk
    assert Match.objects.count() == 2


def test_a_repeated_upload_with_the_same_key_stores_one_version(
    alice_client: APIClient,
    alice,  # type: ignore[no-untyped-def]
) -> None:
    bot = alice_client.post("/api/bots/", {"name": "up", "variant": "auction4"}).json()
    url = f"/api/bots/{bot['id']}/versions/"
    answers = []
    for _ in range(2):
        upload = SimpleUploadedFile("mybot.py", FIRST_LEGAL_BOT, content_type="text/x-python")
        answers.append(
            alice_client.post(url, {"file": upload}, format="multipart", HTTP_IDEMPOTENCY_KEY="v1")
        )
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[1].json() == answers[0].json()
    assert Bot.objects.get(pk=bot["id"]).versions.count() == 1
    other = SimpleUploadedFile("mybot.py", RANDOM_BOT, content_type="text/x-python")
    refused = alice_client.post(url, {"file": other}, format="multipart", HTTP_IDEMPOTENCY_KEY="v1")
    assert refused.status_code == 422
    assert Bot.objects.get(pk=bot["id"]).versions.count() == 1


def test_a_refused_request_stores_nothing_and_a_bad_key_is_refused(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    wrong = {"version": versions[1].pk, "opponent": versions[0].pk}  # bob's version
    assert alice_client.post("/api/matches/", wrong, HTTP_IDEMPOTENCY_KEY="w").status_code == 403
    assert not IdempotencyRecord.objects.exists()
    right = {"version": versions[0].pk, "opponent": versions[1].pk}
    assert alice_client.post("/api/matches/", right, HTTP_IDEMPOTENCY_KEY="w").status_code == 201
    for key in ("x" * 256, "has space", "caf\u00e9"):
        refused = alice_client.post("/api/matches/", right, HTTP_IDEMPOTENCY_KEY=key)
        assert refused.status_code == 400
        assert "Idempotency-Key header must be 1 to 255 visible ASCII" in refused.json()["detail"]
    assert Match.objects.count() == 1
