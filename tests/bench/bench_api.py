"""Latency under load of the API and the public pages, at 32 concurrent clients.

    python tests/bench/generate_dataset.py        # once: 10,000 bots, 1,000,000 games
    python tests/bench/bench_api.py [--clients 32] [--seconds 20] [--config FILE]
                                    [--baseline DIR]

Endpoints: the API leaderboard and replays, and the pages anonymous readers load most (the
leaderboard page, the page of the dataset's 50-board match, the match list).

Serves the API with gunicorn on the generated database, started with the deployment's own
settings (deploy/gunicorn.conf.py, or ``--config``: worker recycling, timeouts; only the
address, worker and thread counts are set here), and drives it over keep-alive connections
on loopback, with wrk when it is installed (Debian's wrk: a C
load generator that leaves the CPU to the server) or else from Python client processes.
For each endpoint it prints p50/p95/p99 latency at one client (the baseline, same run)
and at N clients, with the ratio of the loaded p95 to the unloaded p50 (target: p95 at
most 50 ms at 32 clients for the API, 200 ms for the pages).

``--baseline DIR`` first serves the code of another checkout (``git archive REV | tar -x -C
DIR``: the release before a change) on the same database and the same settings, measures it
the same way, and ends with a table of both p95s. The machine's load average is printed
before each server is measured: figures from a busy machine say so.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from benchlib import PYTHON, ROOT, bench_environment, percentile, setup_django

DATABASE = "arena_bench_api"


def _free_port() -> int:
    """A port nothing listens on now: other benchmarks may run on this machine at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


PORT = _free_port()
GUNICORN_CONFIG = ROOT / "deploy" / "gunicorn.conf.py"


def client_loop(paths: list[str], seconds: float, seed: int, results: list[float]) -> None:
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        path = rng.choice(paths)
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: HTTP {response.status}")
        results.append(time.perf_counter() - started)


def run_clients(paths: list[str], clients: int, seconds: float) -> list[float]:
    """Threads inside a few processes, so the clients are not serialised by one GIL."""
    processes = min(clients, max(1, multiprocessing.cpu_count()))
    per_process = [clients // processes + (i < clients % processes) for i in range(processes)]
    with multiprocessing.Pool(processes) as pool:
        chunks = pool.starmap(_process, [(paths, n, seconds, i) for i, n in enumerate(per_process)])
    return [value for chunk in chunks for value in chunk]


def _process(paths: list[str], threads: int, seconds: float, index: int) -> list[float]:
    import threading

    results: list[float] = []
    workers = [
        threading.Thread(target=client_loop, args=(paths, seconds, index * 1000 + t, results))
        for t in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


_WRK_SCRIPT = """
paths = {%s}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter %% #paths) + 1])
end
done = function(summary, latency, requests)
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %%f %%f %%f %%d %%d\\n", latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, summary.requests, failed))
end
"""


def run_wrk(paths: list[str], clients: int, seconds: float) -> tuple[float, float, float, int, int]:
    """p50, p95, p99 in ms, the request count and the failures, measured by wrk."""
    quoted = ", ".join(f'"{path}"' for path in paths)
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "paths.lua"
        script.write_text(_WRK_SCRIPT % quoted)
        output = subprocess.run(
            [
                "wrk",
                "-t",
                str(min(clients, 2)),
                "-c",
                str(clients),
                "-d",
                f"{max(1, round(seconds))}s",
                "-s",
                str(script),
                f"http://127.0.0.1:{PORT}",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    line = next(line for line in output.splitlines() if line.startswith("RESULT"))
    p50, p95, p99, count, failed = line.split()[1:]
    return float(p50), float(p95), float(p99), int(count), int(failed)


def first_requests(paths: list[str]) -> list[float]:
    """Each path once, in turn: what a request costs before anything is cached."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    timings = []
    for path in dict.fromkeys(paths):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"{path}: HTTP {response.status}")
        timings.append(time.perf_counter() - started)
    return timings


def report_wrk(name: str, paths: list[str], clients: int, seconds: float) -> float:
    # Every worker process keeps its own copy in front of Redis: a few passes warm them all.
    cold = first_requests(paths)
    print(
        f"{name:12s} first request of each of {len(cold)} paths: "
        f"p50 {1000 * percentile(cold, 0.5):.1f} ms, p95 {1000 * percentile(cold, 0.95):.1f} ms"
    )
    run_wrk(paths, clients, 3)
    alone = run_wrk(paths, 1, seconds / 2)
    loaded = run_wrk(paths, clients, seconds)
    print(
        f"{name:12s} 1 client p50 {alone[0]:6.1f} ms | {clients} clients p50 {loaded[0]:6.1f} "
        f"p95 {loaded[1]:6.1f} p99 {loaded[2]:6.1f} ms, {loaded[3] / seconds:7.1f} req/s | "
        f"p95 / unloaded p50 = {loaded[1] / alone[0]:.1f}x"
    )
    if alone[4] or loaded[4]:
        # Socket errors and non-2xx answers (a worker restarting under load) are failures the
        # latency figures above do not show.
        print(f"{name:12s} FAILED requests: {alone[4]} at 1 client, {loaded[4]} at {clients}")
    return loaded[1]


def report(name: str, alone: list[float], loaded: list[float], seconds: float) -> None:
    def ms(values: list[float], fraction: float) -> float:
        return 1000 * percentile(values, fraction)

    print(
        f"{name:12s} 1 client p50 {ms(alone, 0.5):6.1f} ms | loaded p50 {ms(loaded, 0.5):6.1f} "
        f"p95 {ms(loaded, 0.95):6.1f} p99 {ms(loaded, 0.99):6.1f} ms, "
        f"{len(loaded) / seconds:7.1f} req/s | p95 / unloaded p50 = "
        f"{percentile(loaded, 0.95) / percentile(alone, 0.5):.1f}x"
    )


def wait_until_serving(server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
            connection.request("GET", "/api/")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("gunicorn did not answer within 120 s")


def recycling(config: Path) -> str:
    """The worker recycling the configuration asks for, as gunicorn reads it."""
    from gunicorn.config import Config

    values: dict[str, object] = {}
    exec(compile(config.read_text(), str(config), "exec"), values)
    defaults = Config()
    max_requests = values.get("max_requests", defaults.max_requests)
    jitter = values.get("max_requests_jitter", defaults.max_requests_jitter)
    if not max_requests:
        return "workers never recycled"
    return f"workers recycled after {max_requests} + up to {jitter} requests"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def start_server(root: Path, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """gunicorn serving the code under ``root`` (its working directory is on the path)."""
    return subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "-c",
            str(args.config),
            "config.wsgi",
            "-b",
            f"127.0.0.1:{PORT}",
            "--worker-class",
            args.worker_class,
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--log-level",
            "warning",
        ],
        cwd=root,
        # The access log (stdout) is written as in production, but not onto this terminal.
        stdout=subprocess.DEVNULL,
        env={**bench_environment(args.database), "ALLOWED_HOSTS": "127.0.0.1"},
    )


def measure(
    label: str, root: Path, endpoints: dict[str, list[str]], args: argparse.Namespace
) -> dict[str, float]:
    """Serve ``root``, load each endpoint in turn; each endpoint's loaded p95 in ms."""
    from arena.http import caching

    caching.clear()  # the first requests must really be uncached (this deployment's keys only)
    server = start_server(root, args)
    p95s: dict[str, float] = {}
    try:
        wait_until_serving(server)
        print(f"--- {label}: {root}")
        print(f"gunicorn settings: {args.config.name}, {recycling(args.config)}")
        print("load generator:", "wrk" if shutil.which("wrk") else "Python clients")
        print(
            f"server: gunicorn {args.worker_class}, {args.workers} workers x {args.threads} threads"
        )
        print(load())
        for name, paths in endpoints.items():
            if shutil.which("wrk"):
                p95s[name] = report_wrk(name, paths, args.clients, args.seconds)
                continue
            run_clients(paths, 1, 2)  # warm the connections and caches
            alone = run_clients(paths, 1, args.seconds / 2)
            loaded = run_clients(paths, args.clients, args.seconds)
            report(name, alone, loaded, args.seconds)
            p95s[name] = 1000 * percentile(loaded, 0.95)
    finally:
        server.terminate()
        server.wait()
    return p95s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--worker-class", default="gthread", choices=("gthread", "sync"))
    parser.add_argument("--config", type=Path, default=GUNICORN_CONFIG)
    parser.add_argument("--database", default=DATABASE)
    parser.add_argument(
        "--baseline", type=Path, help="a checkout of the code to compare with, measured first"
    )
    args = parser.parse_args()
    setup_django(args.database)

    from arena.models import Game, Match, Rating

    games, matches, ratings = Game.objects.count(), Match.objects.count(), Rating.objects.count()
    print(f"dataset: {ratings:,} rated versions, {matches:,} matches, {games:,} games")
    first = Match.objects.order_by("id").values_list("id", flat=True).first()
    assert first is not None, "run generate_dataset.py first"
    longest = Match.objects.order_by("-board_count", "id").values_list("id", "board_count")[0]
    print(f"match page: match {longest[0]}, {longest[1]} boards")
    rng = random.Random(1)
    endpoints = {
        "leaderboard": ["/api/ratings/?variant=auction4"]
        + [f"/api/ratings/?variant=auction4&page={p}" for p in range(2, 6)],
        "replay": [
            f"/api/matches/{first + rng.randrange(matches)}/replay/"
            f"?board={rng.randint(1, 10)}&table={rng.choice('AB')}"
            for _ in range(500)
        ],
        "board page": ["/leaderboards/auction4/"]
        + [f"/leaderboards/auction4/?page={p}" for p in range(2, 6)],
        "match page": [f"/matches/{longest[0]}/"],
        "match list": ["/matches/"] + [f"/matches/?page={p}" for p in range(2, 6)],
    }
    runs = {}
    if args.baseline is not None:
        runs["before"] = measure("before", args.baseline.resolve(), endpoints, args)
    runs["after"] = measure("this tree", ROOT, endpoints, args)
    if "before" in runs:
        print(f"--- p95 at {args.clients} clients, ms (target for the pages: 200 ms)")
        for name in endpoints:
            before, after = runs["before"][name], runs["after"][name]
            print(f"{name:12s} before {before:8.1f}   after {after:8.1f}   {before / after:6.1f}x")
        print(load())


if __name__ == "__main__":
    main()
