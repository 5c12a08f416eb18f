"""Demo leagues for `make demo`: the reference bots of the arena demo in a round robin and
in a knockout.

Built through the same services as the API, after ``arena.demo.seed``. The demo schedules
the round robin's round 1 and closes it once its matches are played, so the standings have
results and round 2 is left for a visitor (or the timetable) to schedule. Without a broker
the matches are played as the round is scheduled; with the demo's worker the seed waits for
them. The knockout is left in play: its round 1 is scheduled (seeded by the ratings the
round robin gave) and its bracket shows the ties as the worker plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.demo import wait_until
from arena.models import BotVersion, Match, Player
from engine.registry import default_variant
from leagues import selectors, services
from leagues.models import League, Season

DEMO_LEAGUE = "Reference bots league"
DEMO_KNOCKOUT = "Reference bots cup"
DEMO_VARIANT = default_variant()
DEMO_BOARDS = 2
DEMO_ORGANISER = "alice"


def seed(say: Callable[[str], None] = print) -> None:
    """Create the demo league; does nothing that is already there."""
    organiser = Player.objects.filter(user__username=DEMO_ORGANISER).first()
    versions = list(
        BotVersion.objects.defer("source")
        .filter(
            bot__variant=DEMO_VARIANT,
            bot__owner__user__username__in=["alice", "bob", "carol"],
            status=BotVersion.Status.ACTIVE,
        )
        .select_related("bot")
        .order_by("bot_id", "-number")
    )
    latest: dict[int, BotVersion] = {}
    for version in versions:
        latest.setdefault(version.bot_id, version)
    if organiser is None or len(latest) < 2:
        say("league: skipped, the arena demo has fewer than two active reference bots")
        return
    league = League.objects.filter(name=DEMO_LEAGUE, organiser=organiser).first()
    if league is None:
        league = services.league_create(
            organiser=organiser,
            name=DEMO_LEAGUE,
            variant=DEMO_VARIANT,
            format=League.Format.ROUND_ROBIN,
            boards_per_match=DEMO_BOARDS,
            description="The reference bots, one round played; schedule the next one.",
        )
        say(f"league {league.pk}: {league.name}")
    season = league.seasons.order_by("number").first() or services.season_create(
        league=league, name="Demo season"
    )
    if season.status == Season.Status.OPEN:
        for version in latest.values():
            if not season.entries.filter(bot=version.bot).exists():
                services.entry_create(season=season, bot=version.bot, version=version)
        round_, _ = services.round_schedule(season=season, number=1)
        matches = Match.objects.filter(league_fixture__round=round_)
        wait_until(
            lambda: matches.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).count(),
            "league round 1",
            say,
            matches.count(),
        )
        services.round_close(round_id=round_.pk)
    for table in selectors.season_standings(season=season):
        for line in table.rows:
            say(
                f"league standings {line.rank}. {line.entry.bot}: {line.row.points} points, "
                f"board difference {line.row.board_difference:+d}"
            )
    seed_knockout(organiser=organiser, versions=list(latest.values()), say=say)


def seed_knockout(
    *, organiser: Player, versions: Sequence[BotVersion], say: Callable[[str], None] = print
) -> Season:
    """A knockout of the versions' bots with its round 1 scheduled: a season in play, whose
    bracket a visitor reaches from the leagues' pages. Does nothing that is already there."""
    league = League.objects.filter(name=DEMO_KNOCKOUT, organiser=organiser).first()
    if league is None:
        league = services.league_create(
            organiser=organiser,
            name=DEMO_KNOCKOUT,
            variant=versions[0].bot.variant,
            format=League.Format.KNOCKOUT,
            boards_per_match=DEMO_BOARDS,
            description="The reference bots in a knockout, seeded by rating: round 1 is "
            "being played; schedule the next round once it is.",
        )
        say(f"league {league.pk}: {league.name}")
    season = league.seasons.order_by("number").first() or services.season_create(
        league=league, name="Demo cup"
    )
    if season.status == Season.Status.OPEN:
        for version in versions:
            if not season.entries.filter(bot=version.bot).exists():
                services.entry_create(season=season, bot=version.bot, version=version)
        services.round_schedule(season=season, number=1)
        season.refresh_from_db()
    say(f"knockout {league.name}: round 1 of {season.round_count} scheduled")
    return season
