"""A player's casual tables are bounded while open (``PLAY_OPEN_TABLES_MAX``), and a casual
table left untouched for ``PLAY_TABLE_IDLE_S`` is ended as abandoned by a periodic job.
Challenge and robot-event tables are their own flows' and neither count nor expire."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from arena.models import Player
from config.celery import app
from robot_events import services as robot_services
from tables.challenges import challenge_create
from tables.models import PlayTable
from tables.tasks import tables_expire_task
from tests.arena.conftest import PASSWORD
from tests.robot_events.conftest import new_director, new_event

pytestmark = pytest.mark.django_db

RANDOM = {"kind": "reference", "name": "random"}
STRONG = {"kind": "reference", "name": "strong"}


def _start(client: APIClient) -> Any:
    return client.post("/api/play/tables/", {"variant": "twohand", "bots": [RANDOM]}, format="json")


def _open_tables(player: Player) -> int:
    return PlayTable.objects.filter(owner=player.user, status=PlayTable.Status.PLAYING).count()


def test_opening_table_after_table_through_the_api_is_refused_at_the_limit(
    alice_client: APIClient, alice: Player
) -> None:
    assert settings.PLAY_OPEN_TABLES_MAX == 5
    answers = [_start(alice_client).status_code for _ in range(12)]
    assert answers == [201] * 5 + [409] * 7
    # Refused before anything is dealt: three strong bots cost nothing then.
    refused = alice_client.post(
        "/api/play/tables/", {"variant": "single4", "bots": [STRONG] * 3}, format="json"
    )
    assert refused.status_code == 409
    detail = refused.json()["detail"]
    assert "5 open tables" in detail and "PLAY_OPEN_TABLES_MAX=5" in detail
    assert "/api/play/tables/<id>/abandon/" in detail and "Leave the hand" in detail
    assert _open_tables(alice) == 5


def test_leaving_a_table_through_the_api_frees_its_place(
    alice_client: APIClient, alice: Player
) -> None:
    ids = [_start(alice_client).json()["id"] for _ in range(5)]
    assert _start(alice_client).status_code == 409
    left = alice_client.post(f"/api/play/tables/{ids[0]}/abandon/")
    assert left.status_code == 200, left.content
    assert left.json()["status"] == "abandoned"
    assert left.json()["result"]["fault"]["kind"] == "abandoned"
    again = alice_client.post(f"/api/play/tables/{ids[0]}/abandon/")
    assert again.status_code == 409 and "already abandoned" in again.json()["detail"]
    assert _start(alice_client).status_code == 201


def test_starting_and_leaving_tables_in_a_loop_is_bounded_by_a_rate(
    alice_client: APIClient, settings: Any
) -> None:
    settings.PLAY_OPEN_TABLES_MAX = 2
    settings.PLAY_TABLE_RATE = "4/hour"
    first, second = (_start(alice_client).json()["id"] for _ in range(2))
    # Refused at the open-table limit: a refusal does not spend the rate.
    assert [_start(alice_client).status_code for _ in range(3)] == [409] * 3
    for table_id in (first, second):
        assert alice_client.post(f"/api/play/tables/{table_id}/abandon/").status_code == 200
    third, fourth = (_start(alice_client).json()["id"] for _ in range(2))
    for table_id in (third, fourth):
        assert alice_client.post(f"/api/play/tables/{table_id}/abandon/").status_code == 200
    refused = _start(alice_client)
    assert refused.status_code == 429
    assert "at most 4 tables started per hour" in refused.json()["detail"]
    assert int(refused["Retry-After"]) > 0


def test_another_players_table_cannot_be_left_by_the_api(
    alice_client: APIClient, bob_client: APIClient
) -> None:
    table = _start(alice_client).json()
    refused = bob_client.post(f"/api/play/tables/{table['id']}/abandon/")
    assert refused.status_code == 404
    assert PlayTable.objects.get(pk=table["id"]).status == PlayTable.Status.PLAYING


def test_the_page_form_refuses_a_table_beyond_the_limit_and_says_how_to_free_one(
    alice: Player, settings: Any
) -> None:
    settings.PLAY_OPEN_TABLES_MAX = 2
    browser = Client()
    assert browser.login(username="alice", password=PASSWORD)
    form = {"variant": "twohand", "seat": "0", "bots": "reference:random"}
    assert [browser.post("/play/tables/new/", form).status_code for _ in range(2)] == [302] * 2
    refused = browser.post("/play/tables/new/", form)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "2 open tables" in page and "PLAY_OPEN_TABLES_MAX=2" in page
    assert _open_tables(alice) == 2


def test_challenge_and_robot_event_tables_neither_count_nor_are_blocked(
    alice_client: APIClient, alice: Player
) -> None:
    for _ in range(5):
        assert _start(alice_client).status_code == 201
    challenge = challenge_create(owner=alice.user, variant="twohand", opponent=RANDOM, boards=1)
    assert challenge.tables.count() == 1
    event = new_event(new_director())
    entry = robot_services.robot_entry_join(event=event, player=alice)
    play = robot_services.robot_play_start(entry=entry)
    assert play.table is not None and play.table.status == PlayTable.Status.PLAYING
    assert _open_tables(alice) == 7
    assert _start(alice_client).status_code == 409


def _untouched_for(table_id: int, seconds: float) -> None:
    # A queryset update leaves ``updated`` as written (auto_now applies to save() alone).
    PlayTable.objects.filter(pk=table_id).update(
        updated=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_casual_table_left_untouched_is_ended_as_abandoned_by_the_periodic_job(
    alice_client: APIClient, alice: Player
) -> None:
    idle = settings.PLAY_TABLE_IDLE_S
    stale, recent = (_start(alice_client).json()["id"] for _ in range(2))
    _untouched_for(stale, idle + 60)
    _untouched_for(recent, idle - 60)
    challenge = challenge_create(owner=alice.user, variant="twohand", opponent=RANDOM, boards=1)
    challenge_table = challenge.tables.get().play_table_id
    _untouched_for(challenge_table, idle + 60)

    assert tables_expire_task.apply().get() == 1

    ended = PlayTable.objects.get(pk=stale)
    assert ended.status == PlayTable.Status.ABANDONED
    assert ended.result is not None and ended.result["fault"]["kind"] == "abandoned"
    assert ended.result["fault"]["seat"] == ended.human_seat
    assert PlayTable.objects.get(pk=recent).status == PlayTable.Status.PLAYING
    assert PlayTable.objects.get(pk=challenge_table).status == PlayTable.Status.PLAYING
    assert tables_expire_task.apply().get() == 0


def test_the_expiry_job_is_on_beats_schedule_under_a_registered_task() -> None:
    jobs = {job["task"]: job for job in settings.CELERY_BEAT_SCHEDULE.values()}
    assert jobs["play.tables_expire"]["schedule"] == float(settings.PLAY_EXPIRE_EVERY_S)
    assert "play.tables_expire" in app.tasks
