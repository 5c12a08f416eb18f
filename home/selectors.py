"""What the site's front pages read: the home page and a player's page, gathered from every app."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.urls import reverse

from arena import selectors as arena_selectors
from arena.models import Match, Rating
from arena.pages import charts
from engine.registry import load_game
from leagues.models import Entry, League
from leagues.selectors import running_leagues
from tables.models import PlayTable
from tables.selectors import sealed_because, tables_seen
from tournaments.models import Event, HumanRating, HumanRatingChange


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
    tables: list[TableRow]
    """The newest of her tables the viewer may see, newest first (``TABLES_SHOWN``)."""
    table_count: int
    """How many of her tables the viewer may see in all."""
    ratings: list[HumanRatingRow]
    """Her human ratings from duplicate events, one a variant, best first."""


TABLES_SHOWN = 20


@dataclass(frozen=True)
class TableRow:
    table: PlayTable
    score: str
    """Her side's score against the others' once the hand is over (empty before)."""
    ending: str
    """How the hand ended, when not played out: left, expired, closed, a bot's fault."""
    replay_url: str | None
    """Only for a finished hand whose deal is not sealed (``tables.selectors.sealed_because``)."""
    table_url: str | None
    """A hand still in play, for its owner alone: back to the table."""
    sealed: str | None
    """Why the replay is not shown yet."""


@dataclass(frozen=True)
class HumanRatingRow:
    rating: HumanRating
    bar: charts.IntervalBar
    """The 95% interval as the tournaments' ratings page draws it."""
    scale: charts.Scale
    chart: charts.DatedChart | None
    """The rating after each finished event, from the rating before the first."""


ENDINGS = {"abandoned": "left", "expired": "time ran out", "closed": "closed by its event"}


def _table_row(table: PlayTable, *, is_owner: bool) -> TableRow:
    if not table.is_over or table.result is None:
        url = reverse("tables:table", args=[table.pk]) if is_owner else None
        return TableRow(table, "", "", None, url, None)
    game = load_game(table.variant)
    scores = [int(score) for score in table.result["side_scores"]]
    mine = game.side_of(table.human_seat)
    others = [score for side, score in enumerate(scores) if side != mine]
    score = f"{scores[mine]} against {', '.join(str(other) for other in others)}"
    fault = table.result.get("fault")
    # Only who and how: a bot's reason may name a card of its hand.
    ending = "" if fault is None else ENDINGS.get(fault["kind"], "a bot's fault")
    sealed = sealed_because(table)
    replay = reverse("tables:replay", args=[table.pk]) if sealed is None else None
    return TableRow(table, score, ending, replay, None, sealed)


def _rating_history(rating: HumanRating) -> list[tuple[datetime, float]]:
    changes = list(
        HumanRatingChange.objects.filter(player_id=rating.player_id, event__variant=rating.variant)
        .exclude(event__finished__isnull=True)
        .select_related("event")
        .order_by("event__finished", "event_id")
    )
    if not changes:
        return []
    first = changes[0].event
    begun = first.started or first.created
    return [(begun, changes[0].before)] + [
        (change.event.finished, change.after)
        for change in changes
        if change.event.finished is not None
    ]


def _rating_rows(player_id: int) -> list[HumanRatingRow]:
    rows = []
    for rating in HumanRating.objects.filter(player_id=player_id).order_by("-rating", "variant"):
        scale = charts.Scale.around([rating.value, rating.low, rating.high])
        bar = charts.interval_bar(rating.value, rating.low, rating.high, scale)
        chart = charts.dated_line(_rating_history(rating))
        rows.append(HumanRatingRow(rating, bar, scale, chart))
    return rows


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
    tables = tables_seen(owner_id=player.user_id, viewer_id=viewer_id)
    is_self = viewer_id is not None and viewer_id == player.user_id
    return PlayerPage(
        profile=profile,
        entries=entries,
        events=events,
        tables=[_table_row(table, is_owner=is_self) for table in tables[:TABLES_SHOWN]],
        table_count=tables.count(),
        ratings=_rating_rows(player.pk),
        is_self=is_self,
    )
