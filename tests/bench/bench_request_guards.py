"""What the request guards cost and save: oversized bodies, replay verification, cache growth.

    python tests/bench/bench_request_guards.py [--boards 20] [--body-mb 50]

Runs in-process on a SQLite database of its own, with tasks in-process, and prints:

- the time to refuse a large JSON body (413 before reading it), against the time merely to
  decode the same body with ``json.loads`` (what the service used to spend, and more);
- the time of a replay with ``verify=true`` when it is computed and when it is cached;
- the response cache after many spellings of one replay (leading zeros, absent boards):
  entries in the shared cache and bytes in this process, against a single request.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def setup(directory: str) -> None:
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{directory}/bench.sqlite3",
            "SECRET_KEY": "bench-only",
            "SANDBOX_MODE": "plain",
            "ALLOWED_HOSTS": "localhost,testserver",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "VERIFY_RATE": "1000000/hour",
            "CHALLENGE_RATE": "1000000/hour",
            "CHALLENGE_RATE_PER_IP": "1000000/hour",
        }
    )
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("CACHE_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


_APPLICATION: Any = None


def wsgi_post(path: str, body: bytes) -> tuple[str, float]:
    """POST ``body`` through the WSGI application as a server would: status and seconds."""
    from django.core.wsgi import get_wsgi_application

    global _APPLICATION
    application = _APPLICATION = _APPLICATION or get_wsgi_application()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "HTTP_HOST": "localhost",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
    }
    answered: list[str] = []
    started = time.perf_counter()
    chunks = application(environ, lambda status, headers: answered.append(status))
    b"".join(chunks)
    return answered[0].split()[0], time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--body-mb", type=int, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        setup(directory)
        run(options.boards, options.body_mb)


def run(boards: int, body_mb: int) -> None:
    from django.core.cache import caches
    from django.test import Client

    from arena import services
    from arena.http import caching
    from arena.models import BotVersion
    from arena.tasks import match_run_task

    client = Client()
    body = json.dumps({"username": "x" * (body_mb * 1024 * 1024), "password": "p"}).encode()
    small = json.dumps({"username": "", "password": ""}).encode()
    wsgi_post("/api/players/", small)  # the first request loads the views: not measured
    status, refuse = min(wsgi_post("/api/players/", body) for _ in range(3))
    small_status, ordinary = min(wsgi_post("/api/players/", small) for _ in range(3))
    decode = timed(lambda: json.loads(body))
    print(f"{body_mb} MB JSON body: answered {status} in {refuse * 1000:.2f} ms")
    print(f"  a small invalid body (baseline): answered {small_status} in {ordinary * 1000:.2f} ms")
    print(f"  json.loads of the large body alone: {decode * 1000:.1f} ms")
    print(f"  ratio decode / refusal: {decode / refuse:.0f}x")

    source = (ROOT / "bots/reference/random_bot.py").read_bytes()
    owners = [services.player_register(username=n, password="bench-pass-123") for n in "xy"]
    versions = []
    for owner in owners:
        bot = services.bot_create(owner=owner, name="rnd", variant="auction4")
        version = services.bot_version_submit(bot=bot, data=source, filename="bot.py")
        BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
        versions.append(BotVersion.objects.get(pk=version.pk))
    from arena.services.matches import match_create

    # A chosen seed is for unrated matches only (a rated match's deals are the server's).
    match = match_create(
        version_x=versions[0],
        version_y=versions[1],
        boards=boards,
        requested_by=None,
        seed=1,
        rated=False,
    )
    match_run_task.apply(args=[match.pk])
    caching.clear()
    url = f"/api/matches/{match.pk}/replay/"
    computed = timed(lambda: client.get(url, {"verify": "true"}))
    cached = timed(lambda: client.get(url, {"verify": "true"}))
    print(f"replay of {boards} boards with verify=true: computed {computed * 1000:.0f} ms")
    print(f"  cached: {cached * 1000:.2f} ms (ratio {computed / cached:.0f}x)")

    caching.clear()
    client.get(url)
    single_entries = len(caches["responses"]._cache)  # type: ignore[attr-defined]
    single_bytes = caching.local.stats()[1]
    requests = 0
    for zeros in range(100):
        client.get(f"/api/matches/{'0' * zeros}{match.pk}/replay/")
        client.get(url, {"board": boards + 1 + zeros})
        requests += 2
    entries = len(caches["responses"]._cache)  # type: ignore[attr-defined]
    print(
        f"after {requests} requests spelling one replay: {entries} shared entries, "
        f"{caching.local.stats()[1]} bytes in process "
        f"(one request: {single_entries} entries, {single_bytes} bytes)"
    )


if __name__ == "__main__":
    main()
