"""Two copies of one request with one Idempotency-Key, in flight at once, on PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

from arena import services
from arena.models import Bot, IdempotencyRecord, Player
from tests.arena.conftest import FIRST_LEGAL_BOT, client_for
from tests.arena.workers import wait_for
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db(transaction=True)


def _waiting_on_locks() -> int:
    with connections["default"].cursor() as cursor:
        # Activity statistics are a snapshot per transaction, and this one is still open.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def test_concurrent_uploads_with_one_key_store_one_version_and_give_one_answer() -> None:
    if connection.vendor != "postgresql":
        skip_or_fail("concurrent requests need DATABASE_URL on PostgreSQL")
    owner: Player = services.player_register(username="alice", password="a-long-test-pass-1")
    bot = services.bot_create(owner=owner, name="twice", variant="auction4")
    answers: list[Any] = []

    def upload() -> None:
        client: APIClient = client_for(owner)
        try:
            answers.append(
                client.post(
                    f"/api/bots/{bot.pk}/versions/",
                    {"source": FIRST_LEGAL_BOT.decode()},
                    HTTP_IDEMPOTENCY_KEY="same-upload",
                )
            )
        finally:
            connections.close_all()

    # Hold the bot's row lock (uploads take it to number versions) until both requests wait
    # on it: both have then looked for the key and found nothing.
    with transaction.atomic():
        Bot.objects.select_for_update().get(pk=bot.pk)
        threads = [threading.Thread(target=upload) for _ in range(2)]
        for thread in threads:
            thread.start()
        wait_for(lambda: _waiting_on_locks() == 2, 60, "both uploads to wait for the bot")
    for thread in threads:
        thread.join(timeout=120)
    assert [answer.status_code for answer in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert sorted(a.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert bot.versions.count() == 1
    assert IdempotencyRecord.objects.count() == 1
