"""What a person waits for while the background queue is full: one run, four figures.

    python tests/bench/bench_queues.py --config deploy   # PostgreSQL + Redis, deployed pools
    python tests/bench/bench_queues.py --config demo     # SQLite + filesystem broker, as make demo
        [--backlog 20] [--backlog-boards 50] [--uploads 3] [--challenges 2] [--acts 30]
        [--par-boards 8]

The background queue is first filled as the matchmaker fills it (``--backlog`` matchmaking
matches of ``--backlog-boards`` boards, each sent when its transaction commits), then the two
pools start as the configuration runs them: ``deploy`` starts ``celery -A
deploy.celery_worker worker`` twice with ``ARENA_WORKER_QUEUES=interactive`` and
``background`` (deploy/compose.yaml, deploy/systemd) on PostgreSQL (``arena_bench_queues``)
and Redis; ``demo`` starts the two solo workers of ``manage.py demo`` on a fresh SQLite file
and the filesystem broker. Once the background worker is busy with the first matchmaking
match, it measures, through the API (Django's test client, in this process):

- upload -> active: from the POST of a new version to its validation's end;
- challenge: from ``POST /api/matches/`` (4 boards) to the match being done;
- an arena bot's move at a human's table: from the human's POST to the bot's move stored,
  p50 and p95, and the same less the bot's own time (its process answering the position,
  measured here afterwards on the same positions);
- an event's par: from a robot event's close to every board's par stored.

Bots are sandboxed as the configuration's default says (deploy: bubblewrap; demo: auto), or
as ``SANDBOX_MODE`` says. Needs PostgreSQL and Redis on loopback for ``deploy``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchlib import PYTHON, ROOT, bench_environment, create_database, percentile

DATABASE = "arena_bench_queues"
TRIVIAL = "def act(observation, legal):\n    return legal[0]\n"
POLL_S = 0.02
GIVE_UP_S = 1800.0


def configure(config: str) -> Path | None:
    """Point this process (and the workers it starts) at the configuration; the demo's
    scratch folder, to remove at the end."""
    run = uuid.uuid4().hex[:8]
    # Quotas and queues of this run only: a run never counts a previous run's uploads, nor
    # finds its messages.
    common = {
        "ALLOWED_HOSTS": "testserver",
        "CACHE_KEY_PREFIX": f"bench-queues-{run}",
        "CELERY_QUEUE": f"bench-queues-{run}",
    }
    if config == "deploy":
        create_database(DATABASE)
        os.environ.update({**bench_environment(DATABASE), **common})
        os.environ.setdefault("SANDBOX_MODE", "bubblewrap")
        setup()
        return None
    scratch = Path(tempfile.mkdtemp(prefix="bench-queues-"))
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL"):
        os.environ.pop(name, None)
    os.environ.update(
        {
            **common,
            "DEBUG": "true",
            "SECRET_KEY": "bench-only",
            "ARENA_VAR_DIR": str(scratch),
            "CELERY_BROKER_URL": "filesystem://localhost/",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    os.environ.setdefault("SANDBOX_MODE", "auto")
    setup()
    return scratch


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def start_workers(config: str) -> list[subprocess.Popen[bytes]]:
    from arena.queues.routing import background_queue, interactive_queue

    processes = []
    for pool, queue in (("interactive", interactive_queue()), ("background", background_queue())):
        if config == "deploy":
            # As compose and systemd start them (deploy/README.md).
            argv = ["-A", "deploy.celery_worker", "worker", "-n", f"bench-{pool}@%h"]
            env = {**os.environ, "ARENA_WORKER_QUEUES": pool}
        else:
            # As manage.py demo starts them (arena/management/commands/demo.py).
            argv = [
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-Q",
                queue,
                "-n",
                f"bench-{pool}@%h",
            ]
            env = dict(os.environ)
        processes.append(
            subprocess.Popen(
                [
                    PYTHON,
                    "-m",
                    "celery",
                    *argv,
                    "--without-gossip",
                    "--without-mingle",
                    "-l",
                    "warning",
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    return processes


def wait(condition: Callable[[], bool], what: str) -> float:
    """Seconds until ``condition`` holds, polled every POLL_S."""
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > GIVE_UP_S:
            raise SystemExit(f"gave up after {GIVE_UP_S:.0f} s waiting for {what}")
        time.sleep(POLL_S)
    return time.perf_counter() - started


def figures(values: list[float]) -> str:
    return (
        f"n={len(values)} p50 {percentile(values, 0.5):7.2f} s  p95 {percentile(values, 0.95):7.2f}"
        f" s  max {max(values):7.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=("deploy", "demo"), required=True)
    parser.add_argument("--backlog", type=int, default=20)
    parser.add_argument("--backlog-boards", type=int, default=50)
    parser.add_argument("--uploads", type=int, default=3)
    parser.add_argument("--challenges", type=int, default=2)
    parser.add_argument("--acts", type=int, default=30)
    parser.add_argument("--par-boards", type=int, default=8)
    args = parser.parse_args()
    scratch = configure(args.config)
    try:
        run(args)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def run(args: argparse.Namespace) -> None:
    from django.conf import settings
    from django.db import transaction
    from rest_framework.test import APIClient

    from arena import services
    from arena.models import BotVersion, Match
    from arena.queues.routing import all_queues
    from arena.services.matches import match_create
    from robot_events.models import RobotBoard
    from robot_events.services import robot_event_close, robot_event_create
    from tables.arena_seat import arena_move
    from tables.models import PlayTable
    from tables.services import hand_of, seats_of

    run_id = settings.CELERY_TASK_DEFAULT_QUEUE.removeprefix("bench-queues-")
    player = services.player_register(
        username=f"bench-{run_id}", password="bench-password-123", display_name="Bench"
    )
    player.user.is_staff = True  # directs the robot event
    player.user.save(update_fields=["is_staff"])
    api = APIClient()
    api.force_authenticate(player.user)

    def trusted(name: str, variant: str) -> BotVersion:
        bot = services.bot_create(owner=player, name=name, variant=variant)
        with transaction.atomic():
            version = services.bot_version_submit(bot=bot, data=TRIVIAL.encode(), filename="b.py")
            BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
        version.refresh_from_db()
        return version

    def human_turn_or_over(table_id: int) -> bool:
        row = PlayTable.objects.get(pk=table_id)
        return row.is_over or hand_of(row).current == 0

    x, y = trusted("x", "auction4"), trusted("y", "auction4")
    rival = trusted("rival", "twohand")
    backlog = []
    for _ in range(args.backlog):
        with transaction.atomic():  # as the matchmaker: sent when the transaction commits
            backlog.append(
                match_create(
                    version_x=x, version_y=y, boards=args.backlog_boards, kind="matchmaking"
                ).pk
            )
    print(
        f"config {args.config}: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, "
        f"broker {settings.CELERY_BROKER_URL.split(':', 1)[0]}, sandbox "
        f"{os.environ['SANDBOX_MODE']}, queues {', '.join(all_queues())}; background backlog: "
        f"{args.backlog} matchmaking matches of {args.backlog_boards} boards"
    )
    workers = start_workers(args.config)
    try:
        wait(
            lambda: Match.objects.filter(pk__in=backlog, status="running").exists(),
            "the background worker to start a matchmaking match",
        )

        def upload() -> float:
            bot = api.post(
                "/api/bots/", {"name": f"up{uuid.uuid4().hex[:6]}", "variant": "auction4"}
            )
            started = time.perf_counter()
            sent = api.post(f"/api/bots/{bot.json()['id']}/versions/", {"source": TRIVIAL})
            assert sent.status_code == 201, sent.content
            version_id = sent.json()["id"]
            wait(lambda: BotVersion.objects.get(pk=version_id).status != "pending", "a validation")
            status = BotVersion.objects.get(pk=version_id).status
            assert status == "active", BotVersion.objects.get(pk=version_id).build_log
            return time.perf_counter() - started

        upload()  # the interactive worker's first task loads what it needs: not measured
        uploads = [upload() for _ in range(args.uploads)]
        print(f"upload -> active:             {figures(uploads)}")

        challenges = []
        for _ in range(args.challenges):
            started = time.perf_counter()
            sent = api.post(
                "/api/matches/", {"version": x.pk, "opponent": y.pk, "boards": 4, "rated": False}
            )
            assert sent.status_code == 201, sent.content
            match_id = sent.json()["id"]
            wait(
                lambda m=match_id: Match.objects.get(pk=m).status in ("done", "failed"),
                "a challenge",
            )
            assert Match.objects.get(pk=match_id).status == "done"
            challenges.append(time.perf_counter() - started)
        print(f"POST -> done, 4-board match:  {figures(challenges)}")

        moves: list[float] = []
        positions: list[tuple[int, int]] = []
        while len(moves) < args.acts:
            body = {
                "variant": "twohand",
                "human_seat": 0,
                "dealer": 1,
                "bots": [{"kind": "arena", "version": rival.pk}],
            }
            table = api.post("/api/play/tables/", body, format="json")
            assert table.status_code == 201, table.content
            table_id = table.json()["id"]
            url = f"/api/play/tables/{table_id}/"
            while len(moves) < args.acts:
                wait(
                    lambda t=table_id: human_turn_or_over(t),
                    "the human's turn",
                )
                state = api.get(url).json()
                if not state["your_turn"]:
                    break  # the hand is over
                started = time.perf_counter()
                acted = api.post(
                    f"{url}actions/",
                    {"action": state["controls"]["legal"][0], "ply": state["ply"]},
                    format="json",
                )
                assert acted.status_code == 200, acted.content
                after = state["ply"] + 1
                row = PlayTable.objects.get(pk=table_id)
                if row.is_over or hand_of(row).current == 0:
                    continue  # the human moves again: no bot move to wait for
                wait(
                    lambda t=table_id, a=after: PlayTable.objects.get(pk=t).ply > a,
                    "the arena bot's move",
                )
                moves.append(time.perf_counter() - started)
                positions.append((table_id, after))
        # The bot's own time on the same positions: its process started and answering, here.
        own = []
        for table_id, ply in positions:
            row = PlayTable.objects.get(pk=table_id)
            row.actions = row.actions[:ply]
            hand = hand_of(row)
            seat = hand.current
            assert seat is not None and seats_of(row)[seat].kind == "arena"
            started = time.perf_counter()
            arena_move(hand, seat, version=rival, variant="twohand")
            own.append(time.perf_counter() - started)
        print(f"human act -> bot move stored: {figures(moves)}")
        print(f"  the bot's own time:         {figures(own)}")
        net = [max(0.0, move - percentile(own, 0.5)) for move in moves]
        print(f"  less the bot's median time: {figures(net)}")

        event = robot_event_create(
            director=player,
            name=f"bench {run_id}",
            variant="single4",
            boards=args.par_boards,
            robots="greedy",
            kind="instant",
            scoring="mp",
        )
        started = time.perf_counter()
        robot_event_close(event=event, by=player)
        wait(
            lambda: not RobotBoard.objects.filter(event=event, par_result__isnull=True).exists(),
            "every board's par",
        )
        par = time.perf_counter() - started
        print(f"event close -> {args.par_boards} pars stored:  {par:7.2f} s")

        counts: dict[str, Any] = {
            status: Match.objects.filter(pk__in=backlog, status=status).count()
            for status in ("queued", "running", "done")
        }
        print(
            "background backlog at the end: "
            + ", ".join(f"{count} {status}" for status, count in counts.items())
        )
    finally:
        for process in workers:
            process.terminate()
        for process in workers:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        purge(all_queues())


def purge(queues: list[str]) -> None:
    from config.celery import app

    with app.connection_for_write() as connection:
        for queue in queues:
            try:
                connection.default_channel.queue_purge(queue)
            except connection.channel_errors:
                continue


if __name__ == "__main__":
    main()
