"""Bots' moves at a card table come from a real Celery worker, sent on commit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.models import Player
from lobby import selectors, services
from lobby.models import GameTable
from tests.arena.conftest import RANDOM_BOT, active_version
from tests.arena.workers import celery_worker, require_worker_services, wait_for
from tests.lobby.conftest import choose

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_plays_the_bots_until_the_persons_turn(tmp_path: Path, alice: Player) -> None:
    require_worker_services()
    version = active_version(alice, "rival", RANDOM_BOT, variant="auction4")
    user = alice.user
    rng = random.Random(5)
    with celery_worker(tmp_path, SANDBOX_MODE="plain"):
        table = services.table_open(
            host=user,
            variant="auction4",
            target={"kind": "hands", "value": 1},
            seats=[
                {"kind": "host"},
                {"kind": "bot", "bot": {"kind": "arena", "version": version.pk}},
                {"kind": "bot", "bot": {"kind": "reference", "name": "greedy"}},
                {"kind": "bot", "bot": {"kind": "reference", "name": "random"}},
            ],
        )
        mine = 0
        while True:
            wait_for(
                lambda: selectors.frame_for(table_id=table.pk, viewer=user)["to_act"] in (0, None),
                120,
                "the worker's bots to move",
            )
            frame = selectors.frame_for(table_id=table.pk, viewer=user)
            if frame["status"] == "finished":
                break
            mine += 1
            services.table_act(
                table_id=table.pk, user=user, action=choose(frame, rng), ply=frame["ply"]
            )
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED and table.result is not None
    replay = services.replay_of(table)
    # The bots made every move the person did not: three of every four in the tricks.
    assert len(table.actions) > 2 * mine
    assert set(replay.actors) == {0, 1, 2, 3}
    assert table.result["scores"] == [int(s) for s in replay.state.result().scores]
