"""In-site notices (arena/notices.py): what a person waits on reaches them once, in the
header and on /notices/, and nobody else's."""

from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from arena import notices
from arena.models import BotVersion, Match, Notice, Player
from arena.tasks import bot_version_validate_task

from .conftest import FIRST_LEGAL_BOT, active_version


def _client(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_a_validated_version_is_noticed_by_its_owner_alone(
    alice: Player, bob: Player, plain_bots: None
) -> None:
    version = active_version(alice, "first", FIRST_LEGAL_BOT)
    notice = Notice.objects.get(user=alice.user)
    assert notice.kind == Notice.Kind.VERSION_ACTIVE
    assert "first version 1 is active" in notice.text
    assert notice.url == f"/bots/{version.bot_id}/"
    assert not Notice.objects.filter(user=bob.user).exists()
    # The task delivered again finds the version settled: no second notice.
    bot_version_validate_task.apply(args=(version.pk,))
    assert Notice.objects.filter(user=alice.user).count() == 1


def test_a_rejected_version_is_noticed_with_its_reason(alice: Player, plain_bots: None) -> None:
    from arena import services

    bot = services.bot_create(owner=alice, name="crash", variant="auction4")
    version = services.bot_version_submit(
        bot=bot, data=b"def act(observation, legal):\n    raise SystemExit(3)\n", filename="bot.py"
    )
    bot_version_validate_task.apply(args=(version.pk,))
    version.refresh_from_db()
    assert version.status == BotVersion.Status.REJECTED
    notice = Notice.objects.get(user=alice.user)
    assert notice.kind == Notice.Kind.VERSION_REJECTED
    assert "was rejected: validation failed" in notice.text


def test_a_played_challenge_is_noticed_by_who_asked_for_it(
    done_match: int, alice: Player, bob: Player
) -> None:
    match = Match.objects.get(pk=done_match)
    notice = Notice.objects.get(user=alice.user, kind=Notice.Kind.MATCH_PLAYED)
    assert notice.url == f"/matches/{done_match}/"
    assert f"{match.score_x:+d} over 2 boards" in notice.text
    assert not Notice.objects.filter(user=bob.user, kind=Notice.Kind.MATCH_PLAYED).exists()


def test_the_same_event_is_noticed_once(alice: Player) -> None:
    for _ in range(2):
        notices.notify_many(
            user_ids=[alice.user.pk, alice.user.pk],
            kind=Notice.Kind.ROUND_SCHEDULED,
            key="round:1",
            text="round 1",
        )
    assert Notice.objects.filter(user=alice.user).count() == 1


def test_the_header_counts_unread_notices_and_the_page_marks_them_read(
    alice: Player, bob: Player
) -> None:
    notices.notify(
        user_id=alice.user.pk,
        kind=Notice.Kind.RESULTS_PUBLISHED,
        key="event:1:results",
        text="The results of Club night are published",
        url="/tournaments/1/",
    )
    client = _client(alice)
    home = client.get("/").content.decode()
    assert 'aria-label="1 unread"' in home
    page = client.get("/notices/").content.decode()
    assert "The results of Club night are published" in page
    assert 'href="/tournaments/1/"' in page
    assert client.post("/notices/").status_code == 302
    assert 'aria-label="1 unread"' not in client.get("/").content.decode()
    assert Notice.objects.get(user=alice.user).read is not None
    # Another person's page shows none of it.
    assert "Club night" not in _client(bob).get("/notices/").content.decode()


def test_a_visitor_is_sent_to_sign_in() -> None:
    response = Client().get("/notices/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_api_lists_and_marks_notices(alice: Player) -> None:
    notices.notify(user_id=alice.user.pk, kind=Notice.Kind.MATCH_PLAYED, key="match:9", text="x")
    api = APIClient()
    assert api.get("/api/notices/").status_code in (401, 403)
    api.force_authenticate(alice.user)
    listed = api.get("/api/notices/").json()
    assert [item["kind"] for item in listed] == ["match_played"]
    assert listed[0]["read"] is None
    assert api.post("/api/notices/read/").json() == {"marked": 1}
    assert api.post("/api/notices/read/").json() == {"marked": 0}
