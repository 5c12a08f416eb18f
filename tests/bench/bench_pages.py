"""Server time of the web pages on the benchmark dataset.

    python tests/bench/bench_pages.py --generate [--bots 2000] [--games 100000]   # once
    python tests/bench/bench_pages.py [--requests 200] [--database arena_bench_pages]

``--generate`` fills a database of its own with generate_dataset.py's generator (players,
bots with one rated version each, matches of 10 boards with their games and replays), then
adds what only the pages show: rating histories, faults on a few games, and a league season
with two divisions and a played round.

Each page is requested in-process through Django's test client: middleware, view, selectors
and template, which is the server's time without the network. After a warm-up every page
family is asked ``--requests`` times over a spread of paths; the script prints p50, p95 and
p99, the CPU time of the web process (p50: the page's own work, whatever else the machine is
running), the queries one request makes and their time, and the ratio of the family's p95
to the p50 of the bare frame (the sign-in page, which reads nothing), measured in the same
run. Target: p95 at most 100 ms for every page.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from benchlib import percentile, setup_django

DATABASE = "arena_bench_pages"
TARGET_MS = 100.0


def generate(database: str, bots: int, games: int) -> None:
    import generate_dataset

    generate_dataset.DATABASE = database
    sys.argv = [sys.argv[0], "--bots", str(bots), "--games", str(games)]
    generate_dataset.main()
    add_page_data()


def add_page_data() -> None:
    """Rating histories, a few faults and a league season on top of the generated arena."""
    from django.db import connection

    from arena.models import Bot, Match, Player
    from leagues.models import Division, Entry, Fixture, League, Round, Season

    steps = [
        (
            "history",
            """
            INSERT INTO arena_ratingchange (rating_id, match_id, before, after, wins, draws,
                                            losses, score, expected, created)
            SELECT r.id, m.id, 1500 + m.id % 50, 1500 + (m.id * 7) % 50, 5, 0, 5, 0.5, 0.5,
                   now()
            FROM arena_rating r JOIN arena_match m
              ON m.version_x_id = r.version_id OR m.version_y_id = r.version_id""",
        ),
        (
            "faults",
            """
            UPDATE arena_game SET fault = jsonb_build_object(
                'seat', id % 4, 'kind', (ARRAY['timeout','crash','illegal'])[1 + id % 3],
                'reason', 'no answer in time')
            WHERE id % 97 = 0""",
        ),
    ]
    with connection.cursor() as cursor:
        for name, sql in steps:
            started = time.perf_counter()
            cursor.execute(sql)
            print(f"{name:9s} {cursor.rowcount:>10,} rows  {time.perf_counter() - started:6.1f} s")
    organiser = Player.objects.order_by("id").first()
    assert organiser is not None
    league = League.objects.create(
        name="Benchmark League", organiser=organiser, variant="auction4", format="round_robin"
    )
    season = Season.objects.create(league=league, number=1, status="running", round_count=19)
    round_ = Round.objects.create(season=season, number=1, seed=1)
    bots = list(Bot.objects.order_by("id").prefetch_related("versions")[:40])
    matches = iter(Match.objects.order_by("id")[:20])
    for level in (1, 2):
        division = Division.objects.create(
            season=season, name=f"Division {level}", level=level,
            promoted=2 if level == 2 else 0, relegated=2 if level == 1 else 0,
        )  # fmt: skip
        group = bots[(level - 1) * 20 : level * 20]
        entries = [
            Entry.objects.create(
                season=season, division=division, bot=bot, version=bot.versions.all()[0],
                number=number,
            )
            for number, bot in enumerate(group, start=1)
        ]  # fmt: skip
        for x, y in zip(entries[::2], entries[1::2], strict=True):
            Fixture.objects.create(
                round=round_, division=division, entry_x=x, entry_y=y,
                version_x=x.version, version_y=y.version, match=next(matches),
            )  # fmt: skip
    print(f"league    {league.pk} with 40 entries in 2 divisions and 20 fixtures")
    # A database in service is vacuumed by autovacuum; the figures should not depend on
    # whether it has run yet since the bulk load.
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"vacuum    {time.perf_counter() - started:6.1f} s")


def page_families() -> dict[str, tuple[list[str], Any]]:
    """Paths of each page family, and the user to sign in as (None: anonymous)."""
    from arena.models import Bot, Match, Player
    from leagues.models import League

    rng = random.Random(1)
    bot_ids = list(Bot.objects.values_list("id", flat=True))
    match_ids = list(Match.objects.values_list("id", flat=True))
    usernames = list(Player.objects.values_list("user__username", flat=True)[:200])
    league = League.objects.order_by("-id").first()
    assert bot_ids and match_ids and league is not None, "run with --generate first"
    owned = Bot.objects.select_related("owner__user").get(pk=bot_ids[0])
    pages = [1, 2, 5, 10]
    sorts = ["rating", "matches", "boards", "last_played"]
    return {
        "frame": (["/accounts/login/"], None),
        "home": (["/"], None),
        "leaderboard": (
            [f"/leaderboards/auction4/?sort={s}&page={p}" for s in sorts for p in pages],
            None,
        ),
        "bot": ([f"/bots/{rng.choice(bot_ids)}/" for _ in range(50)], None),
        "bot (owner)": ([f"/bots/{owned.pk}/"], owned.owner.user),
        "match": ([f"/matches/{rng.choice(match_ids)}/" for _ in range(50)], None),
        "matches": (
            ["/matches/", "/matches/?variant=auction4&status=done", "/matches/?page=20"]
            + [f"/matches/?bot={rng.choice(bot_ids)}" for _ in range(20)],
            None,
        ),
        "player": ([f"/players/{rng.choice(usernames)}/" for _ in range(50)], None),
        "leagues": (["/leagues/", f"/leagues/{league.pk}/"], None),
        "season": ([f"/leagues/{league.pk}/seasons/1/"], None),
        "protocol": (["/protocol/"], None),
    }


def measure(
    get: Callable[[str], Any], paths: list[str], requests: int
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each request (CPU: this process, the database aside)."""
    for path in paths:  # warm-up: connections, template and URL caches
        response = get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path}: HTTP {response.status_code}")
    wall, cpu = [], []
    for index in range(requests):
        path = paths[index % len(paths)]
        started, used = time.perf_counter(), time.process_time()
        get(path)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=DATABASE)
    parser.add_argument("--generate", action="store_true")
    parser.add_argument("--bots", type=int, default=2000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    # The test client speaks as "testserver"; nothing listens on the network.
    os.environ["ALLOWED_HOSTS"] = "testserver"
    if args.generate:
        generate(args.database, args.bots, args.games)
    else:
        setup_django(args.database)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from arena.models import Game, Match, Rating, RatingChange

    print(
        f"dataset: {Rating.objects.count():,} rated versions, {Match.objects.count():,} "
        f"matches, {Game.objects.count():,} games, {RatingChange.objects.count():,} "
        "rating changes"
    )
    results: dict[str, tuple[list[float], list[float], int, float]] = {}
    for name, (paths, user) in page_families().items():
        client = Client()
        if user is not None:
            client.force_login(user)
        wall, cpu = measure(client.get, paths, args.requests)
        with CaptureQueriesContext(connection) as queries:
            client.get(paths[0])
        database = sum(float(query["time"]) for query in queries.captured_queries)
        results[name] = (wall, cpu, len(queries), database)
    frame = percentile(results["frame"][0], 0.5)
    print(f"load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(
        f"{'page':12s} {'p50':>8s} {'p95':>8s} {'p99':>8s} {'cpu p50':>8s} "
        f"{'queries':>8s} {'db':>8s}  p95 / frame p50"
    )
    for name, (wall, cpu, queries, database) in results.items():
        p50, p95, p99 = (1000 * percentile(wall, q) for q in (0.5, 0.95, 0.99))
        flag = "" if p95 <= TARGET_MS else f"  over the {TARGET_MS:.0f} ms target"
        print(
            f"{name:12s} {p50:6.1f}ms {p95:6.1f}ms {p99:6.1f}ms "
            f"{1000 * percentile(cpu, 0.5):6.1f}ms {queries:8d} {1000 * database:6.1f}ms  "
            f"{p95 / (1000 * frame):6.1f}x{flag}"
        )


if __name__ == "__main__":
    main()
