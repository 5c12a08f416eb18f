"""Match throughput with one and with two Celery worker processes.

    python tests/bench/bench_workers.py [--matches 12] [--boards 10]

Queues the same batch of duplicate matches (trivial bots, sandboxed) twice on the real
broker, plays it once with one worker and once with two, and prints matches per minute
and the ratio (target: at least 1.8x on this 2-core machine). Needs PostgreSQL and Redis
on loopback and root for the sandbox; uses the database ``arena_bench_workers``.
"""

from __future__ import annotations

import argparse
import subprocess
import time

from benchlib import PYTHON, ROOT, bench_environment, setup_django

DATABASE = "arena_bench_workers"
TRIVIAL = b"def act(observation, legal):\n    return legal[0]\n"


def start_workers(count: int) -> list[subprocess.Popen[bytes]]:
    env = bench_environment(DATABASE)
    return [
        subprocess.Popen(
            [
                PYTHON,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-n",
                f"bench{index}@%h",
                "-Q",
                env["CELERY_QUEUE"],
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
        for index in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--boards", type=int, default=10)
    args = parser.parse_args()
    setup_django(DATABASE)

    from arena import services
    from arena.models import BotVersion, Match, Player
    from arena.services.matches import match_create

    def version(name: str) -> BotVersion:
        player = Player.objects.filter(user__username=name).first() or services.player_register(
            username=name, password="bench-password-123"
        )
        bot = player.bots.filter(name="trivial").first() or services.bot_create(
            owner=player, name="trivial", variant="single4"
        )
        found = bot.versions.first()
        if found is None:
            found = services.bot_version_submit(bot=bot, data=TRIVIAL, filename="bot.py")
        BotVersion.objects.filter(pk=found.pk).update(status=BotVersion.Status.ACTIVE)
        found.refresh_from_db()
        return found

    x, y = version("bench-x"), version("bench-y")
    rates = {}
    for workers in (1, 2):
        Match.objects.filter(status=Match.Status.QUEUED).delete()
        processes = start_workers(workers)
        try:
            time.sleep(3)  # let the workers connect before the clock starts
            started = time.perf_counter()
            ids = [
                match_create(
                    version_x=x, version_y=y, boards=args.boards, seed=seed, rated=False
                ).pk
                for seed in range(args.matches)
            ]
            while Match.objects.filter(pk__in=ids, status=Match.Status.DONE).count() < len(ids):
                time.sleep(0.2)
            elapsed = time.perf_counter() - started
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait()
        rates[workers] = len(ids) / elapsed * 60
        print(
            f"{workers} worker(s): {len(ids)} matches of {args.boards} boards in "
            f"{elapsed:.1f} s = {rates[workers]:.1f} matches/min"
        )
    print(f"ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f}x (target >= 1.8x)")


if __name__ == "__main__":
    main()
