"""Refit every rating from the boards of the rated matches, in completion order."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from arena.services.ratings import ratings_recompute


class Command(BaseCommand):
    help = (
        "Refit all ratings and their history from scratch, report any difference from the "
        "stored ones, and repair them (unless --check)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="only compare; exit 1 on a difference"
        )

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        report = ratings_recompute(repair=not check)
        self.stdout.write(
            f"{report.matches} rated matches, {report.ratings} ratings, "
            f"{len(report.differences)} differences"
        )
        for line in report.differences:
            self.stdout.write(f"  {line}")
        if check and report.differences:
            raise SystemExit(1)
