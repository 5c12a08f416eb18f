"""A whole season through a real Celery worker: matches and the timetable's task run there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from arena import services as arena_services
from arena.models import BotVersion, Match
from leagues.models import Season
from leagues.tasks import league_advance_task
from tests.arena.workers import celery_worker, require_worker_services, wait_for
from tests.leagues.conftest import (
    FIRST_LEGAL_BOT,
    RANDOM_BOT,
    client_for,
    create_league,
    enter,
    open_season,
    schedule,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_small_round_robin_runs_to_its_final_standings(
    tmp_path: Path,
    organiser_client: APIClient,
    alice,  # type: ignore[no-untyped-def]
    bob,  # type: ignore[no-untyped-def]
    carol,  # type: ignore[no-untyped-def]
) -> None:
    require_worker_services()
    # The tests' own trusted bots run as plain processes; the sandbox has its own tests.
    with celery_worker(tmp_path, SANDBOX_MODE="plain"):
        versions = []
        for player, source in ((alice, FIRST_LEGAL_BOT), (bob, RANDOM_BOT), (carol, RANDOM_BOT)):
            bot = arena_services.bot_create(owner=player, name="entrant", variant="auction4")
            versions.append(
                arena_services.bot_version_submit(bot=bot, data=source, filename="bot.py")
            )
        wait_for(
            lambda: all(
                BotVersion.objects.get(pk=v.pk).status == BotVersion.Status.ACTIVE for v in versions
            ),
            90,
            "the worker to validate the entrants",
        )
        league = create_league(organiser_client, boards_per_match=2)
        open_season(organiser_client, league["id"])
        for player, version in zip((alice, bob, carol), versions, strict=True):
            enter(client_for(player), league["id"], version)
        assert schedule(organiser_client, league["id"], 1).status_code == 201

        # What celery beat does with the league's timetable, once a second.
        deadline = time.monotonic() + 180
        while Season.objects.get().status != Season.Status.FINISHED:
            assert time.monotonic() < deadline, "the season did not finish in 180 s"
            league_advance_task.delay(league["id"])
            time.sleep(1)

    assert set(Match.objects.filter(kind="league").values_list("status", flat=True)) == {"done"}
    assert Match.objects.filter(kind="league").count() == 3
    standings = APIClient().get(f"/api/leagues/{league['id']}/seasons/1/standings/").json()
    assert standings["status"] == "finished"
    rows = standings["divisions"][0]["rows"]
    assert [(row["played"], row["byes"]) for row in rows] == [(2, 1)] * 3
    assert sum(row["points"] for row in rows) == 6
    rounds = APIClient().get(f"/api/leagues/{league['id']}/seasons/1/rounds/").json()["results"]
    assert [(r["number"], r["status"], r["matches_playing"]) for r in rounds] == [
        (1, "complete", 0),
        (2, "complete", 0),
        (3, "complete", 0),
    ]
