"""A running match's lease is short and renewed while the match plays (heartbeat)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from arena import services
from arena.models import BotVersion, Match
from arena.queues.broker_contents import BrokerContents
from arena.services.matches import match_claim, match_create, match_requeue_stale
from tests.arena.conftest import FIRST_LEGAL_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")

# Sleeps longer than the heartbeat interval on each process's first decision only.
DAWDLER = (
    b"import time\n\nDECIDED = []\n\ndef act(observation, legal):\n"
    b"    if not DECIDED:\n        time.sleep(1.05)\n    DECIDED.append(1)\n"
    b"    return legal[0]\n"
)


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    # Marked active, as the dawdler is: the lease starts after validation (tested elsewhere).
    first = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    bot = services.bot_create(owner=bob, name="dawdler", variant="auction4")
    dawdler = services.bot_version_submit(bot=bot, data=DAWDLER, filename="bot.py")
    BotVersion.objects.filter(pk=dawdler.pk).update(status=BotVersion.Status.ACTIVE)
    dawdler.refresh_from_db()
    return first, dawdler


def test_a_claim_lapses_within_a_minute_of_the_last_heartbeat(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    before = timezone.now()
    claimed = match_claim(match_id=match.pk, token="worker")
    assert claimed is not None and claimed.lease_until is not None
    assert claimed.lease_until - before < timedelta(seconds=60)


def test_the_lease_is_renewed_between_decisions_while_the_match_plays(
    versions: tuple[BotVersion, BotVersion],
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.MATCH_HEARTBEAT_S = 1
    # The dawdler's one slow answer must be a wait, not a timeout (which would end its seat).
    settings.MATCH_DECISION_MS = 30_000
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    with CaptureQueriesContext(connection) as queries:
        assert services.match_run(match_id=match.pk) == "done"
    renewals = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith('UPDATE "arena_match" SET "lease_until" ')
    ]
    # Each of the 4 dawdling bot processes (2 per table) waits over a heartbeat interval
    # once, so each wait is followed by a renewal; and one more before storing the results.
    assert len(renewals) >= 5


def test_the_requeue_sends_a_match_the_broker_could_not_take_once(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    Match.objects.filter(pk=match.pk).update(publish_pending=True)
    # The broker takes it now (in-process without one): sent, and no longer marked.
    busy = BrokerContents(readable=True, queue_is_empty=False)
    assert match_requeue_stale(broker=busy) == [match.pk]
    assert not Match.objects.get(pk=match.pk).publish_pending
    assert match_requeue_stale(broker=busy) == []
