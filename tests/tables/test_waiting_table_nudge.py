"""A table left waiting on an arena bot (broker down, worker lost) is sent to a worker again."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.test import Client
from django.utils import timezone

from arena.models import BotVersion, Player
from arena.queues.routing import interactive_queue
from arena.services import bot_create, bot_version_submit
from tables import services
from tables.models import PlayTable
from tests.arena.conftest import FIRST_LEGAL_BOT
from tests.arena.workers import require_worker_services

pytestmark = pytest.mark.django_db


def test_a_table_waiting_too_long_is_sent_again_once_per_period(alice: Player) -> None:
    require_worker_services()
    bot = bot_create(owner=alice, name="rival", variant="twohand")
    version = bot_version_submit(bot=bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    table = services.table_start(
        owner=alice.user,
        variant="twohand",
        seed=8,
        dealer=0,
        human_seat=0,
        bots=[{"kind": "arena", "version": version.pk}],
    )
    # Seat 1 (the arena bot) leads; nobody has moved it yet.
    assert services.hand_of(table).current == 1
    assert not services.table_nudge(table_id=table.pk)
    PlayTable.objects.filter(pk=table.pk).update(updated=timezone.now() - timedelta(minutes=5))
    assert services.table_nudge(table_id=table.pk)
    # The first nudge touched the table: polls in the same period send nothing more.
    assert not services.table_nudge(table_id=table.pk)


def _advance_messages(table_id: int) -> list[bytes]:
    """The ``play.table_advance`` messages for the table waiting in the Redis list of the
    interactive queue (kombu's Redis transport keeps a queue as a list of JSON messages)."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    found = []
    for raw in client.lrange(interactive_queue(), 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] != "play.table_advance":
            continue
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        if args == [table_id]:
            found.append(raw)
    return found


def test_many_nudges_of_a_waiting_table_leave_one_message_on_the_broker(alice: Player) -> None:
    """Behind a slow queue, each poll of the page used to send one more message: a worker
    then found dozens for one table."""
    require_worker_services()
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("the messages are counted in the Redis broker's list")
    bot = bot_create(owner=alice, name="rival", variant="twohand")
    version = bot_version_submit(bot=bot, data=FIRST_LEGAL_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    table = services.table_start(
        owner=alice.user,
        variant="twohand",
        seed=8,
        dealer=0,
        human_seat=0,
        bots=[{"kind": "arena", "version": version.pk}],
    )
    client = Client()
    client.force_login(alice.user)
    try:
        for _ in range(10):
            # Each time the table looks forgotten again, and the page polls or is nudged.
            forgotten = timezone.now() - timedelta(minutes=5)
            PlayTable.objects.filter(pk=table.pk).update(updated=forgotten)
            assert client.get(f"/play/tables/{table.pk}/state/").status_code == 200
            PlayTable.objects.filter(pk=table.pk).update(updated=forgotten)
            assert services.table_nudge(table_id=table.pk)
        assert len(_advance_messages(table.pk)) == 1
    finally:
        broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        for raw in _advance_messages(table.pk):
            broker.lrem(interactive_queue(), 0, raw)
