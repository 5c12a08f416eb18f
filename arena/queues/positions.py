"""Where a queued item stands in its queue (arena/queues/routing.py), read from the database.

A queue is worked in the order its messages were sent, which is the order its items were
created: a queued match or a pending version is behind every item of its queue created
before it that is still waiting. The interactive queue holds the short challenges and the
validations of uploads; the background queue the long challenges and the matchmaker's and
leagues' matches. Items
being played or validated already are not counted (they hold a worker, not a place).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q, QuerySet

from arena.models import BotVersion, Match
from arena.queues.routing import BACKGROUND_MATCH_KINDS, is_interactive_match


def _interactive() -> Q:
    """The matches of the interactive queue (``arena.queues.routing.is_interactive_match``)."""
    return ~Q(kind__in=BACKGROUND_MATCH_KINDS) & Q(
        board_count__lte=settings.INTERACTIVE_MATCH_BOARDS
    )


def match_queue_position(match: Match) -> int | None:
    """1 for the next match its queue's workers take; None unless the match is queued."""
    if match.status != Match.Status.QUEUED:
        return None
    queued = Match.objects.filter(status=Match.Status.QUEUED, pk__lt=match.pk)
    if not is_interactive_match(match.kind, match.board_count):
        return queued.exclude(_interactive()).count() + 1
    ahead = queued.filter(_interactive()).count()
    return ahead + _pending_versions().filter(created__lt=match.created).count() + 1


def version_queue_position(version: BotVersion) -> int | None:
    """1 for the next validation the interactive workers take; None unless it is pending."""
    if version.status != BotVersion.Status.PENDING:
        return None
    ahead = _pending_versions().filter(pk__lt=version.pk).count()
    challenges = Match.objects.filter(status=Match.Status.QUEUED, created__lt=version.created)
    return ahead + challenges.filter(_interactive()).count() + 1


def version_queue_positions(versions: list[BotVersion]) -> dict[int, int]:
    """``version_queue_position`` of each pending version of ``versions``, by id, in two
    queries however many there are (a page that lists a bot's versions reads them so)."""
    pending = [version for version in versions if version.status == BotVersion.Status.PENDING]
    if not pending:
        return {}
    ahead = _pending_versions().aggregate(
        **{str(version.pk): Count("pk", filter=Q(pk__lt=version.pk)) for version in pending}
    )
    challenges = (
        Match.objects.filter(status=Match.Status.QUEUED)
        .filter(_interactive())
        .aggregate(
            **{
                str(version.pk): Count("pk", filter=Q(created__lt=version.created))
                for version in pending
            }
        )
    )
    return {
        version.pk: ahead[str(version.pk)] + challenges[str(version.pk)] + 1 for version in pending
    }


SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else SUFFIXES.get(number % 10, "th")
    return f"{number}{suffix}"


def queue_text(position: int | None) -> str:
    """What a page says of a place in the queue; empty when the item is not waiting."""
    return "" if position is None else f"{ordinal(position)} in the queue"


def _pending_versions() -> QuerySet[BotVersion]:
    return BotVersion.objects.filter(status=BotVersion.Status.PENDING)
