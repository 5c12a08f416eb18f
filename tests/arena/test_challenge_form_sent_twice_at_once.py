"""The bot page's challenge form posted twice at once (a double click), on PostgreSQL: one
challenge is queued, and both answers send the person to it."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import Client

from arena.models import Match, Player
from tests.arena.conftest import FIRST_LEGAL_BOT, PASSWORD, RANDOM_BOT, trusted_version
from tests.arena.test_idempotency_concurrency import _waiting_on_locks
from tests.arena.workers import wait_for
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_posts_of_one_challenge_at_once_queue_one_match(alice: Player, bob: Player) -> None:
    if connection.vendor != "postgresql":
        skip_or_fail("concurrent requests need DATABASE_URL on PostgreSQL")
    mine = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    theirs = trusted_version(bob, "rnd", RANDOM_BOT)
    answers: list[Any] = []

    def post() -> None:
        client = Client()
        try:
            assert client.login(username="alice", password=PASSWORD)
            answers.append(
                client.post(f"/bots/{theirs.bot_id}/challenge/", {"version": mine.pk, "boards": 2})
            )
        finally:
            connections.close_all()

    # Hold the challenger's row (a challenge from the page takes it before it looks for one
    # already queued) until both posts wait on it: neither has looked yet.
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=alice.pk)
        threads = [threading.Thread(target=post) for _ in range(2)]
        for thread in threads:
            thread.start()
        wait_for(lambda: _waiting_on_locks() == 2, 60, "both posts to wait for the challenger")
    for thread in threads:
        thread.join(timeout=120)
    match = Match.objects.get()
    assert [answer.status_code for answer in answers] == [302, 302]
    assert {answer["Location"] for answer in answers} == {f"/matches/{match.pk}/"}
