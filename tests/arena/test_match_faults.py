"""Outages with real processes: a worker killed mid-match, the broker's Redis gone at challenge
time.

Each runs real Celery workers and the beat scheduler on the real broker and PostgreSQL, and
checks that the match completes exactly once, is rated once, and is not duplicated by a
client that sends its POST again with the same Idempotency-Key. The lease and the re-queue
job run on short periods (QUICK_RECOVERY) so that the take-over comes soon. The recovery
times are printed (run with -s to see them), never asserted: they depend on the machine.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from django.conf import settings
from rest_framework.test import APIClient

from arena import services
from arena.models import BotVersion, Game, Match, Rating, RatingChange
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version
from tests.arena.live_server import closed_port, live_server
from tests.arena.own_redis import match_messages, queued_tasks
from tests.arena.workers import (
    QUICK_RECOVERY,
    Worker,
    celery_beat,
    celery_worker,
    require_sandbox,
    require_worker_services,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SLOWISH_BOT = (
    b"import time\n\ndef act(observation, legal):\n    time.sleep(0.004)\n    return legal[-1]\n"
)


def _register(username: str) -> tuple[APIClient, str]:
    registered = APIClient().post(
        "/api/players/", {"username": username, "password": f"{username}-long-password-7"}
    )
    assert registered.status_code == 201, registered.content
    token = registered.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client, token


def _upload(client: APIClient, name: str, source: bytes) -> int:
    bot = client.post("/api/bots/", {"name": name, "variant": "auction4"}).json()
    uploaded = client.post(f"/api/bots/{bot['id']}/versions/", {"source": source.decode()})
    assert uploaded.status_code == 201, uploaded.content
    return int(bot["id"])


def _validated(*bot_ids: int) -> bool:
    """Every version of these bots is past validation; a refused one fails the test at once,
    with its build log, rather than at the end of the wait."""
    versions = BotVersion.objects.filter(bot_id__in=bot_ids)
    if versions.filter(status=BotVersion.Status.PENDING).exists():
        return False
    for version in versions:
        assert version.status == BotVersion.Status.ACTIVE, version.build_log
    return True


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _bot_processes(worker: Worker) -> set[int]:
    """The sandboxed bots this worker started (others' runs may have bots of their own)."""
    listing = subprocess.run(
        ["pgrep", "-u", "pinochle-bot"], capture_output=True, text=True, check=False
    )
    return {pid for pid in map(int, listing.stdout.split()) if _descends(pid, worker.process.pid)}


def _descends(pid: int, root: int) -> bool:
    current: int | None = pid
    while current is not None and current > 1:
        if current == root:
            return True
        current = _parent(current)
    return False


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def _rated_once(match: Match) -> None:
    assert match.status == Match.Status.DONE and match.completion_seq is not None
    assert RatingChange.objects.filter(match=match).count() == 2
    for version in (match.version_x_id, match.version_y_id):
        assert Rating.objects.get(version_id=version).matches == 1


def test_a_killed_workers_match_is_taken_over_when_its_lease_lapses_and_completes_once(
    tmp_path: Path,
) -> None:
    require_worker_services()
    require_sandbox()
    carol, _ = _register("carol")
    dave, _ = _register("dave")
    # The worker is killed as soon as the bots of the match's first table run, with seven
    # tables still to play: four boards keep it mid-match, and the take-over replays them all.
    challenge = {"bot": 0, "opponent_bot": 0, "boards": 4}
    with celery_worker(tmp_path, "w1", **QUICK_RECOVERY) as first_worker:
        x, y = _upload(carol, "slowish", SLOWISH_BOT), _upload(dave, "rnd", RANDOM_BOT)
        wait_for(lambda: _validated(x, y), 120, "validation")
        challenge.update(bot=x, opponent_bot=y)
        created = carol.post("/api/matches/", challenge, HTTP_IDEMPOTENCY_KEY="carol-4-boards")
        assert created.status_code == 201, created.content
        match_id = created.json()["id"]
        wait_for(lambda: Match.objects.get(pk=match_id).status == "running", 60, "the start")
        wait_for(lambda: bool(_bot_processes(first_worker)), 30, "the bots to start")
        bots = _bot_processes(first_worker)
        first_worker.kill()
    killed_at = time.monotonic()
    killed = Match.objects.get(pk=match_id)
    assert (killed.status, killed.attempts) == ("running", 1)
    assert not Game.objects.filter(match=killed).exists()
    # The killed worker's sandboxed bots die with it (bubblewrap's --die-with-parent).
    wait_for(lambda: not _alive(bots), 15, "the killed worker's bots to die")

    # The client never saw an answer it trusted and sends the challenge again.
    again = carol.post("/api/matches/", challenge, HTTP_IDEMPOTENCY_KEY="carol-4-boards")
    assert (again.status_code, again.json()["id"]) == (201, match_id)
    assert again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1

    with celery_worker(tmp_path, "w2", **QUICK_RECOVERY), celery_beat(tmp_path, **QUICK_RECOVERY):
        wait_for(lambda: Match.objects.get(pk=match_id).attempts == 2, 300, "the take-over")
        taken_over = time.monotonic() - killed_at
        wait_for(lambda: Match.objects.get(pk=match_id).status == "done", 300, "completion")
        completed = time.monotonic() - killed_at
    print(
        f"\nworker killed: the match was taken over after {taken_over:.1f} s and completed "
        f"after {completed:.1f} s"
    )
    done = Match.objects.get(pk=match_id)
    assert done.attempts == 2
    assert Game.objects.filter(match=done).count() == 8
    _rated_once(done)
    assert Match.objects.count() == 1


def test_a_challenge_and_an_upload_while_redis_is_down_are_accepted_and_run_once_it_is_back(
    tmp_path: Path,
) -> None:
    require_worker_services()
    require_sandbox()
    erin, token = _register("erin")
    frank, _ = _register("frank")
    with celery_worker(tmp_path, "w1", **QUICK_RECOVERY):
        x, y = _upload(erin, "rnd-e", RANDOM_BOT), _upload(frank, "rnd-f", RANDOM_BOT)
        wait_for(lambda: _validated(x, y), 120, "validation")

    challenge = {"bot": x, "opponent_bot": y, "boards": 2}
    auth = {"Authorization": f"Token {token}", "Idempotency-Key": "erin-first-challenge"}
    # The broker's Redis, which is also the cache's: the quotas must not need it.
    down = f"redis://127.0.0.1:{closed_port()}/2"
    unreachable = {"CELERY_BROKER_URL": down, "REDIS_URL": down}
    with live_server(tmp_path, **unreachable) as server:
        first = server.request("POST", "/api/matches/", challenge, auth)
        assert first.status == 202, first.body
        assert (first.body["status"], first.body["publish_pending"]) == ("queued", True)
        assert "unreachable" in first.body["detail"]
        retried = server.request("POST", "/api/matches/", challenge, auth)
        assert (retried.status, retried.body) == (202, first.body)
        assert retried.headers["Idempotent-Replayed"] == "true"
        other = server.request("POST", "/api/matches/", {**challenge, "boards": 3}, auth)
        assert other.status == 422, other.body
        assert "already used for a different request" in other.body["detail"]
        # An upload too is stored and answered 202, and a retry does not store it twice.
        upload = {"source": RANDOM_BOT.decode()}
        upload_auth = {**auth, "Idempotency-Key": "erin-second-version"}
        uploaded = server.request("POST", f"/api/bots/{x}/versions/", upload, upload_auth)
        assert uploaded.status == 202, uploaded.body
        assert (uploaded.body["status"], uploaded.body["publish_pending"]) == ("pending", True)
        assert "unreachable" in uploaded.body["detail"]
        again = server.request("POST", f"/api/bots/{x}/versions/", upload, upload_auth)
        assert (again.status, again.body) == (202, uploaded.body)
    assert Match.objects.count() == 1
    assert BotVersion.objects.filter(bot_id=x).count() == 2
    match_id = first.body["id"]

    broker_back = time.monotonic()
    with celery_worker(tmp_path, "w2", **QUICK_RECOVERY), celery_beat(tmp_path, **QUICK_RECOVERY):
        wait_for(lambda: Match.objects.get(pk=match_id).status == "done", 300, "the match")
        version_id = uploaded.body["id"]
        wait_for(
            lambda: BotVersion.objects.get(pk=version_id).status == "active", 300, "the validation"
        )
    assert not BotVersion.objects.get(pk=version_id).publish_pending
    print(
        f"\nbroker back: the waiting match completed after {time.monotonic() - broker_back:.1f} s"
    )
    done = Match.objects.get(pk=match_id)
    assert (done.attempts, done.publish_pending) == (1, False)
    _rated_once(done)
    assert Match.objects.count() == 1


DAWDLING_BOT = (
    b"import time\n\ndef act(observation, legal):\n    time.sleep(0.05)\n    return legal[-1]\n"
)


def test_a_killed_workers_match_behind_twenty_background_matches_is_sent_again_once(
    tmp_path: Path,
) -> None:
    require_worker_services()
    carol = services.player_register(username="carol", password="carol-long-password-7")
    dave = services.player_register(username="dave", password="dave-long-password-7")
    x, y = trusted_version(carol, "dawdler", DAWDLING_BOT), trusted_version(dave, "rnd", RANDOM_BOT)
    a, b = trusted_version(carol, "a", FIRST_LEGAL_BOT), trusted_version(dave, "b", FIRST_LEGAL_BOT)
    # Trusted bots as plain processes: what is checked is the queue, not the sandbox.
    env = {**QUICK_RECOVERY, "MATCH_RESEND_AFTER_S": "1", "SANDBOX_MODE": "plain"}
    with celery_worker(tmp_path, "w1", **env) as first_worker:
        match_id = services.match_create(version_x=x, version_y=y, boards=2).pk
        wait_for(lambda: Match.objects.get(pk=match_id).status == "running", 60, "the start")
        background = [
            services.match_create(
                version_x=a, version_y=b, boards=1, kind=Match.Kind.MATCHMAKING, rated=False
            ).pk
            for _ in range(20)
        ]
        first_worker.kill()
    killed_at = time.monotonic()
    killed = Match.objects.get(pk=match_id)
    assert (killed.status, killed.attempts) == ("running", 1)

    # The lease lapses at once, but the re-queue job's runs wait behind the twenty matches
    # and then run one after another: each would find the lease lapsed.
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5)
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    most = 0

    def watched(condition: Callable[[], bool]) -> Callable[[], bool]:
        def check() -> bool:
            nonlocal most
            most = max(most, match_messages(queued_tasks(broker, queue), match_id))
            return condition()

        return check

    with celery_worker(tmp_path, "w2", **env), celery_beat(tmp_path, **env):
        again = watched(lambda: Match.objects.get(pk=match_id).attempts == 2)
        wait_for(again, 600, "the take-over")
        taken_over = time.monotonic() - killed_at
        done = watched(lambda: Match.objects.get(pk=match_id).status == "done")
        wait_for(done, 300, "completion")
        wait_for(
            lambda: Match.objects.filter(pk__in=background, status="done").count() == 20,
            300,
            "the background matches",
        )
    print(
        f"\nworker killed with 20 matches queued: the match was claimed again after "
        f"{taken_over:.1f} s; at most {most} message(s) for it waited in the queue"
    )
    assert most <= 2
    finished = Match.objects.get(pk=match_id)
    assert finished.attempts == 2
    assert Game.objects.filter(match=finished).count() == 4
    _rated_once(finished)
