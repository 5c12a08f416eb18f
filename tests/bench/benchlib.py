"""Shared set-up for the service benchmarks: a PostgreSQL database of their own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def bench_environment(database: str) -> dict[str, str]:
    """Environment for Django processes of a benchmark, on its own PostgreSQL database."""
    return {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{database}"
        ),
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14"),
        "SECRET_KEY": "bench-only",
        "CELERY_QUEUE": f"bench-{database}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def create_database(database: str) -> None:
    exists = subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-tAc",
            f"SELECT 1 FROM pg_database WHERE datname = '{database}'",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not exists:
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {database}"],
            check=True,
        )


def setup_django(database: str) -> None:
    """Point this process at the benchmark database, migrate it, and set Django up."""
    create_database(database)
    os.environ.update(bench_environment(database))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
