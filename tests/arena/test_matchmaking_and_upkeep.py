"""The periodic jobs: matchmaking, re-queueing stale matches, disabling faulty versions."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from arena import services
from arena.models import BotVersion, Match, Rating
from arena.queues.broker_contents import BrokerContents
from arena.services.matches import match_create
from arena.services.matchmaking import matchmaking_pair
from arena.tasks import match_run_task
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, SLOW_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


def test_the_matchmaker_pairs_new_versions_of_different_bots_by_rating(
    alice,
    bob,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.MATCHMAKING_BOARDS = 1
    carol = services.player_register(username="carol", password="carol-long-password-1")
    versions = [
        trusted_version(alice, "a", FIRST_LEGAL_BOT),
        trusted_version(bob, "b", RANDOM_BOT),
        trusted_version(carol, "c", RANDOM_BOT),
        trusted_version(carol, "d", FIRST_LEGAL_BOT),
    ]
    # Ratings make c and a the closest pair, and b and d the other.
    for version, elo in zip(versions, [1500, 1800, 1510, 1790], strict=True):
        Rating.objects.create(
            version=version, variant="auction4", elo=elo, elo_low=elo - 50, elo_high=elo + 50
        )
    created = matchmaking_pair(variant="auction4")
    pairs = {frozenset((m.version_x_id, m.version_y_id)) for m in created}
    a, b, c, d = (v.pk for v in versions)
    assert pairs == {frozenset((a, c)), frozenset((b, d))}
    assert all(m.kind == Match.Kind.MATCHMAKING for m in created)
    # Versions with a queued match wait for it: a second round queues nothing.
    assert matchmaking_pair(variant="auction4") == []


def test_the_matchmaker_never_pairs_two_versions_of_one_bot(alice) -> None:  # type: ignore[no-untyped-def]
    first = trusted_version(alice, "a", FIRST_LEGAL_BOT)
    second = services.bot_version_submit(bot=first.bot, data=RANDOM_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=second.pk).update(status=BotVersion.Status.ACTIVE)
    assert matchmaking_pair(variant="auction4") == []


LONG_AGO = "2001-01-01T00:00:00Z"


def _busy(
    *,
    waiting: frozenset[int] = frozenset(),
    held: frozenset[int] = frozenset(),
    versions: frozenset[int] = frozenset(),
) -> BrokerContents:
    """A Redis broker's contents, as the re-queue job reads them, with messages queued."""
    return BrokerContents(
        readable=True,
        queue_is_empty=False,
        matches_waiting=waiting,
        matches_held=held,
        versions=versions,
    )


def test_matches_whose_message_the_broker_lost_are_sent_again_while_others_wait(  # type: ignore[no-untyped-def]
    alice, bob
) -> None:
    x, y = trusted_version(alice, "a", FIRST_LEGAL_BOT), trusted_version(bob, "b", RANDOM_BOT)
    matches = [match_create(version_x=x, version_y=y, boards=1) for _ in range(5)]
    lost, waiting, held, just_sent, taken_over = (m.pk for m in matches)
    Match.objects.filter(pk__in=[lost, waiting, held, taken_over]).update(
        status=Match.Status.QUEUED, last_sent=LONG_AGO, created=LONG_AGO
    )
    Match.objects.filter(pk=just_sent).update(status=Match.Status.QUEUED)
    # A dead worker's match whose take-over message already waits in the queue.
    Match.objects.filter(pk=taken_over).update(status=Match.Status.RUNNING, lease_until=LONG_AGO)
    broker = _busy(waiting=frozenset({waiting, taken_over}), held=frozenset({held}))
    # Only the match the broker holds no message for is sent again, although the queue is
    # busy and the others have waited for long; the one sent a moment ago is left alone.
    assert services.match_requeue_stale(broker=broker) == [lost]
    # A second run at once (the first's message not read yet) sends nothing more.
    Match.objects.filter(pk=lost).update(status=Match.Status.QUEUED)
    assert services.match_requeue_stale(broker=broker) == []


def test_a_dead_workers_match_is_sent_again_unless_a_message_for_it_waits(  # type: ignore[no-untyped-def]
    alice, bob
) -> None:
    x, y = trusted_version(alice, "a", FIRST_LEGAL_BOT), trusted_version(bob, "b", RANDOM_BOT)
    lost = match_create(version_x=x, version_y=y, boards=1)
    Match.objects.filter(pk=lost.pk).update(
        status=Match.Status.RUNNING, lease_until=LONG_AGO, last_sent=LONG_AGO
    )
    # The dead worker's own delivery is still held (unacknowledged): it does not count.
    assert services.match_requeue_stale(broker=_busy(held=frozenset({lost.pk}))) == [lost.pk]


def test_a_broker_whose_messages_cannot_be_read_gets_a_lost_match_after_the_visibility_timeout(  # type: ignore[no-untyped-def]
    alice, bob, settings
) -> None:
    x, y = trusted_version(alice, "a", FIRST_LEGAL_BOT), trusted_version(bob, "b", RANDOM_BOT)
    first, second = (match_create(version_x=x, version_y=y, boards=1) for _ in range(2))
    Match.objects.filter(pk__in=[first.pk, second.pk]).update(status=Match.Status.QUEUED)
    Match.objects.filter(pk=first.pk).update(last_sent=LONG_AGO)
    unread = BrokerContents(readable=False, queue_is_empty=False)
    assert services.match_requeue_stale(broker=unread) == [first.pk]
    # With the queue empty nothing can be waiting: a match sent long enough ago is lost.
    Match.objects.filter(pk=second.pk).update(last_sent=LONG_AGO)
    settings.BROKER_VISIBILITY_TIMEOUT = 10**9
    assert services.match_requeue_stale(broker=unread) == []
    empty = BrokerContents(readable=False, queue_is_empty=True)
    assert services.match_requeue_stale(broker=empty) == [second.pk]


def test_pending_validations_whose_message_was_lost_are_sent_again(alice) -> None:  # type: ignore[no-untyped-def]
    bot = services.bot_create(owner=alice, name="a", variant="auction4")
    version = services.bot_version_submit(bot=bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.PENDING)
    # Just sent: its message may be on its way to a worker.
    assert services.bot_version_requeue_stale(broker=_busy()) == []
    BotVersion.objects.filter(pk=version.pk).update(last_sent=LONG_AGO)
    assert services.bot_version_requeue_stale(broker=_busy(versions=frozenset({version.pk}))) == []
    assert services.bot_version_requeue_stale(broker=_busy()) == [version.pk]


def test_a_version_that_keeps_faulting_is_disabled_with_the_reason(
    alice,
    bob,  # type: ignore[no-untyped-def]
) -> None:
    good = trusted_version(alice, "a", FIRST_LEGAL_BOT)
    bot = services.bot_create(owner=bob, name="slow", variant="auction4")
    slow = services.bot_version_submit(bot=bot, data=SLOW_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=slow.pk).update(status=BotVersion.Status.ACTIVE)
    slow.refresh_from_db()
    # The slow bot sleeps 5 s a decision; the good one answers in well under the second
    # however busy the machine.
    match = match_create(version_x=good, version_y=slow, boards=3, decision_ms=1000, bank_ms=60_000)
    match_run_task.apply(args=[match.pk])
    slow.refresh_from_db()
    assert slow.fault_count == 6
    assert slow.status == BotVersion.Status.DISABLED
    assert "disabled after 6 faults in 6 games" in slow.status_reason
    good.refresh_from_db()
    assert good.status == BotVersion.Status.ACTIVE and good.fault_count == 0


def test_the_recompute_command_reports_no_difference(alice, bob) -> None:  # type: ignore[no-untyped-def]
    x, y = trusted_version(alice, "a", FIRST_LEGAL_BOT), trusted_version(bob, "b", RANDOM_BOT)
    match_run_task.apply(args=[match_create(version_x=x, version_y=y, boards=1).pk])
    output = StringIO()
    call_command("recompute_ratings", "--check", stdout=output)
    assert "1 rated matches, 2 ratings, 0 differences" in output.getvalue()
