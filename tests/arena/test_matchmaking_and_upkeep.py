"""The periodic jobs: matchmaking, re-queueing stale matches, disabling faulty versions."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from arena import services
from arena.models import BotVersion, Match, Rating
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


def test_stale_matches_are_queued_again(alice, bob) -> None:  # type: ignore[no-untyped-def]
    x, y = trusted_version(alice, "a", FIRST_LEGAL_BOT), trusted_version(bob, "b", RANDOM_BOT)
    lost = match_create(version_x=x, version_y=y, boards=1)
    Match.objects.filter(pk=lost.pk).update(
        status=Match.Status.RUNNING, lease_until="2001-01-01T00:00:00Z"
    )
    match_create(version_x=x, version_y=y, boards=1)  # just queued: not stale
    long_queued = match_create(version_x=x, version_y=y, boards=1)
    Match.objects.filter(pk=long_queued.pk).update(created="2001-01-01T00:00:00Z")
    # With messages waiting, a queued match may just be waiting its turn.
    assert services.match_requeue_stale(queue_is_empty=False) == [lost.pk]
    # In-process execution (no broker) has just played the lost match: lose another one.
    lost_again = match_create(version_x=x, version_y=y, boards=1)
    Match.objects.filter(pk=lost_again.pk).update(
        status=Match.Status.RUNNING, lease_until="2001-01-01T00:00:00Z"
    )
    requeued = set(services.match_requeue_stale(queue_is_empty=True))
    # The just-queued match is never among them; the first lost one is, unless it was played.
    assert {lost_again.pk, long_queued.pk} <= requeued <= {lost.pk, lost_again.pk, long_queued.pk}


def test_long_pending_validations_are_queued_again(alice) -> None:  # type: ignore[no-untyped-def]
    bot = services.bot_create(owner=alice, name="a", variant="auction4")
    version = services.bot_version_submit(bot=bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    assert services.bot_version_requeue_stale(queue_is_empty=True) == []
    BotVersion.objects.filter(pk=version.pk).update(created="2001-01-01T00:00:00Z")
    assert services.bot_version_requeue_stale(queue_is_empty=False) == []
    assert services.bot_version_requeue_stale(queue_is_empty=True) == [version.pk]


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
