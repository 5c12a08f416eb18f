"""Two requests starting the same entrant's next board at once make one play and one table."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from arena.models import Player
from robot_events import services
from robot_events.models import RobotEntry, RobotEvent, RobotPlay
from tables.models import PlayTable

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_starts_share_one_board(event: RobotEvent, field: list[Player]) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serializes every write anyway")
    entry = services.robot_entry_join(event=event, player=field[0])
    barrier = threading.Barrier(2)
    started: list[int] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            mine = RobotEntry.objects.get(pk=entry.pk)
            barrier.wait()
            started.append(services.robot_play_start(entry=mine).pk)
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(set(started)) == 1
    assert RobotPlay.objects.filter(entry=entry).count() == 1
    assert PlayTable.objects.count() == 1
