"""What one move at a live lobby table costs the server: queries and CPU, by part.

    python tests/bench/bench_live_move_cost.py [--tables 4] [--moves 200] [--profile 25]
        [--database arena_bench_live]

In one process, on PostgreSQL and the Redis channel layer (no socket listens): four-hand
tables of four people are played move by move as the sockets process plays them, each move
being the move as a socket plays it (``act_shared``: ``table_act``, the table as the move
left it kept for the process's sockets) and then the frame of each of the four seats: as a
page or the API reads it (``frame_for``, each from the database), and as four sockets are
sent it after ``table.changed`` (``shared_frame``) in the process that played the move (no
read) and in another (one read of the revision for all four).
Printed: queries and CPU milliseconds per move of each part, and (``--profile N``) the N
functions that took the most time (``--sort``) in the sockets' part: the move and the
shared frames.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from typing import Any

from benchlib import setup_django

SEATS = 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--sort", default="cumulative", help="the profile's order (pstats)")
    parser.add_argument("--database", default="arena_bench_live")
    args = parser.parse_args()
    import os

    os.environ["LOBBY_OPEN_TABLES_MAX"] = "1000000"
    setup_django(args.database)
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from lobby import game_state
    from lobby.models import GameTable
    from lobby.selectors import act_shared, forget_shared, frame_for, shared_frame
    from lobby.services import replay_of, table_open, table_sit

    rng = random.Random(7)
    tables: list[tuple[int, list[User]]] = []
    for number in range(args.tables):
        people = [
            User.objects.get_or_create(username=f"bench-cost-{number}-{seat}")[0]
            for seat in range(SEATS)
        ]
        table = table_open(
            host=people[0],
            variant="auction4",
            target={"kind": "hands", "value": 50},
            seats=[{"kind": "host"}] + [{"kind": "open"}] * (SEATS - 1),
        )
        for seat in range(1, SEATS):
            table_sit(table_id=table.pk, user=people[seat], seat=seat)
        tables.append((table.pk, people))
    frames: dict[tuple[int, int], dict[str, Any]] = {
        (table_id, seat): frame_for(table_id=table_id, viewer=people[seat])
        for table_id, people in tables
        for seat in range(SEATS)
    }

    def choose(table_id: int, frame: dict[str, Any]) -> str:
        if frame["pick"] is not None:
            replay = replay_of(GameTable.objects.get(pk=table_id))
            return str(rng.choice([str(a) for a in replay.state.legal_actions]))
        return str(rng.choice(frame["legal"])["action"])

    act_s = frame_s = 0.0
    act_queries = frame_queries = moves = 0
    shared_s = {"here": 0.0, "other": 0.0}
    shared_queries = {"here": 0, "other": 0}
    # CPU time, not wall time: the database and Redis wait in other processes.
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    while moves < args.moves:
        for table_id, people in tables:
            seat = frames[(table_id, 0)]["to_act"]
            if seat is None:
                continue
            frame = frames[(table_id, seat)]
            action = choose(table_id, frame)
            with CaptureQueriesContext(connection) as queries:
                if profiler:
                    profiler.enable()
                started = time.process_time()
                act_shared(table_id=table_id, user=people[seat], action=action, ply=frame["ply"])
                act_s += time.process_time() - started
                if profiler:
                    profiler.disable()
            act_queries += len(queries)
            with CaptureQueriesContext(connection) as queries:
                started = time.process_time()
                for viewer in range(SEATS):
                    frames[(table_id, viewer)] = frame_for(table_id=table_id, viewer=people[viewer])
                frame_s += time.process_time() - started
            frame_queries += len(queries)
            revision = GameTable.objects.values_list("revision", flat=True).get(pk=table_id)
            for where in ("here", "other"):
                if where == "other":
                    forget_shared()
                with CaptureQueriesContext(connection) as queries:
                    if profiler:
                        profiler.enable()
                    started = time.process_time()
                    for viewer in range(SEATS):
                        shared_frame(table_id=table_id, viewer=people[viewer], revision=revision)
                    shared_s[where] += time.process_time() - started
                    if profiler:
                        profiler.disable()
                shared_queries[where] += len(queries)
            moves += 1
    game_state.forget()
    print(f"{moves} moves at {args.tables} tables (auction4), per move:")
    print(f"  act_shared     {act_queries / moves:5.1f} queries {act_s / moves * 1000:7.2f} ms CPU")
    print(
        f"  4 x frame_for  {frame_queries / moves:5.1f} queries "
        f"{frame_s / moves * 1000:7.2f} ms CPU"
    )
    for where, words in (("here", "the move's process"), ("other", "another process")):
        print(
            f"  4 x shared     {shared_queries[where] / moves:5.1f} queries "
            f"{shared_s[where] / moves * 1000:7.2f} ms CPU  ({words})"
        )
    print(f"  act + 4 x frame_for            {(act_s + frame_s) / moves * 1000:7.2f} ms CPU")
    both = act_s + shared_s["here"] + shared_s["other"]
    print(f"  act + 4 x shared in each of two processes {both / moves * 1000:7.2f} ms CPU")
    if profiler:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats(args.sort).print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
