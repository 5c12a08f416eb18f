"""`make demo`: the whole arena on one machine, run as production runs it, without servers.

The web server, two Celery workers and Celery beat share the SQLite file and the embedded
broker (message files under var/broker), so uploads and challenges return at once and are
played by a worker, and the periodic jobs (matchmaking, rating refits, league rounds)
run on their schedule. The first page is served before any demo content exists; the content
is then loaded in the background and the pages fill in as the worker plays. Ctrl-C (or
SIGTERM) stops every process this command started.

As deployed, each of the two queues (arena/queues/routing.py) has a worker of its own: the
interactive one (uploads' validation, challenges, arena bots' moves at a human's table, the
short periodic jobs) never waits behind the matchmaking and league matches of the other.
"""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.queues.routing import background_queue, interactive_queue
from engine.registry import default_variant

ROOT = Path(__file__).resolve().parents[3]
STARTUP_TIMEOUT_S = 300
"""How long the web server may take to answer its first page before the demo gives up."""
STOP_GRACE_S = 30
"""A worker stopping warm finishes its task (a validation, a few boards) within this."""


class Stop(Exception):
    """SIGTERM, handled as Ctrl-C is."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise Stop


PAGES = """
  Home page:          {base}/   (every page is linked from it)
  Leaderboards:       {base}/leaderboards/{variant}/
  Matches, replays:   {base}/matches/
  Leagues:            {base}/leagues/
  Tournaments:        {base}/tournaments/
  API documentation:  {base}/api/docs/
  Administration:     {base}/admin/  (user admin, password arena-admin)
  Players alice, bob, carol have the password demo-password-2026 (Sign in, top right).
  The demo content appears on the pages as the workers play it.
"""


class Command(BaseCommand):
    help = "Serve the demo arena with two Celery workers and beat beside the web server."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--no-seed", action="store_true", help="serve without loading the demo content"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("the demo runs with DEBUG on (make demo sets it)")
        if not settings.CELERY_BROKER_URL.startswith("filesystem://"):
            raise CommandError(
                "the demo starts its own worker on the embedded broker: set "
                "CELERY_BROKER_URL=filesystem://localhost/ (make demo does)"
            )
        started = time.monotonic()
        addrport: str = options["addrport"]
        self.say(started, "preparing the database")
        # The web server runs the system checks as it starts; once is enough.
        call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
        processes: dict[str, subprocess.Popen[bytes]] = {}
        signal.signal(signal.SIGTERM, _raise_stop)
        # Ctrl-C stops the demo even when it was started from a shell that ignores SIGINT
        # for the commands it runs in the background.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            processes["web"] = self.start(
                [sys.executable, "manage.py", "runserver", "--noreload", addrport]
            )
            # The workers and beat start once the page is served: on a small machine their
            # start-up would otherwise delay it.
            self.wait_for_first_page(addrport, processes, started)
            self.announce(addrport)
            # Two workers, one a queue (arena/queues/routing.py), as deployed: the interactive one
            # validates uploads, plays challenges and moves the arena bots at a human's
            # table while the other plays matchmaking and league matches.
            for name, queue in (
                ("interactive", interactive_queue()),
                ("worker", background_queue()),
            ):
                processes[name] = self.start(
                    [
                        sys.executable, "-m", "celery", "-A", "config", "worker",
                        "--pool=solo", "--without-mingle", "--without-gossip",
                        "-Q", queue, "-n", f"demo-{name}@%h", "-l", "warning",
                    ]
                )  # fmt: skip
            processes["beat"] = self.start(
                [
                    sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "warning",
                    "--pidfile", "",
                ]
            )  # fmt: skip
            if not options["no_seed"]:
                self.say(started, "loading the demo content in the background")
                processes["seed"] = self.start([sys.executable, "manage.py", "demo_seed"])
            self.supervise(processes, started)
        except (KeyboardInterrupt, Stop):
            self.say(started, "stopping")
        finally:
            self.stop(processes)
            self.say(started, "stopped")

    def say(self, started: float, message: str) -> None:
        self.stdout.write(f"[demo {time.monotonic() - started:6.1f} s] {message}")
        self.stdout.flush()

    def start(self, argv: list[str]) -> subprocess.Popen[bytes]:
        # A session of its own: Ctrl-C reaches this command only, which stops the others in
        # order instead of all of them at once.
        return subprocess.Popen(argv, cwd=ROOT, env=os.environ.copy(), start_new_session=True)

    def wait_for_first_page(
        self, addrport: str, processes: dict[str, subprocess.Popen[bytes]], started: float
    ) -> None:
        host, _, port = addrport.rpartition(":")
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while time.monotonic() < deadline:
            self.check_alive(processes)
            try:
                connection = http.client.HTTPConnection(host or "127.0.0.1", int(port), timeout=10)
                connection.request("GET", "/")
                status = connection.getresponse().status
            except OSError:
                time.sleep(0.3)
                continue
            if status == 200:
                self.say(started, f"serving: the first page answered on http://{addrport}/")
                self.stdout.write(
                    PAGES.format(base=f"http://{addrport}", variant=default_variant())
                )
                return
            raise CommandError(f"the first page answered HTTP {status}")
        raise CommandError(f"the web server did not answer within {STARTUP_TIMEOUT_S} s")

    def check_alive(self, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        for name, process in processes.items():
            if name != "seed" and process.poll() is not None:
                raise CommandError(f"the {name} process exited with status {process.returncode}")

    def supervise(self, processes: dict[str, subprocess.Popen[bytes]], started: float) -> None:
        seed = processes.get("seed")
        while True:
            self.check_alive(processes)
            if seed is not None and seed.poll() is not None:
                outcome = "loaded" if seed.returncode == 0 else f"failed ({seed.returncode})"
                self.say(started, f"demo content {outcome}; Ctrl-C stops the demo")
                seed = None
            time.sleep(0.5)

    def stop(self, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        # The seed and the web server first, so nothing new is queued; beat before the worker.
        for name in ("seed", "web", "beat", "interactive", "worker"):
            process = processes.get(name)
            if process is None or process.poll() is not None:
                continue
            process.terminate()
            try:
                process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def announce(self, addrport: str) -> None:
        """The API's entry points (the pages and the sign-in were listed with the first page)."""
        base = f"http://{addrport}"
        for line in (
            f"  API, leaderboard:   {base}/api/ratings/?variant={default_variant()}",
            f"  API, matches:       {base}/api/matches/",
            f"  API, leagues:       {base}/api/leagues/",
            f"  API, tournaments:   {base}/api/tournaments/",
        ):
            self.stdout.write(line)
