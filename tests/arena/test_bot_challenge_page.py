"""Challenging a bot from its page: the API's serializer, service and quota, and every
refusal told on the page in words a person can act on, with nothing stored."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from arena import services
from arena.models import BotVersion, Match, Player
from tests.arena.conftest import FIRST_LEGAL_BOT, PASSWORD, RANDOM_BOT, trusted_version


@pytest.fixture
def versions(alice: Player, bob: Player) -> tuple[BotVersion, BotVersion]:
    """Alice's active version and Bob's, marked active without validation."""
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def text(response: Any) -> str:
    content: bytes = response.content
    return html.unescape(content.decode())


def challenge(client: Client, bot_id: int, **fields: Any) -> Any:
    return client.post(f"/bots/{bot_id}/challenge/", fields)


def test_a_player_challenges_a_bot_from_its_page_and_is_sent_to_the_match(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    client = signed_in(alice)
    page = text(client.get(f"/bots/{theirs.bot_id}/"))
    assert 'id="challenge-form"' in page
    assert f'<option value="{mine.pk}">first v1</option>' in page
    response = challenge(client, theirs.bot_id, version=mine.pk, opponent_number=1, boards=3)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    # Made by the API's service: requested by Alice, rated, dealt from a committed secret.
    assert (match.version_x_id, match.version_y_id, match.board_count) == (mine.pk, theirs.pk, 3)
    assert match.kind == Match.Kind.CHALLENGE and match.requested_by_id == alice.pk
    assert match.rated and match.seed_commitment and match.status == Match.Status.QUEUED
    followed = text(client.get(response["Location"]))
    assert (
        f"Your challenge is match {match.pk}: alice/first v1 against bob/rnd v1 over 3 boards"
        in followed
    )


def test_the_opponent_left_blank_is_the_bots_latest_active_version(
    alice: Player, bob: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    newer = services.bot_version_submit(bot=theirs.bot, data=RANDOM_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=newer.pk).update(status=BotVersion.Status.ACTIVE)
    response = challenge(signed_in(alice), theirs.bot_id, version=mine.pk, boards=1)
    assert response.status_code == 302
    assert Match.objects.get().version_y_id == newer.pk


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"version": None}, "choose which of your versions plays the challenge."),
        ({"version": "mine"}, "Your version: A valid integer is required."),
        ({"boards": 0}, "Boards: Ensure this value is greater than or equal to 1."),
        ({"boards": 1001}, "Boards: Ensure this value is less than or equal to 1000."),
        ({"boards": "many"}, "Boards: A valid integer is required."),
        ({"opponent_number": 7}, "has no version 7."),
        ({"version": 999_999}, "there is no bot version 999999."),
    ],
)
def test_bad_input_is_refused_on_the_page_and_changes_nothing(
    alice: Player, versions: tuple[BotVersion, BotVersion], fields: dict[str, Any], message: str
) -> None:
    mine, theirs = versions
    sent = {"version": mine.pk, "boards": 2, **fields}
    response = challenge(
        signed_in(alice), theirs.bot_id, **{k: v for k, v in sent.items() if v is not None}
    )
    assert response.status_code == 400
    page = text(response)
    assert 'id="challenge-error"' in page and message in page, page
    assert not Match.objects.exists()


def test_a_version_of_another_players_bot_cannot_be_sent_as_ones_own(
    alice: Player, bob: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    _, theirs = versions
    carols = trusted_version(
        services.player_register(username="carol", password=PASSWORD), "c", FIRST_LEGAL_BOT
    )
    response = challenge(signed_in(alice), theirs.bot_id, version=carols.pk, boards=2)
    assert response.status_code == 403
    assert f"bot {carols.bot_id} (carol/c) is not yours" in text(response)
    assert not Match.objects.exists()


def test_an_inactive_opponent_is_refused_with_its_status(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    BotVersion.objects.filter(pk=theirs.pk).update(status=BotVersion.Status.DISABLED)
    response = challenge(signed_in(alice), theirs.bot_id, version=mine.pk, boards=2)
    assert response.status_code == 400
    assert f"bot {theirs.bot_id} has no active version yet." in text(response)
    assert "rnd has no active version yet: it can be challenged once" in text(response)
    pinned = challenge(
        signed_in(alice), theirs.bot_id, version=mine.pk, opponent_number=1, boards=2
    )
    assert pinned.status_code == 400 and "bob/rnd v1 is disabled, not active." in text(pinned)
    assert not Match.objects.exists()


def test_a_version_against_itself_is_refused(alice: Player, versions: Any) -> None:
    mine, _ = versions
    response = challenge(signed_in(alice), mine.bot_id, version=mine.pk, boards=2)
    assert response.status_code == 400
    assert "a version cannot play a match against itself." in text(response)
    assert not Match.objects.exists()


def test_a_spent_quota_says_how_long_to_wait_and_refusals_do_not_spend_it(
    alice: Player, versions: tuple[BotVersion, BotVersion], settings: Any
) -> None:
    settings.CHALLENGE_RATE = "2/hour"
    mine, theirs = versions
    client = signed_in(alice)
    assert challenge(client, theirs.bot_id, version=mine.pk, boards=0).status_code == 400
    for boards in (1, 2):
        assert challenge(client, theirs.bot_id, version=mine.pk, boards=boards).status_code == 302
    refused = challenge(client, theirs.bot_id, version=mine.pk, boards=3)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert (
        "You have sent as many challenges as the arena takes for now "
        "(at most 2 challenges per hour): try again in 60 minutes." in text(refused)
    )
    assert Match.objects.count() == 2


def test_a_form_sent_twice_queues_one_challenge_and_sends_both_to_it(
    alice: Player, versions: tuple[BotVersion, BotVersion], settings: Any
) -> None:
    # A double click posts the form twice; the browser shows the second answer.
    settings.CHALLENGE_RATE = "2/hour"
    mine, theirs = versions
    client = signed_in(alice)
    first = challenge(client, theirs.bot_id, version=mine.pk, boards=3)
    again = challenge(client, theirs.bot_id, version=mine.pk, boards=3)
    match = Match.objects.get()
    assert first["Location"] == again["Location"] == f"/matches/{match.pk}/"
    assert (
        f"Your challenge was already queued as match {match.pk}, and is not sent twice: "
        "alice/first v1 against bob/rnd v1 over 3 boards" in text(client.get(again["Location"]))
    )
    # The repeat did not spend the quota: one more challenge is taken.
    assert challenge(client, theirs.bot_id, version=mine.pk, boards=4).status_code == 302
    assert Match.objects.count() == 2


def test_the_same_challenge_is_queued_again_once_the_first_has_started(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    client = signed_in(alice)
    challenge(client, theirs.bot_id, version=mine.pk, boards=3)
    Match.objects.update(status=Match.Status.RUNNING)
    challenge(client, theirs.bot_id, version=mine.pk, boards=3)
    assert Match.objects.filter(status=Match.Status.QUEUED).count() == 1
    assert Match.objects.count() == 2


def test_the_page_and_the_api_draw_on_one_quota(
    alice: Player, versions: tuple[BotVersion, BotVersion], settings: Any
) -> None:
    settings.CHALLENGE_RATE = "1/hour"
    mine, theirs = versions
    client = signed_in(alice)
    assert challenge(client, theirs.bot_id, version=mine.pk, boards=1).status_code == 302
    api = client.post("/api/matches/", {"version": mine.pk, "opponent": theirs.pk, "boards": 1})
    assert api.status_code == 429
    assert Match.objects.count() == 1


def test_a_visitor_is_asked_to_sign_in_and_cannot_post(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    _, theirs = versions
    page = text(Client().get(f"/bots/{theirs.bot_id}/"))
    assert "to challenge rnd with a bot of yours" in page and "challenge-form" not in page
    assert f'href="/accounts/login/?next=/bots/{theirs.bot_id}/"' in page
    response = challenge(Client(), theirs.bot_id, version=1, boards=1)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Match.objects.exists()


def test_a_player_without_an_active_bot_in_the_variant_is_told_how_to_get_one(
    alice: Player, bob: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    _, theirs = versions
    carol = services.player_register(username="carol", password=PASSWORD)
    trusted_version(carol, "other-game", FIRST_LEGAL_BOT, variant="single4")
    page = text(signed_in(carol).get(f"/bots/{theirs.bot_id}/"))
    assert "You have no active bot that plays auction4." in page
    assert "challenge-form" not in page


def test_a_bot_without_an_active_version_offers_no_form(
    alice: Player, bob: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    _, theirs = versions
    BotVersion.objects.filter(pk=theirs.pk).update(status=BotVersion.Status.PENDING)
    page = text(signed_in(alice).get(f"/bots/{theirs.bot_id}/"))
    assert "rnd has no active version yet" in page and "challenge-form" not in page


def test_challenging_a_bot_that_does_not_exist_is_a_404(alice: Player) -> None:
    response = challenge(signed_in(alice), 999_999, version=1, boards=1)
    assert response.status_code == 404
    assert not Match.objects.exists()


def test_the_owner_of_a_bots_only_active_version_is_told_it_cannot_play_itself(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, _ = versions
    client = signed_in(alice)
    page = text(client.get(f"/bots/{mine.bot_id}/"))
    assert "A version cannot play itself" in page and "challenge-form" not in page
    second = services.bot_version_submit(bot=mine.bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=second.pk).update(status=BotVersion.Status.ACTIVE)
    page = text(client.get(f"/bots/{mine.bot_id}/"))
    assert 'id="challenge-form"' in page
    response = challenge(client, mine.bot_id, version=second.pk, opponent_number=1, boards=1)
    assert response.status_code == 302
    assert Match.objects.get().version_x_id == second.pk
