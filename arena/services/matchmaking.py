"""The matchmaker: gives versions with few rated matches an opponent of close rating."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q

from arena.elo import INITIAL_ELO
from arena.models import BotVersion, Match, Rating
from arena.services.matches import match_create

FEW_MATCHES = 30
"""A version with fewer rated matches than this is looking for games."""
MAX_NEW_MATCHES = 20
"""Matches the matchmaker queues per variant per round, so the queue cannot flood."""


def matchmaking_pair(*, variant: str) -> list[Match]:
    """Queue matches between active versions of different bots, closest ratings first.

    A version with a queued or running match waits for it; a version with fewer than
    ``FEW_MATCHES`` rated matches is paired with the nearest-rated available version of
    another bot.
    """
    busy = set(
        Match.objects.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
        .filter(Q(variant=variant))
        .values_list("version_x_id", "version_y_id")
        .iterator()
    )
    busy_ids = {version for pair in busy for version in pair}
    candidates = list(
        BotVersion.objects.filter(status=BotVersion.Status.ACTIVE, bot__variant=variant)
        .exclude(pk__in=busy_ids)
        .select_related("bot")
    )
    elo = {
        rating.version_id: (rating.elo, rating.matches)
        for rating in Rating.objects.filter(variant=variant, version__in=candidates)
    }

    def rating_of(version: BotVersion) -> float:
        return elo.get(version.pk, (INITIAL_ELO, 0))[0]

    def played(version: BotVersion) -> int:
        return elo.get(version.pk, (INITIAL_ELO, 0))[1]

    created: list[Match] = []
    taken: set[int] = set()
    for version in sorted(candidates, key=lambda v: (played(v), v.pk)):
        if len(created) >= MAX_NEW_MATCHES:
            break
        if version.pk in taken or played(version) >= FEW_MATCHES:
            continue
        opponents = [
            other
            for other in candidates
            if other.pk not in taken and other.pk != version.pk and other.bot_id != version.bot_id
        ]
        if not opponents:
            continue
        opponent = min(opponents, key=lambda o: (abs(rating_of(o) - rating_of(version)), o.pk))
        taken.update((version.pk, opponent.pk))
        created.append(
            match_create(
                version_x=version,
                version_y=opponent,
                boards=settings.MATCHMAKING_BOARDS,
                kind=Match.Kind.MATCHMAKING,
            )
        )
    return created
