"""A person's work is never behind batch work: with the background queue full of matchmaking
matches and only the interactive queue's worker running, an upload is validated, a challenge
is played and the re-queue job runs, while every matchmaking match waits for its own pool.

Real processes on the real broker and PostgreSQL (tests/arena/workers.py). With a single
queue, as before the two existed, the worker took the twenty 50-board matches first and the
upload waited behind a thousand boards.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from arena import services
from arena.models import BotVersion, Match, Player
from arena.queues.routing import background_queue, interactive_queue
from arena.services.matches import match_create
from config.celery import app
from tests.arena.conftest import FIRST_LEGAL_BOT, client_for
from tests.arena.workers import (
    QUICK_RECOVERY,
    celery_beat,
    celery_worker,
    require_worker_services,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BACKLOG = 20
"""Matchmaking matches of 50 boards queued before the person arrives: hours of play."""


def _active(owner: Player, name: str) -> BotVersion:
    bot = services.bot_create(owner=owner, name=name, variant="auction4")
    with transaction.atomic():
        version = services.bot_version_submit(bot=bot, data=FIRST_LEGAL_BOT, filename="bot.py")
        # Marked active before the commit sends its validation, which then finds nothing
        # to do: these are the matchmaker's long-trusted versions.
        BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    version.refresh_from_db()
    return version


def _queued_messages(queue: str) -> int:
    with app.connection_for_read() as connection:
        try:
            declared = connection.default_channel.queue_declare(queue=queue, passive=True)
        except connection.channel_errors:
            return 0
    return int(declared.message_count)


def _purge(queue: str) -> None:
    with app.connection_for_write() as connection:
        try:
            connection.default_channel.queue_purge(queue)
        except connection.channel_errors:
            return  # never declared: nothing to purge


def test_uploads_challenges_and_the_requeue_job_pass_a_full_background_queue(
    tmp_path: Path, alice: Player
) -> None:
    require_worker_services()
    x, y = _active(alice, "x"), _active(alice, "y")
    for _ in range(BACKLOG):
        # As the matchmaker queues them: one transaction each, sent when it commits.
        with transaction.atomic():
            match_create(version_x=x, version_y=y, boards=50, kind=Match.Kind.MATCHMAKING)
    wait_for(
        lambda: _queued_messages(background_queue()) == BACKLOG,
        30,
        "the matchmaking matches to be on the background queue",
    )
    # A challenge left unsent while the broker was unreachable: only the re-queue job sends
    # it, so its being played shows that the job ran.
    unsent = match_create(version_x=x, version_y=y, boards=2, rated=False, seed=7)
    Match.objects.filter(pk=unsent.pk).update(publish_pending=True)

    alice_api = client_for(alice)
    interactive_only = celery_worker(
        tmp_path,
        "interactive",
        queues=[interactive_queue()],
        SANDBOX_MODE="plain",
        **QUICK_RECOVERY,
    )
    try:
        with interactive_only, celery_beat(tmp_path, **QUICK_RECOVERY):
            bot = alice_api.post("/api/bots/", {"name": "new", "variant": "auction4"}).json()
            uploaded = alice_api.post(
                f"/api/bots/{bot['id']}/versions/", {"source": FIRST_LEGAL_BOT.decode()}
            )
            assert uploaded.status_code == 201, uploaded.content
            wait_for(
                lambda: BotVersion.objects.get(pk=uploaded.json()["id"]).status == "active",
                180,
                "the upload to be validated",
            )
            challenge = alice_api.post(
                "/api/matches/",
                {"version": uploaded.json()["id"], "opponent": y.pk, "boards": 4, "rated": False},
            )
            assert challenge.status_code == 201, challenge.content
            wait_for(
                lambda: Match.objects.get(pk=challenge.json()["id"]).status == "done",
                180,
                "the challenge to be played",
            )
            wait_for(
                lambda: Match.objects.get(pk=unsent.pk).status == "done",
                180,
                "the re-queue job to send the unsent challenge",
            )
        # The interactive worker never took a matchmaking match: they wait for their pool.
        waiting = Match.objects.filter(kind=Match.Kind.MATCHMAKING, status=Match.Status.QUEUED)
        assert waiting.count() == BACKLOG
        assert _queued_messages(background_queue()) == BACKLOG
    finally:
        _purge(background_queue())


def test_a_worker_started_without_queues_consumes_both(tmp_path: Path, alice: Player) -> None:
    """The tests' and a small deployment's single worker: a matchmaking match is played too."""
    require_worker_services()
    x, y = _active(alice, "x"), _active(alice, "y")
    with transaction.atomic():
        match = match_create(version_x=x, version_y=y, boards=2, kind=Match.Kind.MATCHMAKING)
    with celery_worker(tmp_path, SANDBOX_MODE="plain"):
        wait_for(
            lambda: Match.objects.get(pk=match.pk).status == "done", 180, "the matchmaking match"
        )
    assert APIClient().get(f"/api/matches/{match.pk}/").json()["queue_position"] is None
