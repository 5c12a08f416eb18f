"""Re-derive every board of finished matches from their revealed secrets and check them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena import selectors
from arena.models import Match


class Command(BaseCommand):
    help = (
        "Check finished matches: the revealed secret against the published commitment, and "
        "every board's seed and dealer (and the cards a replay records) against what the "
        "secret deals."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="matches (default: all done)")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = selectors.match_list().filter(status=Match.Status.DONE).order_by("id")
        if options["match_ids"]:
            matches = matches.filter(pk__in=options["match_ids"])
            missing = set(options["match_ids"]) - set(matches.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"not done or not found: {sorted(missing)}")
        failed = 0
        for match in matches.iterator():
            report = selectors.match_verification(match=match)
            how = "chosen seed" if match.seed_chosen else "committed secret"
            if not report["committed"] and not match.seed_chosen:
                how = "no commitment (dealt before commitments were published)"
            if report["verified"]:
                self.stdout.write(f"match {match.pk}: {match.board_count} boards verified ({how})")
            else:
                failed += 1
                for problem in report["problems"]:
                    self.stdout.write(f"match {match.pk}: {problem}")
        if failed:
            raise CommandError(f"{failed} match(es) failed verification")
