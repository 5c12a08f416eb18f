"""`manage.py demo` (what `make demo` runs): real workers and beat beside the web server.

The demo is started as a visitor starts it, on a SQLite file and the embedded broker of its
own; the test then talks to it over HTTP only, as a visitor's browser or curl would.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT = "def act(observation, legal):\n    return legal[0]\n"

# One demo serves the module's tests, the last of which stops it: under pytest-xdist they
# stay together on one worker process (``--dist loadgroup``).
pytestmark = [pytest.mark.worker, pytest.mark.xdist_group("demo-launcher")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")


class Demo:
    def __init__(self, process: subprocess.Popen[str], port: int, var: Path) -> None:
        self.process, self.port, self.var = process, port, var

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, token: str = ""
    ) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        connection.request(method, path, json.dumps(body) if body else None, headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")

    def answers(self) -> bool:
        try:
            return self.call("GET", "/api/")[0] == 200
        except OSError:
            return False

    def children(self) -> list[int]:
        listing = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
        )
        return [int(pid) for pid in listing.stdout.split()]

    def periodic_runs(self, name: str) -> int:
        with sqlite3.connect(self.var / "arena.sqlite3", timeout=30) as database:
            row = database.execute(
                "SELECT total_run_count FROM django_celery_beat_periodictask WHERE name = ?",
                (name,),
            ).fetchone()
        return int(row[0]) if row else 0


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """One demo for the module (it takes a while to start); the last test stops it."""
    tmp_path = tmp_path_factory.mktemp("demo")
    port = free_port()
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY"}
    }
    environment.update(
        {
            "DEBUG": "true",
            "ARENA_VAR_DIR": str(tmp_path),
            "CELERY_BROKER_URL": "filesystem://localhost/",
            "SANDBOX_MODE": "plain",
            # Beat's first re-queue comes after a second rather than the default 15.
            "MATCH_REQUEUE_EVERY_S": "1",
        }
    )
    log = (tmp_path / "demo.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "demo", f"127.0.0.1:{port}", "--no-seed"],
        cwd=ROOT,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    running = Demo(process, port, tmp_path)
    try:
        wait_for(lambda: running.answers() or process.poll() is not None, "the first page")
        assert process.poll() is None, (tmp_path / "demo.log").read_text()
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=120)
        log.close()
        print((tmp_path / "demo.log").read_text()[-4000:])


def test_an_upload_returns_at_once_and_the_demo_worker_validates_it(demo: Demo) -> None:
    status, player = demo.call(
        "POST", "/api/players/", {"username": "dora", "password": "cards-and-trumps-77"}
    )
    assert status == 201, player
    token = player["token"]
    status, bot = demo.call("POST", "/api/bots/", {"name": "first", "variant": "auction4"}, token)
    assert status == 201, bot
    status, version = demo.call("POST", f"/api/bots/{bot['id']}/versions/", {"source": BOT}, token)
    # Queued for the worker, not validated inside the request.
    assert (status, version["status"]) == (201, "pending")
    wait_for(
        lambda: demo.call("GET", f"/api/bots/{bot['id']}/versions/1/", token=token)[1]["status"]
        == "active",
        "the worker to validate the upload",
    )


def test_an_arena_bots_moves_at_a_humans_table_come_from_the_demo_worker(demo: Demo) -> None:
    status, player = demo.call(
        "POST", "/api/players/", {"username": "emil", "password": "cards-and-trumps-78"}
    )
    assert status == 201, player
    token = player["token"]
    status, bot = demo.call("POST", "/api/bots/", {"name": "rival", "variant": "twohand"}, token)
    assert status == 201, bot
    status, version = demo.call("POST", f"/api/bots/{bot['id']}/versions/", {"source": BOT}, token)
    assert status == 201, version
    wait_for(
        lambda: demo.call("GET", f"/api/bots/{bot['id']}/versions/1/", token=token)[1]["status"]
        == "active",
        "the worker to validate the upload",
    )
    # The non-dealer leads in two-hand: with dealer 0 the arena bot at seat 1 moves first.
    spec = {"kind": "arena", "version": version["id"]}
    body = {"variant": "twohand", "human_seat": 0, "dealer": 0, "bots": [spec]}
    status, table = demo.call("POST", "/api/play/tables/", body, token)
    assert (status, table["ply"], table["waiting_for_bot"]) == (201, 0, True), table
    url = f"/api/play/tables/{table['id']}/"
    wait_for(lambda: demo.call("GET", url, token=token)[1]["your_turn"], "the bot's lead")
    table = demo.call("GET", url, token=token)[1]
    assert table["moves"][0]["seat"] == 1
    action = {"action": table["controls"]["legal"][0], "ply": table["ply"]}
    status, answer = demo.call("POST", f"{url}actions/", action, token)
    assert status == 200, answer


def test_beat_sends_the_periodic_jobs_in_the_demo(demo: Demo) -> None:
    # The re-queue job runs every MATCH_REQUEUE_EVERY_S (1 s here; settings.CELERY_BEAT_SCHEDULE),
    # the soonest of the periodic jobs after start.
    wait_for(lambda: demo.periodic_runs("requeue-stale-matches") > 0, "beat's first re-queue")


def test_ctrl_c_stops_every_process_of_the_demo(demo: Demo) -> None:
    children = demo.children()
    assert len(children) == 4, children  # the web server, the two workers and beat
    demo.process.send_signal(signal.SIGINT)
    assert demo.process.wait(timeout=120) == 0
    for pid in children:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
