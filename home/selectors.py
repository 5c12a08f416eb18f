"""What the site's front pages read: the home page and a player's page, gathered from every app."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from arena import selectors as arena_selectors
from arena.models import Match, Rating
from leagues.models import Entry, League
from leagues.selectors import running_leagues
from tournaments.models import Event


@dataclass(frozen=True)
class HomePage:
    counts: arena_selectors.ArenaCounts
    leaderboards: dict[str, list[Rating]]
    recent_matches: list[Match]
    running_leagues: list[League]


def home_page() -> HomePage:
    return HomePage(
        counts=arena_selectors.arena_counts(),
        leaderboards=arena_selectors.leaderboard_tops(per_variant=5),
        recent_matches=arena_selectors.recent_matches(count=10),
        running_leagues=list(running_leagues()[:10]),
    )


@dataclass(frozen=True)
class PlayerPage:
    profile: arena_selectors.PlayerBots
    entries: list[Entry]
    """Her bots' league entries, newest season first."""
    events: list[Event]
    """Duplicate events she played in or directed, newest first."""
    is_self: bool
    """The reader is the player herself: her token and her forms are shown."""


def player_page(*, username: str, viewer_id: int | None) -> PlayerPage:
    """Raises ``Player.DoesNotExist``."""
    profile = arena_selectors.player_bots(username=username, viewer_id=viewer_id)
    player = profile.player
    entries = list(
        Entry.objects.filter(bot__owner=player)
        .select_related("season__league", "bot", "version", "division")
        .defer("version__source", "version__build_log", "version__status_reason")
        .order_by("-season__created", "-id")[:50]
    )
    events = list(
        Event.objects.filter(Q(sections__entries__players=player) | Q(director=player))
        .distinct()
        .order_by("-id")[:50]
    )
    is_self = viewer_id is not None and viewer_id == player.user_id
    return PlayerPage(profile=profile, entries=entries, events=events, is_self=is_self)
