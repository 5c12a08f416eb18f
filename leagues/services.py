"""Leagues: every write. Keyword-only functions named ``<entity>_<action>``.

How a season runs:

- Entries are open until round 1 is scheduled. Round 1 fixes each entrant's pairing
  number in its division (in order of entry) and the number of rounds.
- ``round_schedule`` creates a round's fixtures and queues one arena match (kind
  ``league``) per fixture; each match is rated, so it is dealt from a secret the arena
  draws and commits to (``arena.seeding``), never from the round's published seed. Asking
  again for a round that exists returns it and creates nothing: the season row is locked
  while a round is created and the database holds one round per (season, number).
- A round is complete when every fixture's match has ended, done or failed (the arena
  retries infrastructure faults before it gives up). The next round can be scheduled only
  then. ``round_close`` records the completion (and moves a ladder's rungs; the last
  round's close finishes the season); it runs in the periodic ``leagues.rounds_close``
  task, in a league's timetable, before the next round and before the next season.
- A fixture's result is read from its match: the sign of X's total board result gives a
  win (2 points), a draw (1 each) or a loss (0). A bot's faults are already forfeited board
  by board in that total. A match that failed (the arena gave up on its infrastructure)
  makes the fixture void: no points, no tiebreak terms, and the two may meet again in a
  Swiss.
- The version that plays is resolved when the fixture is created: the entry's fixed
  version, or its bot's latest active version for an entry that follows the latest. An
  entrant with no active version then (its version was disabled or rejected mid-season)
  forfeits the fixture: the opponent wins 2 points, no match is played. A version
  disabled while its match is already queued still plays that match.
- Byes: a round robin's bye (odd field) scores nothing, since everyone sits out once per
  cycle; a Swiss bye scores a win's points, at most once per entrant; a ladder player
  nobody challenges simply waits.
- A knockout (``leagues.knockout``) numbers its entrants by seed when round 1 is
  scheduled: by the rating, in the league's variant, of the version each would play then
  (the fixed one, or the bot's latest active one), the unrated last in order of entry. Its
  rounds follow from its field (log2 of the next power of two); round 1 gives the byes to
  the top seeds, and each later round pairs the winners of the round before, in bracket
  order, once that round is complete. The better seed takes the X seats. Who advances
  from a tie: the winner on the board total; on a draw, the side with more boards won,
  then the better seed; a failed match or a double forfeit advances the better seed. The
  final's winner is the champion, and the final's close finishes the season.
- Divisions play within themselves. ``season_create(carry_over=True)`` starts the next
  season with the same divisions and entries, the best ``promoted`` of each division one
  level up and the worst ``relegated`` one level down.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from arena import notices
from arena.errors import InvalidInput, NotAllowed
from arena.models import Bot, BotVersion, Match, Player
from arena.services.matches import MAX_BOARDS, match_create
from arena.variants import variant_names
from engine.registry import load_game
from leagues import fixture_results, knockout, promotion, scheduling, selectors
from leagues.fixture_results import Result
from leagues.models import Division, Entry, Fixture, League, Round, Season
from leagues.promotion import Move

logger = logging.getLogger(__name__)

MIN_DECISION_MS = 10
MIN_BANK_MS = 100
ADVANCE_TASK = "leagues.league_advance"


def league_create(
    *,
    organiser: Player,
    name: str,
    variant: str,
    format: str,
    boards_per_match: int = 10,
    rule_overrides: dict[str, Any] | None = None,
    decision_ms: int | None = None,
    bank_ms: int | None = None,
    allow_follow_latest: bool = False,
    ladder_reach: int = 2,
    description: str = "",
) -> League:
    if variant not in variant_names():
        raise InvalidInput(
            f"unknown variant {variant!r}; choose one of {', '.join(variant_names())}",
            field="variant",
        )
    if format not in League.Format.values:
        raise InvalidInput(f"unknown league format {format!r}", field="format")
    league = League(
        organiser=organiser,
        name=name,
        variant=variant,
        format=format,
        rule_overrides=rule_overrides or {},
        description=description,
    )
    _apply_settings(
        league,
        boards_per_match=boards_per_match,
        decision_ms=decision_ms,
        bank_ms=bank_ms,
        allow_follow_latest=allow_follow_latest,
        ladder_reach=ladder_reach,
    )
    try:
        load_game(variant).rules_for(league.rule_overrides)
    except ValueError as error:
        raise InvalidInput(str(error), field="rule_overrides") from None
    league.save()
    return league


def league_of_organiser(*, league: League, by: Player, doing: str) -> League:
    """The league ``by`` acts on as its organiser (``doing``: what, for the refusal)."""
    if not selectors.is_organiser(league=league, viewer=by):
        raise NotAllowed(f"only the league's organiser can {doing}")
    return league


def entry_enter(
    *,
    season: Season,
    by: Player,
    bot_id: int,
    version_number: int | None = None,
    division_name: str | None = None,
    follows_latest: bool = False,
) -> Entry:
    """A player enters one of their own bots, named by id (its version by number, its
    division by name), as ``entry_create`` takes it."""
    bot = Bot.objects.filter(pk=bot_id).first()
    if bot is None:
        raise InvalidInput(f"there is no bot {bot_id}", field="bot")
    if bot.owner_id != by.pk:
        raise NotAllowed("only a bot's owner can enter it")
    version = None
    if version_number is not None:
        version = selectors.bot_version_numbered(bot=bot, number=version_number)
        if version is None:
            raise InvalidInput(f"{bot} has no version {version_number}", field="version")
    division = None
    if division_name is not None:
        division = selectors.division_named(season=season, name=division_name)
        if division is None:
            raise InvalidInput(f"there is no division {division_name!r}", field="division")
    return entry_create(
        season=season,
        bot=bot,
        version=version,
        follows_latest=follows_latest,
        division=division,
    )


def league_update(*, league: League, **changes: Any) -> League:
    """Change a league's name, description, boards or time control; later fixtures use them.

    The variant, rules and format are fixed at creation: a season cannot change game midway.
    """
    fixed = set(changes) & {"variant", "format", "rule_overrides", "organiser"}
    if fixed:
        raise InvalidInput(f"{', '.join(sorted(fixed))} cannot change after creation")
    for field in ("name", "description"):
        if field in changes:
            setattr(league, field, changes.pop(field))
    _apply_settings(league, **changes)
    league.save()
    return league


def _apply_settings(
    league: League,
    *,
    boards_per_match: int | None = None,
    decision_ms: int | None = None,
    bank_ms: int | None = None,
    allow_follow_latest: bool | None = None,
    ladder_reach: int | None = None,
) -> None:
    if boards_per_match is not None:
        if not 1 <= boards_per_match <= MAX_BOARDS:
            raise InvalidInput(
                f"boards per match must be between 1 and {MAX_BOARDS}", field="boards_per_match"
            )
        league.boards_per_match = boards_per_match
    if decision_ms is not None:
        if decision_ms < MIN_DECISION_MS:
            raise InvalidInput(f"decision_ms is at least {MIN_DECISION_MS}", field="decision_ms")
        league.decision_ms = decision_ms
    if bank_ms is not None:
        if bank_ms < MIN_BANK_MS:
            raise InvalidInput(f"bank_ms is at least {MIN_BANK_MS}", field="bank_ms")
        league.bank_ms = bank_ms
    if allow_follow_latest is not None:
        league.allow_follow_latest = allow_follow_latest
    if ladder_reach is not None:
        if ladder_reach < 1:
            raise InvalidInput("a ladder challenge reaches at least one rung", field="ladder_reach")
        league.ladder_reach = ladder_reach


def season_create(
    *,
    league: League,
    name: str = "",
    planned_rounds: int | None = None,
    starts_at: datetime | None = None,
    divisions: Sequence[dict[str, Any]] = (),
    carry_over: bool = False,
) -> Season:
    """Open a season for entries. ``divisions``: ``{"name", "promoted", "relegated"}``, top
    first. ``carry_over`` copies the finished previous season's divisions and entries,
    applying promotion and relegation."""
    if planned_rounds is not None:
        if league.format not in (League.Format.SWISS, League.Format.LADDER):
            raise InvalidInput(
                "a round robin's rounds follow from its field", field="planned_rounds"
            )
        if planned_rounds < 1:
            raise InvalidInput("a season has at least one round", field="planned_rounds")
    with transaction.atomic():
        # One season at a time: the lock keeps two requests from opening two seasons.
        League.objects.select_for_update().get(pk=league.pk)
        previous = league.seasons.order_by("-number").first()
        if previous is not None and previous.status == Season.Status.RUNNING:
            previous = _season_finish_if_over(previous)
        if previous is not None and previous.status != Season.Status.FINISHED:
            raise InvalidInput(f"season {previous.number} of this league is not finished")
        if carry_over and previous is None:
            raise InvalidInput("there is no previous season to carry over", field="carry_over")
        if carry_over and divisions:
            raise InvalidInput(
                "a carried-over season keeps the previous divisions", field="divisions"
            )
        season = Season.objects.create(
            league=league,
            number=1 if previous is None else previous.number + 1,
            name=name,
            planned_rounds=planned_rounds,
            starts_at=starts_at,
        )
        if carry_over:
            assert previous is not None
            _carry_over(previous, season)
        else:
            _create_divisions(season, divisions)
    return season


def _season_finish_if_over(season: Season) -> Season:
    """Close the season's last round if its matches have ended, which finishes the season
    (it may not have been noticed yet when no timetable or periodic close ran)."""
    season = (
        Season.objects.select_for_update(of=("self",)).select_related("league").get(pk=season.pk)
    )
    last = season.rounds.order_by("-number").first()
    if last is not None and last.number == season.round_count:
        _round_close_locked(season, last)
    return season


def _create_divisions(season: Season, divisions: Sequence[dict[str, Any]]) -> None:
    names = [str(division.get("name", "")).strip() for division in divisions]
    if any(not name for name in names) or len(set(names)) != len(names):
        raise InvalidInput("every division needs a name of its own", field="divisions")
    for level, (name, division) in enumerate(zip(names, divisions, strict=True), start=1):
        promoted, relegated = division.get("promoted", 0), division.get("relegated", 0)
        if promoted < 0 or relegated < 0:
            raise InvalidInput("promotion and relegation counts are not negative")
        if level == 1 and promoted:
            raise InvalidInput("nobody can be promoted out of the top division")
        if level == len(divisions) and relegated:
            raise InvalidInput("nobody can be relegated out of the bottom division")
        Division.objects.create(
            season=season, name=name, level=level, promoted=promoted, relegated=relegated
        )


def _carry_over(previous: Season, season: Season) -> None:
    levels = {}
    for division in previous.divisions.order_by("level"):
        levels[division.level] = Division.objects.create(
            season=season,
            name=division.name,
            level=division.level,
            promoted=division.promoted,
            relegated=division.relegated,
        )
    for table in selectors.season_standings(season=previous):
        level = table.division.level if table.division is not None else None
        rows = [row.entry for row in table.rows]
        for place, entry in enumerate(rows):
            moved_to = level
            if table.division is not None and level is not None:
                move = promotion.season_move(
                    place + 1,
                    len(rows),
                    promoted=table.division.promoted,
                    relegated=table.division.relegated,
                    above=level - 1 in levels,
                    below=level + 1 in levels,
                )
                moved_to = {Move.UP: level - 1, Move.DOWN: level + 1}.get(move, level)
            Entry.objects.create(
                season=season,
                division=None if moved_to is None else levels[moved_to],
                bot=entry.bot,
                version=entry.version,
                follows_latest=entry.follows_latest,
            )


def entry_create(
    *,
    season: Season,
    bot: Bot,
    version: BotVersion | None = None,
    follows_latest: bool = False,
    division: Division | None = None,
) -> Entry:
    """Enter a bot: a given version, by default its latest active one, or (if the league
    allows it) whichever version is the latest active one at each fixture."""
    league = season.league
    if bot.variant != league.variant:
        raise InvalidInput(f"{bot} plays {bot.variant}, this league plays {league.variant}")
    if follows_latest:
        if not league.allow_follow_latest:
            raise InvalidInput(
                "this league's entries name a version; it does not follow the latest",
                field="follows_latest",
            )
        if version is not None:
            raise InvalidInput(
                "an entry follows the latest version or names one, not both", field="version"
            )
        if selectors.latest_active_version(bot=bot) is None:
            raise InvalidInput(f"{bot} has no active version", field="bot")
    else:
        version = version or selectors.latest_active_version(bot=bot)
        if version is None:
            raise InvalidInput(f"{bot} has no active version", field="bot")
        if version.bot_id != bot.pk:
            raise InvalidInput(f"{version} is not a version of {bot}", field="version")
        if version.status != BotVersion.Status.ACTIVE:
            raise InvalidInput(f"{version} is {version.status}, not active", field="version")
    if division is not None and division.season_id != season.pk:
        raise InvalidInput(f"{division} is not a division of this season", field="division")
    with transaction.atomic():
        # Round 1 numbers the entrants under this lock: no entry may slip in meanwhile.
        season = Season.objects.select_for_update(of=("self",)).get(pk=season.pk)
        if season.status != Season.Status.OPEN:
            raise InvalidInput(f"season {season.number} has started; entries are closed")
        if division is None and season.divisions.exists():
            raise InvalidInput("this season has divisions: choose one", field="division")
        if season.entries.filter(bot=bot).exists():
            raise InvalidInput(f"{bot} is already entered in this season", field="bot")
        return Entry.objects.create(
            season=season,
            division=division,
            bot=bot,
            version=version,
            follows_latest=follows_latest,
        )


def entry_withdraw(*, entry: Entry, by: Player) -> None:
    """Withdraw an entry before its season starts: its bot's owner or the organiser."""
    if by.pk not in (entry.bot.owner_id, entry.season.league.organiser_id):
        raise NotAllowed("only the bot's owner or the organiser can withdraw an entry")
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=entry.season_id)
        if season.status != Season.Status.OPEN:
            raise InvalidInput("the season has started; an entry can no longer be withdrawn")
        entry.delete()


def round_schedule(*, season: Season, number: int) -> tuple[Round, bool]:
    """Create round ``number`` and queue its matches; ``(round, False)`` if it exists."""
    with transaction.atomic():
        # Two requests for the same round serialise on this lock; the second finds the
        # first's round below. The unique (season, number) constraint is the backstop.
        season = (
            Season.objects.select_for_update(of=("self",))
            .select_related("league")
            .get(pk=season.pk)
        )
        existing = season.rounds.filter(number=number).first()
        if existing is not None:
            return existing, False
        last = season.rounds.order_by("-number").first()
        expected = 1 if last is None else last.number + 1
        if season.round_count is not None and number > season.round_count:
            raise InvalidInput(
                f"season {season.number} has {season.round_count} rounds; "
                f"there is no round {number}",
                field="number",
            )
        if number != expected:
            raise InvalidInput(f"the next round to schedule is {expected}", field="number")
        if last is not None and not _round_close_locked(season, last):
            raise InvalidInput(f"round {last.number} is still being played")
        if number == 1:
            _season_start(season)
        round_ = Round.objects.create(season=season, number=number, seed=secrets.randbits(63))
        for division, entries in _groups(season):
            for x, y in _pairings(season, division, entries, number):
                _fixture_create(round_, division, entries[x], None if y is None else entries[y])
        _notice_round(season, round_)
    return round_, True


def _notice_round(season: Season, round_: Round) -> None:
    """Tell every entrant's owner, and the organiser, that a round was scheduled."""
    league = season.league
    owners = Entry.objects.filter(season=season).values_list("bot__owner__user_id", flat=True)
    organiser = Player.objects.filter(pk=league.organiser_id).values_list("user_id", flat=True)
    notices.notify_many(
        user_ids=[*owners, *organiser],
        kind=notices.Kind.ROUND_SCHEDULED,
        key=f"round:{round_.pk}",
        text=f"{league.name}: round {round_.number} of season {season.number} is scheduled",
        url=reverse("leagues:league", args=[league.pk]),
    )


def _groups(season: Season) -> list[tuple[Division | None, dict[int, Entry]]]:
    """Each division (or the whole season) with its entries by pairing number."""
    entries = list(
        season.entries.select_related("bot", "version", "division").order_by("number", "id")
    )
    divisions: list[Division | None] = list(season.divisions.order_by("level")) or [None]
    return [
        (
            division,
            {
                entry.number: entry
                for entry in entries
                if entry.division_id == (division.pk if division else None)
                and entry.number is not None
            },
        )
        for division in divisions
    ]


def _season_start(season: Season) -> None:
    league = season.league
    sizes = []
    divisions: list[Division | None] = list(season.divisions.order_by("level")) or [None]
    for division in divisions:
        entries = list(
            season.entries.filter(division=division).select_related("bot").order_by("id")
        )
        if len(entries) < 2:
            where = f"division {division}" if division else f"season {season.number}"
            raise InvalidInput(
                f"{where} has {len(entries)} entrant{'s' if len(entries) != 1 else ''}; "
                "a league needs at least two"
            )
        if league.format == League.Format.KNOCKOUT:
            entries = _seeded(entries, league.variant)
        for number, entry in enumerate(entries, start=1):
            entry.number = number
            entry.rung = number if league.format == League.Format.LADDER else None
            entry.save(update_fields=["number", "rung"])
        sizes.append(len(entries))
    season.round_count = _round_count(league, season.planned_rounds, sizes)
    season.status = Season.Status.RUNNING
    season.started = timezone.now()
    season.save(update_fields=["round_count", "status", "started"])


def _seeded(entries: list[Entry], variant: str) -> list[Entry]:
    """A knockout's entries in the order of their seeds (``leagues.knockout.seeding``): by
    the rating of the version each would play now, the unrated last."""
    seeds = knockout.seeding(
        [selectors.entry_rating(entry=entry, variant=variant) for entry in entries]
    )
    return [entry for _, entry in sorted(zip(seeds, entries, strict=True), key=lambda p: p[0])]


def _round_count(league: League, planned: int | None, sizes: list[int]) -> int:
    if league.format == League.Format.ROUND_ROBIN:
        return max(map(scheduling.round_robin_round_count, sizes))
    if league.format == League.Format.DOUBLE_ROUND_ROBIN:
        return max(map(scheduling.double_round_robin_round_count, sizes))
    if league.format == League.Format.SWISS:
        # Up to half the (even) field, a pairing without rematches always exists: the
        # pairs not yet met form a graph of degree at least n/2.
        limit = min((size + size % 2) // 2 for size in sizes)
        rounds = planned or max(map(scheduling.swiss_round_count, sizes))
        if rounds > limit:
            raise InvalidInput(
                f"a Swiss of {min(sizes)} entrants plays at most {limit} rounds without rematches",
                field="planned_rounds",
            )
        return rounds
    if league.format == League.Format.KNOCKOUT:
        return max(map(knockout.round_count, sizes))
    return planned or max(sizes) - 1


def _pairings(
    season: Season, division: Division | None, entries: dict[int, Entry], number: int
) -> list[scheduling.Pairing]:
    size = len(entries)
    league_format = season.league.format
    if league_format == League.Format.ROUND_ROBIN:
        if number > scheduling.round_robin_round_count(size):
            return []
        return scheduling.berger_round(size, number)
    if league_format == League.Format.DOUBLE_ROUND_ROBIN:
        if number > scheduling.double_round_robin_round_count(size):
            return []
        return scheduling.double_round_robin_round(size, number)
    if league_format == League.Format.KNOCKOUT:
        if number > knockout.round_count(size):
            return []
        winners = selectors.knockout_winners(season=season, division=division)
        return knockout.round_pairings(size, number, winners)
    if league_format == League.Format.SWISS:
        try:
            return scheduling.swiss_pairings(_swiss_field(season, division, entries))
        except scheduling.PairingImpossible as error:
            raise InvalidInput(str(error)) from None
    ladder = sorted(entries, key=lambda n: entries[n].rung or 0)
    return [
        (challenge.challenger, challenge.defender)
        for challenge in scheduling.ladder_challenges(ladder, reach=season.league.ladder_reach)
    ]


def _swiss_field(
    season: Season, division: Division | None, entries: dict[int, Entry]
) -> list[scheduling.SwissPlayer]:
    number_of = {entry.pk: number for number, entry in entries.items()}
    score = dict.fromkeys(entries, 0)
    opponents: dict[int, set[int]] = {number: set() for number in entries}
    had_bye = dict.fromkeys(entries, False)
    balance = dict.fromkeys(entries, 0)
    last_seat = dict.fromkeys(entries, "")
    for fixture in selectors.season_fixtures(season=season, division=division):
        result = selectors.fixture_result(fixture)
        x = number_of[fixture.entry_x_id]
        if result == Result.BYE:
            had_bye[x] = True
            score[x] += fixture_results.bye_points(swiss=True)
            continue
        y = number_of[fixture.entry_y_id]  # type: ignore[index]  # only a bye has no entry_y
        points_x, points_y = fixture_results.result_points(result)
        score[x] += points_x
        score[y] += points_y
        if result == Result.VOID:
            continue
        opponents[x].add(y)
        opponents[y].add(x)
        balance[x] += 1
        balance[y] -= 1
        last_seat[x], last_seat[y] = "x", "y"
    return [
        scheduling.SwissPlayer(
            number=number,
            score=score[number],
            opponents=frozenset(opponents[number]),
            had_bye=had_bye[number],
            seat_balance=balance[number],
            last_seat=last_seat[number],
        )
        for number in entries
    ]


def _fixture_create(
    round_: Round, division: Division | None, entry_x: Entry, entry_y: Entry | None
) -> Fixture:
    if entry_y is None:
        return Fixture.objects.create(
            round=round_, division=division, entry_x=entry_x, walkover=Fixture.Walkover.BYE
        )
    version_x = selectors.entry_version_now(entry=entry_x)
    version_y = selectors.entry_version_now(entry=entry_y)
    fixture = Fixture(
        round=round_,
        division=division,
        entry_x=entry_x,
        entry_y=entry_y,
        version_x=version_x,
        version_y=version_y,
    )
    if version_x is None or version_y is None:
        fixture.walkover = (
            Fixture.Walkover.BOTH_FORFEITED
            if version_x is None and version_y is None
            else Fixture.Walkover.X_FORFEITED
            if version_x is None
            else Fixture.Walkover.Y_FORFEITED
        )
    else:
        league = round_.season.league
        fixture.match = match_create(
            version_x=version_x,
            version_y=version_y,
            boards=league.boards_per_match,
            kind=Match.Kind.LEAGUE,
            requested_by=league.organiser,
            decision_ms=league.decision_ms,
            bank_ms=league.bank_ms,
            rule_overrides=league.rule_overrides,
        )
    fixture.save()
    return fixture


def round_close(*, round_id: int) -> bool:
    """Mark the round complete if every match of it has ended; True when it is complete."""
    season_id = Round.objects.values_list("season_id", flat=True).get(pk=round_id)
    with transaction.atomic():
        # The season is locked first, as round_schedule does, so the two never deadlock.
        season = (
            Season.objects.select_for_update(of=("self",))
            .select_related("league")
            .get(pk=season_id)
        )
        return _round_close_locked(season, Round.objects.get(pk=round_id))


def _round_close_locked(season: Season, round_: Round) -> bool:
    if round_.status == Round.Status.COMPLETE:
        return True
    fixtures = list(selectors.round_fixtures(round_=round_))
    if any(selectors.fixture_result(fixture) == Result.PENDING for fixture in fixtures):
        return False
    if season.league.format == League.Format.LADDER:
        _ladder_move(season, fixtures)
    round_.status = Round.Status.COMPLETE
    round_.completed = timezone.now()
    round_.save(update_fields=["status", "completed"])
    if round_.number == season.round_count:
        season.status = Season.Status.FINISHED
        season.finished = round_.completed
        season.save(update_fields=["status", "finished"])
    return True


def _ladder_move(season: Season, fixtures: list[Fixture]) -> None:
    for division, entries in _groups(season):
        ladder = sorted(entries, key=lambda n: entries[n].rung or 0)
        number_of = {entry.pk: number for number, entry in entries.items()}
        outcomes = {}
        for fixture in fixtures:
            if fixture.division_id != (division.pk if division else None):
                continue
            assert fixture.entry_y_id is not None
            challenge = scheduling.LadderChallenge(
                number_of[fixture.entry_x_id], number_of[fixture.entry_y_id]
            )
            outcomes[challenge] = promotion.challenger_won(selectors.fixture_result(fixture))
        for rung, number in enumerate(scheduling.ladder_after(ladder, outcomes), start=1):
            Entry.objects.filter(pk=entries[number].pk).update(rung=rung)


def rounds_close_ended() -> int:
    """Close every playing round whose matches have all ended; returns how many closed.

    The arena never calls back into the leagues, so completion is noticed by looking: here
    (periodically, for every league), by a league's timetable, and before a next round."""
    closed = 0
    for round_id in Round.objects.filter(status=Round.Status.PLAYING).values_list("pk", flat=True):
        closed += round_close(round_id=round_id)
    return closed


def league_advance(*, league_id: int) -> str:
    """What a league's timetable does: close the current round when its matches have
    ended and schedule the next one (round 1 once the season's start time has passed)."""
    season = Season.objects.filter(league_id=league_id).order_by("-number").first()
    if season is None:
        return "no season"
    try:
        if season.status == Season.Status.OPEN:
            if season.starts_at is None or season.starts_at > timezone.now():
                return "waiting for the season to start"
            round_, _ = round_schedule(season=season, number=1)
            return f"scheduled round {round_.number}"
        last = season.rounds.order_by("-number").first()
        if last is not None and not round_close(round_id=last.pk):
            return f"round {last.number} is being played"
        season.refresh_from_db()
        if season.status == Season.Status.FINISHED:
            return "season finished"
        round_, _ = round_schedule(season=season, number=1 if last is None else last.number + 1)
        return f"scheduled round {round_.number}"
    except InvalidInput as error:
        # A timetable cannot answer a request: the organiser sees the state in the API.
        logger.warning("league %s: the timetable could not schedule a round: %s", league_id, error)
        return f"not scheduled: {error}"


def league_timetable_set(*, league: League, every_minutes: int) -> PeriodicTask:
    """Let celery beat advance the league every ``every_minutes`` minutes."""
    if every_minutes < 1:
        raise InvalidInput("the timetable runs at most once a minute", field="every_minutes")
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        interval, _ = IntervalSchedule.objects.get_or_create(
            every=every_minutes, period=IntervalSchedule.MINUTES
        )
        task = league.timetable or PeriodicTask(name=f"league {league.pk}: next round")
        task.interval = interval
        task.task = ADVANCE_TASK
        task.kwargs = json.dumps({"league_id": league.pk})
        task.enabled = True
        task.save()
        league.timetable = task
        league.save(update_fields=["timetable"])
    return task


def league_timetable_clear(*, league: League) -> None:
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.timetable_id is not None:
            PeriodicTask.objects.filter(pk=league.timetable_id).delete()
