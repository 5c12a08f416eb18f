"""A challenge made from the API alone: versions are named by bot and number, or by bot."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena import services
from arena.models import BotVersion, Match, Player
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


def _upload(client: APIClient, name: str, source: bytes) -> dict:  # type: ignore[type-arg]
    bot = client.post("/api/bots/", {"name": name, "variant": "auction4"}).json()
    uploaded = client.post(f"/api/bots/{bot['id']}/versions/", {"source": source.decode()})
    assert uploaded.status_code == 201, uploaded.content
    return uploaded.json()


def test_an_upload_answers_with_the_versions_id_and_url(
    alice_client: APIClient,
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # validation runs in-process
        uploaded = _upload(alice_client, "first", FIRST_LEGAL_BOT)
    version = BotVersion.objects.get(bot_id=uploaded["bot"], number=1)
    assert uploaded["id"] == version.pk
    assert uploaded["url"] == f"/api/bots/{version.bot_id}/versions/1/"
    assert alice_client.get(uploaded["url"]).json()["id"] == version.pk
    listed = APIClient().get(f"/api/bots/{version.bot_id}/versions/").json()["results"]
    assert [(v["id"], v["url"]) for v in listed] == [(version.pk, uploaded["url"])]


@pytest.fixture
def versions(alice: Player, bob: Player) -> tuple[BotVersion, BotVersion]:
    # The tests' own trusted bots, marked active: what these tests check starts after
    # validation, which has tests of its own (and would play two more matches).
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def test_a_challenge_names_both_sides_by_bot_alone_or_by_bot_and_number(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    by_bot = alice_client.post(
        "/api/matches/", {"bot": mine.bot_id, "opponent_bot": theirs.bot_id, "boards": 1}
    )
    assert by_bot.status_code == 201, by_bot.content
    by_number = alice_client.post(
        "/api/matches/",
        {"bot": mine.bot_id, "number": 1, "opponent_bot": theirs.bot_id, "opponent_number": 1},
    )
    assert by_number.status_code == 201, by_number.content
    for created in (by_bot.json(), by_number.json()):
        assert created["version_x"]["id"] == mine.pk
        assert created["version_x"]["url"] == f"/api/bots/{mine.bot_id}/versions/1/"
        assert created["version_y"]["id"] == theirs.pk


def test_a_bot_named_alone_plays_its_latest_active_version(
    alice_client: APIClient, alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    pending = services.bot_version_submit(bot=mine.bot, data=RANDOM_BOT, filename="bot.py")
    assert pending.number == 2 and pending.status == BotVersion.Status.PENDING
    created = alice_client.post("/api/matches/", {"bot": mine.bot_id, "opponent": theirs.pk})
    assert created.status_code == 201, created.content
    assert created.json()["version_x"]["number"] == 1


def test_a_challenge_that_names_a_side_wrongly_is_refused_with_the_reason(
    alice_client: APIClient, bob_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    cases = [
        ({"bot": mine.bot_id}, 400, "give either 'opponent' (a version id) or 'opponent_bot'"),
        ({"version": mine.pk, "bot": mine.bot_id, "opponent": theirs.pk}, 400, "give either"),
        ({"number": 1, "version": mine.pk, "opponent": theirs.pk}, 400, "'number' goes with"),
        ({"bot": 987654, "opponent": theirs.pk}, 400, "there is no bot 987654"),
        ({"bot": mine.bot_id, "number": 7, "opponent": theirs.pk}, 400, "has no version 7"),
        ({"bot": theirs.bot_id, "opponent_bot": mine.bot_id}, 403, "is not yours"),
    ]
    for body, code, message in cases:
        response = alice_client.post("/api/matches/", body)
        assert response.status_code == code, (body, response.content)
        assert message in response.content.decode(), (body, response.content)
    BotVersion.objects.filter(pk=theirs.pk).update(status=BotVersion.Status.DISABLED)
    none_active = bob_client.post("/api/matches/", {"bot": theirs.bot_id, "opponent": mine.pk})
    assert none_active.status_code == 400
    assert f"bot {theirs.bot_id} has no active version" in none_active.json()["detail"]
    assert not Match.objects.exists()
