"""Casual tables started at once cannot pass the open-table limit between them."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from arena.models import Player
from tables import services
from tables.errors import TooManyTables
from tables.models import PlayTable

pytestmark = pytest.mark.django_db(transaction=True)

RACERS = 6


def test_simultaneous_starts_get_only_the_places_left(alice: Player, settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serializes every write anyway")
    settings.PLAY_OPEN_TABLES_MAX = 2
    barrier = threading.Barrier(RACERS)
    started: list[int] = []
    refused: list[TooManyTables] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            owner = User.objects.get(pk=alice.user_id)
            barrier.wait()
            table = services.table_start(
                owner=owner,
                variant="twohand",
                seed=7,
                dealer=0,
                human_seat=0,
                bots=[{"kind": "reference", "name": "random"}],
                casual=True,
            )
            started.append(table.pk)
        except TooManyTables as refusal:
            refused.append(refusal)
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert (len(started), len(refused)) == (2, RACERS - 2)
    assert PlayTable.objects.filter(owner=alice.user, casual=True).count() == 2
