"""A bot's page and a match's page follow what they wait on: while a version is being
validated or a match is queued or running, the changing part asks for itself again every 3
seconds (htmx), and the part served for it holds only what the page shows its reader."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from arena import services
from arena.models import BotVersion, Match, Player
from arena.queues.positions import version_queue_position, version_queue_positions
from arena.tasks import match_run_task
from tests.arena.conftest import FIRST_LEGAL_BOT, PASSWORD, RANDOM_BOT, trusted_version

POLLS = 'hx-trigger="every 3s"'
REASON = "REASON-THE-OWNER-ALONE-READS"


@pytest.fixture
def versions(alice: Player, bob: Player, plain_bots: None) -> tuple[BotVersion, BotVersion]:
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def read(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    content: bytes = response.content
    return html.unescape(content.decode())


def signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def test_a_bot_page_with_nothing_pending_does_not_poll(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    mine, _ = versions
    page = read(Client(), f"/bots/{mine.bot_id}/")
    assert POLLS not in page and "htmx" not in page


def test_a_bot_page_follows_a_version_in_validation_until_its_verdict(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, _ = versions
    pending = services.bot_version_submit(bot=mine.bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    page = read(Client(), f"/bots/{mine.bot_id}/")
    assert f'hx-get="/bots/{mine.bot_id}/live/?active=1" {POLLS}' in page and "htmx" in page
    fragment = read(Client(), f"/bots/{mine.bot_id}/live/?active=1")
    assert POLLS in fragment and "1st in the queue" in fragment
    # While its active versions are those the page was drawn with, its form is left alone.
    assert "<html" not in fragment and "Challenge this bot" not in fragment
    BotVersion.objects.filter(pk=pending.pk).update(
        status=BotVersion.Status.REJECTED, status_reason=REASON
    )
    after = read(Client(), f"/bots/{mine.bot_id}/live/?active=1")
    assert POLLS not in after and "rejected" in after and "Challenge this bot" not in after


def test_a_bot_that_becomes_active_offers_its_challenge_form_without_a_reload(
    alice: Player, bob: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    BotVersion.objects.filter(pk=theirs.pk).update(status=BotVersion.Status.PENDING)
    page = read(signed_in(alice), f"/bots/{theirs.bot_id}/")
    assert f'hx-get="/bots/{theirs.bot_id}/live/?active=" {POLLS}' in page
    assert "rnd has no active version yet" in page
    BotVersion.objects.filter(pk=theirs.pk).update(status=BotVersion.Status.ACTIVE)
    fragment = read(signed_in(alice), f"/bots/{theirs.bot_id}/live/?active=")
    assert 'id="challenge" hx-swap-oob="true"' in fragment and 'id="challenge-form"' in fragment
    assert f'<option value="{mine.pk}">first v1</option>' in fragment
    assert "csrfmiddlewaretoken" in fragment


def test_the_bot_fragment_shows_the_reason_of_a_refusal_to_the_owner_alone(
    alice: Player, bob: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, _ = versions
    pending = services.bot_version_submit(bot=mine.bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=pending.pk).update(
        status=BotVersion.Status.REJECTED, status_reason=REASON, build_log=REASON
    )
    url = f"/bots/{mine.bot_id}/live/"
    # The same search finds the reason where it may be read, so that it would find a leak.
    assert REASON in read(signed_in(alice), url)
    assert REASON not in read(signed_in(bob), url)
    assert REASON not in read(Client(), url)


def test_a_bot_page_follows_its_match_from_queued_to_done(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    match = services.match_challenge(by=alice, version=mine.pk, opponent=theirs.pk, boards=1)
    for bot_id in (mine.bot_id, theirs.bot_id):
        fragment = read(Client(), f"/bots/{bot_id}/live/")
        assert POLLS in fragment
        assert 'id="bot-matches" hx-swap-oob="true"' in fragment
        assert f'<a href="/matches/{match.pk}/">{match.pk}</a>' in fragment and "queued" in fragment
    match_run_task.apply(args=(match.pk,))
    fragment = read(Client(), f"/bots/{mine.bot_id}/live/")
    assert POLLS not in fragment and "queued" not in fragment and ">done" in fragment


def test_a_match_page_follows_the_match_until_it_is_done(
    alice: Player, versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = versions
    match = services.match_challenge(by=alice, version=mine.pk, opponent=theirs.pk, boards=1)
    page = read(Client(), f"/matches/{match.pk}/")
    assert f'hx-get="/matches/{match.pk}/live/" {POLLS}' in page and "htmx" in page
    fragment = read(Client(), f"/matches/{match.pk}/live/")
    assert fragment.lstrip().startswith('<div id="match-live"') and POLLS in fragment
    assert "<html" not in fragment and "queued" in fragment
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    assert POLLS in read(Client(), f"/matches/{match.pk}/live/")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.QUEUED)
    match_run_task.apply(args=(match.pk,))
    done = read(Client(), f"/matches/{match.pk}/live/")
    assert POLLS not in done and "X's total" in done
    page = read(Client(), f"/matches/{match.pk}/")
    assert POLLS not in page and "htmx" not in page


def test_the_live_parts_of_a_bot_or_match_that_does_not_exist_are_404s(db: None) -> None:
    assert Client().get("/bots/999999/live/").status_code == 404
    assert Client().get("/matches/999999/live/").status_code == 404


def test_the_bot_fragment_reads_in_a_fixed_number_of_queries(
    alice: Player, versions: tuple[BotVersion, BotVersion], django_assert_max_num_queries: Any
) -> None:
    mine, theirs = versions
    for _ in range(12):
        services.match_challenge(by=alice, version=mine.pk, opponent=theirs.pk, boards=1)
    client = signed_in(alice)
    # The page's own reads less the challenge form's (tests/browser/test_arena_pages.py).
    with django_assert_max_num_queries(9):
        assert client.get(f"/bots/{mine.bot_id}/live/?active=1").status_code == 200


def test_the_queue_places_of_many_pending_versions_cost_two_queries(
    alice: Player, versions: tuple[BotVersion, BotVersion], django_assert_max_num_queries: Any
) -> None:
    mine, theirs = versions
    pending = []
    for _ in range(5):
        pending.append(
            services.bot_version_submit(bot=mine.bot, data=FIRST_LEGAL_BOT, filename="bot.py")
        )
        services.match_challenge(by=alice, version=mine.pk, opponent=theirs.pk, boards=1)
    # Each place as the one-version reading gives it (tests/arena/test_queue_positions.py).
    expected = {version.pk: version_queue_position(version) for version in pending}
    assert version_queue_positions(list(BotVersion.objects.all())) == expected
    assert [expected[version.pk] for version in pending] == [1, 3, 5, 7, 9]
    client = signed_in(alice)
    # Two more than with nothing pending (test_the_bot_fragment_reads_in_...): the places of
    # all five, as of one.
    with django_assert_max_num_queries(11):
        fragment = read(client, f"/bots/{mine.bot_id}/live/?active=1")
    assert "9th in the queue" in fragment and POLLS in fragment
