"""A table left waiting on an arena bot (broker down, worker lost) is sent to a worker again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import BotVersion, Player
from arena.services import bot_create, bot_version_submit
from leagues.play import services
from leagues.play.models import PlayTable
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
