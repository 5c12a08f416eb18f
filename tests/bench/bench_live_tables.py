"""Live lobby tables over real WebSockets: how long a move takes to reach every seat.

    python tests/bench/bench_live_tables.py [--tables 50,100,200] [--seconds 15]
        [--think-ms 1000] [--workers 1] [--layer pubsub|redis] [--database arena_bench_live]

The production configuration: the sockets process as deployed (gunicorn with uvicorn
workers, deploy/gunicorn_sockets.conf.py, ``config.asgi``) on PostgreSQL, with the Redis
channel layer. For each N of ``--tables``, N four-hand tables of four people each are opened
(lobby services), and four WebSocket clients per table, signed in by their session cookie
as a browser is, play them: the seat to act sends a legal move ``--think-ms`` after its
frame arrived (0: at once), every client at once. A sample is the time from a move's send
to the arrival, at each of the four seats, of the first frame that shows it.

The baseline, in the same run: the same number of messages, at the same rate, to the same
number of groups of four channels, through the bare channel layer (no Django, no database,
no frame): what the transport alone costs. Printed: moves/s, p50/p95 of both, and the
machine's load average. Target: p95 at most 100 ms at 100 tables on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchlib import ROOT, bench_environment, percentile, setup_django

DATABASE = "arena_bench_live"
TARGET_P95_MS = 100.0
SEATS = 4


@dataclass
class Table:
    """One table's four clients and the moves still on their way to some seat."""

    table_id: int
    cookies: list[str]
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    last_acted: dict[int, int] = field(default_factory=dict)
    finished: bool = False


@dataclass
class Run:
    samples: list[float] = field(default_factory=list)
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    measuring: bool = False
    connect_s: float = 0.0
    settled: set[tuple[int, int]] = field(default_factory=set)
    """(table, seat) of the clients whose frame shows all four seats connected."""


def open_tables(count: int) -> list[Table]:
    """``count`` auction4 tables, each with four people seated (the game starts at once)."""
    from django.contrib.auth.models import User
    from django.test import Client

    from lobby.services import table_open, table_sit

    people: list[User] = []
    cookies: list[str] = []
    for index in range(SEATS * count):
        user, _ = User.objects.get_or_create(username=f"bench-live-{index}")
        client = Client()
        client.force_login(user)
        people.append(user)
        cookies.append(client.cookies["sessionid"].value)
    tables = []
    for number in range(count):
        seated = people[SEATS * number : SEATS * (number + 1)]
        table = table_open(
            host=seated[0],
            variant="auction4",
            seats=[{"kind": "host"}] + [{"kind": "open"}] * (SEATS - 1),
        )
        for seat in range(1, SEATS):
            table_sit(table_id=table.pk, user=seated[seat], seat=seat)
        tables.append(Table(table.pk, cookies[SEATS * number : SEATS * (number + 1)]))
    return tables


def legal_picks(table_id: int) -> list[str]:
    """The legal sets of cards to pass or bury (a frame offers the cards, not the sets)."""
    from lobby.models import GameTable
    from lobby.services import replay_of

    replay = replay_of(GameTable.objects.get(pk=table_id))
    return [str(action) for action in replay.state.legal_actions]


async def choose(frame: dict[str, Any], rng: random.Random) -> str:
    """A legal move, chosen at random."""
    if frame["pick"] is not None:
        from asgiref.sync import sync_to_async

        return rng.choice(await sync_to_async(legal_picks)(frame["table"]))
    return str(rng.choice(frame["legal"])["action"])


async def seat_client(
    url: str,
    table: Table,
    seat: int,
    run: Run,
    think_s: float,
    go: asyncio.Event,
    stop: asyncio.Event,
) -> None:
    import websockets

    headers = {"Cookie": f"sessionid={table.cookies[seat]}", "Origin": url.replace("ws", "http")}
    rng = random.Random(table.table_id * SEATS + seat)
    moves: set[asyncio.Task[None]] = set()
    async with websockets.connect(
        f"{url}/ws/tables/{table.table_id}/", additional_headers=headers, max_size=None
    ) as socket:

        async def act(action: str, ply: int) -> None:
            await go.wait()
            if think_s:
                await asyncio.sleep(think_s)
            if stop.is_set():
                return
            table.pending[ply + 1] = (time.perf_counter(), set())
            if run.measuring:
                run.moves += 1
            await socket.send(json.dumps({"type": "act", "action": action, "ply": ply}))

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            if message["type"] == "error":
                run.errors.append(f"table {table.table_id} seat {seat}: {message['message']}")
                continue
            if message["type"] != "frame":
                continue
            frame = message["frame"]
            ply = frame["ply"]
            if all(entry["connected"] for entry in frame["seats"]):
                run.settled.add((table.table_id, seat))
            for target in [t for t in table.pending if t <= ply]:
                sent, seen = table.pending[target]
                if seat not in seen:
                    seen.add(seat)
                    if run.measuring:
                        run.samples.append(now - sent)
                if len(seen) == SEATS:
                    del table.pending[target]
            if frame["status"] != "playing":
                table.finished = True
                continue
            if (frame["legal"] or frame["pick"]) and table.last_acted.get(seat, -1) < ply:
                table.last_acted[seat] = ply
                choice = await choose(frame, rng)
                move = asyncio.create_task(act(choice, ply))
                moves.add(move)
                move.add_done_callback(moves.discard)


async def play(url: str, tables: Sequence[Table], seconds: float, think_s: float) -> Run:
    run = Run()
    stop, go = asyncio.Event(), asyncio.Event()
    clients = [
        asyncio.create_task(seat_client(url, table, seat, run, think_s, go, stop))
        for table in tables
        for seat in range(SEATS)
    ]
    # Every socket connected and told of the others (a storm of presence changes) before
    # the measured window: how long that took is printed apart.
    started = time.perf_counter()
    while len(run.settled) < SEATS * len(tables) and time.perf_counter() - started < 120:
        await asyncio.sleep(0.1)
    run.connect_s = time.perf_counter() - started
    run.measuring = True
    go.set()
    await asyncio.sleep(seconds)
    run.measuring = False
    stop.set()
    results = await asyncio.gather(*clients, return_exceptions=True)
    run.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return run


async def bare_layer(groups: int, messages: int, rate: float) -> list[float]:
    """The same messages through the channel layer alone: ``messages`` group sends at
    ``rate`` per second, spread over ``groups`` groups of four receiving channels."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    assert layer is not None
    prefix = f"bench-{os.getpid()}"
    channels = {}
    for group in range(groups):
        channels[group] = [await layer.new_channel() for _ in range(SEATS)]
        for channel in channels[group]:
            await layer.group_add(f"{prefix}-{group}", channel)
    samples: list[float] = []
    expected = messages * SEATS

    async def receive(channel: str) -> None:
        while True:
            message = await layer.receive(channel)
            samples.append(time.perf_counter() - message["sent"])

    receivers = [asyncio.create_task(receive(c)) for cs in channels.values() for c in cs]
    await asyncio.sleep(0.5)  # subscriptions settle
    started = time.perf_counter()
    for number in range(messages):
        due = started + number / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        message = {"type": "table.changed", "ply": number, "sent": time.perf_counter()}
        await layer.group_send(f"{prefix}-{number % groups}", message)
    deadline = time.perf_counter() + 10
    while len(samples) < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    for task in receivers:
        task.cancel()
    for group, names in channels.items():
        for channel in names:
            await layer.group_discard(f"{prefix}-{group}", channel)
    return samples


def start_server(port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    environment = {
        **os.environ,
        "SOCKETS_BIND": f"127.0.0.1:{port}",
        "SOCKETS_WORKERS": str(workers),
    }
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "-c",
        "deploy/gunicorn_sockets.conf.py",
        "config.asgi:application",
    ]
    with log.open("w") as sink:
        return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=sink, stderr=sink)


def wait_for_server(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until a worker answers (gunicorn's master listens before its workers are up)."""
    import http.client

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited:\n{log.read_text()[-3000:]}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the server did not answer within 120 s")


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ms(values: list[float], fraction: float) -> str:
    return f"{percentile(values, fraction) * 1000:8.1f}" if values else "       -"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", default="50,100,200")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--think-ms", type=float, default=1000.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--layer", choices=("pubsub", "redis"), default="pubsub")
    parser.add_argument("--database", default=DATABASE)
    args = parser.parse_args()
    os.environ["CHANNEL_LAYER"] = args.layer
    # Each run opens new tables for the same bench people: no host limit on open tables.
    os.environ["LOBBY_OPEN_TABLES_MAX"] = "1000000"
    setup_django(args.database)
    log = Path(os.environ.get("BENCH_LOG_DIR") or tempfile.gettempdir()) / "bench-live-server.log"
    port = free_port()
    os.environ.update(bench_environment(args.database))
    server = start_server(port, args.workers, log)
    try:
        wait_for_server(port, server, log)
        print(
            f"layer {args.layer}, {args.workers} server process(es), think {args.think_ms:g} ms, "
            f"{args.seconds:g} s a run; load average before: {os.getloadavg()[0]:.2f}"
        )
        print(
            f"{'tables':>6} {'moves':>6} {'moves/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
            f"{'max ms':>8} {'layer p50':>9} {'layer p95':>9} {'load':>5} {'errors':>6} "
            f"{'connect s':>9}"
        )
        for count in [int(n) for n in args.tables.split(",")]:
            tables = open_tables(count)
            run = asyncio.run(
                play(f"ws://127.0.0.1:{port}", tables, args.seconds, args.think_ms / 1000)
            )
            rate = run.moves / args.seconds
            baseline = asyncio.run(bare_layer(count, max(run.moves, 1), max(rate, 1.0)))
            worst = f"{max(run.samples) * 1000:8.1f}" if run.samples else "       -"
            print(
                f"{count:>6} {run.moves:>6} {rate:>8.1f} {ms(run.samples, 0.5)} "
                f"{ms(run.samples, 0.95)} {worst} {ms(baseline, 0.5):>9} "
                f"{ms(baseline, 0.95):>9} {os.getloadavg()[0]:>5.2f} {len(run.errors):>6} "
                f"{run.connect_s:>9.1f}",
                flush=True,
            )
            for error in run.errors[:3]:
                print(f"    {error}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"target: p95 at most {TARGET_P95_MS:g} ms at 100 tables; server log: {log}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
