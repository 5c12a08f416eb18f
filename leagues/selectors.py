"""Leagues: reads for the API and the services, standings included."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from arena.models import Bot, BotVersion, Match, Player, Rating
from leagues import fixture_results, knockout, promotion, scheduling
from leagues.fixture_results import Result
from leagues.models import Division, Entry, Fixture, League, Round, Season


def fixture_result(fixture: Fixture) -> Result:
    """The fixture's result, from its walkover or its match (``leagues.fixture_results``)."""
    match = fixture.match
    # Only a walkover has no match (a constraint of the table).
    assert fixture.walkover or match is not None
    return fixture_results.fixture_result(
        walkover=fixture.walkover,
        failed=match is not None and match.status == Match.Status.FAILED,
        score_x=match.score_x if match is not None and match.status == Match.Status.DONE else None,
    )


def tie_outcome(fixture: Fixture) -> knockout.TieOutcome:
    """The fixture read as a knockout tie: its result and the boards each side won."""
    result = fixture_result(fixture)
    if result not in fixture_results.PLAYED:
        return knockout.TieOutcome(result)
    assert fixture.match is not None
    return knockout.TieOutcome(result, *knockout.boards_won(fixture.match.board_results))


def knockout_winners(*, season: Season, division: Division | None) -> dict[frozenset[int], int]:
    """Each decided tie of a knockout (the two seeds, which are the entries' numbers) with
    the seed that advanced (``leagues.knockout.tie_winner``); byes are the bracket's own."""
    winners = {}
    fixtures = season_fixtures(season=season, division=division).select_related(
        "entry_x", "entry_y"
    )
    for fixture in fixtures:
        if fixture.entry_y is None:
            continue
        x, y = fixture.entry_x.number, fixture.entry_y.number
        assert x is not None and y is not None  # numbered when round 1 is scheduled
        winner = knockout.tie_winner(x, y, tie_outcome(fixture))
        if winner is not None:
            winners[frozenset((x, y))] = winner
    return winners


def entry_rating(*, entry: Entry, variant: str) -> float | None:
    """The rating, in ``variant``, of the version that would play for the entry now (its
    fixed version, or its bot's latest active one); None when it has none."""
    version = entry_version_now(entry=entry)
    if version is None:
        return None
    return (
        Rating.objects.filter(version=version, variant=variant)
        .values_list("elo", flat=True)
        .first()
    )


def latest_active_version(*, bot: Bot) -> BotVersion | None:
    return (
        bot.versions.defer("source")
        .filter(status=BotVersion.Status.ACTIVE)
        .order_by("-number")
        .first()
    )


def entry_version_now(*, entry: Entry) -> BotVersion | None:
    """The version that plays for the entry now, or None if it has no active version."""
    if entry.follows_latest:
        return latest_active_version(bot=entry.bot)
    # A pinned entry has a version (the entry_version_or_follows_latest constraint).
    version = BotVersion.objects.defer("source").get(pk=entry.version_id)  # type: ignore[misc]
    return version if version.status == BotVersion.Status.ACTIVE else None


def league_list() -> QuerySet[League]:
    return (
        League.objects.select_related("organiser__user", "timetable__interval")
        .annotate(season_count=Count("seasons", distinct=True))
        .order_by("id")
    )


def season_list(*, league: League) -> QuerySet[Season]:
    return (
        Season.objects.filter(league=league)
        .prefetch_related("divisions")
        .annotate(
            entry_count=Count("entries", distinct=True),
            rounds_scheduled=Count("rounds", distinct=True),
        )
        .order_by("number")
    )


def entry_list(*, season: Season) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(season=season)
        .select_related("bot__owner__user", "version", "division")
        .order_by("division__level", "number", "id")
    )


_ENDED = [Match.Status.DONE, Match.Status.FAILED]


def round_list(*, season: Season) -> QuerySet[Round]:
    return (
        Round.objects.filter(season=season)
        .annotate(
            fixture_count=Count("fixtures", distinct=True),
            matches_playing=Count(
                "fixtures",
                filter=Q(fixtures__match__isnull=False) & ~Q(fixtures__match__status__in=_ENDED),
                distinct=True,
            ),
        )
        .order_by("number")
    )


def round_list_with_fixtures(*, season: Season) -> QuerySet[Round]:
    return round_list(season=season).prefetch_related(
        Prefetch("fixtures", queryset=_fixtures_in_full())
    )


def round_fixtures(*, round_: Round) -> QuerySet[Fixture]:
    return _fixtures_in_full().filter(round=round_)


def _fixtures_in_full() -> QuerySet[Fixture]:
    return (
        Fixture.objects.select_related(
            "match",
            "division",
            "entry_x__bot__owner__user",
            "entry_y__bot__owner__user",
            "version_x",
            "version_y",
        )
        .defer("match__stderr", "version_x__source", "version_y__source")
        .order_by("division__level", "id")
    )


def season_fixtures(*, season: Season, division: Division | None) -> QuerySet[Fixture]:
    return (
        Fixture.objects.filter(round__season=season, division=division)
        .select_related("match")
        .defer("match__stderr")
        .order_by("round__number", "id")
    )


@dataclass(frozen=True)
class StandingLine:
    rank: int
    entry: Entry
    row: scheduling.StandingRow


@dataclass(frozen=True)
class DivisionTable:
    division: Division | None
    rows: list[StandingLine]


def season_standings(*, season: Season) -> list[DivisionTable]:
    """The standings of each division (or of the whole season), from the results so far.

    Tiebreaks (``leagues.scheduling.standings``): points, then board-score difference, then
    Sonneborn-Berger for a round robin; points, Buchholz, board-score difference,
    Sonneborn-Berger for a Swiss. A ladder ranks by rung.
    """
    league = season.league
    divisions: list[Division | None] = list(season.divisions.order_by("level")) or [None]
    entries = list(entry_list(season=season))
    tables = []
    for division in divisions:
        group = [
            entry for entry in entries if entry.division_id == (division.pk if division else None)
        ]
        key = {entry.pk: index for index, entry in enumerate(group, start=1)}
        games, byes, forfeits = [], [], []
        for fixture in season_fixtures(season=season, division=division):
            result = fixture_result(fixture)
            x, y = key[fixture.entry_x_id], key.get(fixture.entry_y_id or 0)
            if result == Result.BYE:
                byes.append(x)
            elif result in fixture_results.PLAYED:
                assert y is not None and fixture.match is not None
                games.append(scheduling.GameResult(x, y, fixture.match.score_x or 0))
            elif y is not None:
                forfeits.extend(fixture_results.forfeits(result, x, y))
        rows = scheduling.standings(
            key.values(),
            games,
            byes=byes,
            bye_points=fixture_results.bye_points(swiss=league.format == League.Format.SWISS),
            forfeits=forfeits,
            swiss=league.format == League.Format.SWISS,
        )
        by_key = {index: entry for entry, index in zip(group, key.values(), strict=True)}
        if league.format == League.Format.LADDER:
            rows.sort(key=lambda row: promotion.ladder_rank(by_key[row.number].rung, row.number))
        if league.format == League.Format.KNOCKOUT and season.round_count is not None:
            # The seeds are the entries' numbers, fixed with round 1.
            place = _knockout_places(season, division, group)
            rows.sort(key=lambda row: place[by_key[row.number].pk])
        tables.append(
            DivisionTable(
                division=division,
                rows=[
                    StandingLine(rank=rank, entry=by_key[row.number], row=row)
                    for rank, row in enumerate(rows, start=1)
                ],
            )
        )
    return tables


def _knockout_places(
    season: Season, division: Division | None, group: list[Entry]
) -> dict[int, int]:
    """Each entry's place in a knockout (``leagues.knockout.elimination_order``), by id."""
    seeded = {entry.number: entry.pk for entry in group}
    order = knockout.elimination_order(
        len(group), knockout_winners(season=season, division=division)
    )
    return {seeded[seed]: place for place, seed in enumerate(order)}


# --- Reads for the web pages: one call per page, returning everything that page shows. ---


@dataclass(frozen=True)
class LeaguePage:
    league: League
    seasons: list[Season]


def league_page(*, league_id: int) -> LeaguePage:
    """A league with its seasons. Raises ``League.DoesNotExist``."""
    league = league_list().get(pk=league_id)
    return LeaguePage(league=league, seasons=list(season_list(league=league)))


@dataclass(frozen=True)
class MarkedLine:
    """A standings line with its division's promotion or relegation mark."""

    line: StandingLine
    mark: str
    """"promoted", "relegated" or ""."""


@dataclass(frozen=True)
class MarkedTable:
    division: Division | None
    lines: list[MarkedLine]


RESULT_LABELS = {
    Result.PENDING: "to be played",
    Result.X_WON: "X won",
    Result.DRAWN: "drawn",
    Result.Y_WON: "Y won",
    Result.BYE: "bye",
    Result.X_FORFEITED: "X forfeited",
    Result.Y_FORFEITED: "Y forfeited",
    Result.BOTH_FORFEITED: "both forfeited",
    Result.VOID: "void (the match failed)",
}


@dataclass(frozen=True)
class FixtureOnPage:
    fixture: Fixture
    result: Result
    points_x: int
    points_y: int

    @property
    def label(self) -> str:
        return RESULT_LABELS[self.result]


@dataclass(frozen=True)
class RoundOnPage:
    round: Round
    fixtures: list[FixtureOnPage]


@dataclass(frozen=True)
class SeasonPage:
    season: Season
    league: League
    rounds: list[RoundOnPage]
    standings: list[MarkedTable]
    divisions: list[Division]
    viewer_bots: list[Bot]
    """The reader's bots of the league's variant, which she may enter."""


def season_page(*, league_id: int, number: int, viewer_id: int | None) -> SeasonPage:
    """A season's rounds with their fixtures, its standings (every entry has a line) marked
    for promotion and relegation, and the bots the reader ``viewer_id`` could enter.

    Raises ``Season.DoesNotExist``."""
    season = (
        Season.objects.select_related("league__organiser__user")
        .prefetch_related("divisions")
        .get(league_id=league_id, number=number)
    )
    tables = [
        MarkedTable(
            division=table.division,
            lines=[
                MarkedLine(line, _mark(table.division, line.rank, len(table.rows)))
                for line in table.rows
            ],
        )
        for table in season_standings(season=season)
    ]
    return SeasonPage(
        season=season,
        league=season.league,
        rounds=[
            RoundOnPage(
                round_,
                [_fixture_on_page(fixture, season.league) for fixture in round_.fixtures.all()],
            )
            for round_ in round_list_with_fixtures(season=season)
        ],
        standings=tables,
        divisions=list(season.divisions.all()),
        viewer_bots=[]
        if viewer_id is None
        else list(
            Bot.objects.filter(owner__user_id=viewer_id, variant=season.league.variant).order_by(
                "name"
            )
        ),
    )


def _fixture_on_page(fixture: Fixture, league: League) -> FixtureOnPage:
    result = fixture_result(fixture)
    if result == Result.BYE:
        swiss = league.format == League.Format.SWISS
        return FixtureOnPage(fixture, result, fixture_results.bye_points(swiss=swiss), 0)
    return FixtureOnPage(fixture, result, *fixture_results.result_points(result))


def _mark(division: Division | None, rank: int, size: int) -> str:
    """The standings' mark of a place: where the season's end moves it (``leagues.promotion``)."""
    if division is None:
        return ""
    move = promotion.season_move(
        rank, size, promoted=division.promoted, relegated=division.relegated
    )
    return move.value


def running_leagues() -> QuerySet[League]:
    """Leagues with a season being played, for the home page."""
    return league_list().filter(seasons__status=Season.Status.RUNNING).distinct().order_by("-id")


def is_organiser(*, league: League, viewer: Player | None) -> bool:
    """Whether ``viewer`` organises ``league`` (opens its seasons, schedules its rounds)."""
    return viewer is not None and league.organiser_id == viewer.pk


def league_get(*, league_id: int) -> League | None:
    return League.objects.select_related("organiser__user").filter(pk=league_id).first()


def season_get(*, league_id: int, number: int) -> Season | None:
    return (
        Season.objects.select_related("league__organiser__user")
        .filter(league_id=league_id, number=number)
        .first()
    )


def bot_version_numbered(*, bot: Bot, number: int) -> BotVersion | None:
    return bot.versions.defer("source").filter(number=number).first()


def division_named(*, season: Season, name: str) -> Division | None:
    return season.divisions.filter(name=name).first()


# --- A knockout's bracket page. ---


@dataclass(frozen=True)
class BracketSide:
    """One side of a tie: a seed and its entry, or nobody yet (``entry`` None)."""

    seed: int | None
    entry: Entry | None
    advanced: bool
    score: int | None
    """The side's total board result in the tie's match, once it is done."""


@dataclass(frozen=True)
class BracketTie:
    top: BracketSide
    bottom: BracketSide | None
    """None for a bye."""
    fixture: Fixture | None
    decided_by: str
    """How the tie was decided, for a reader ("" while it is open)."""


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str
    ties: list[BracketTie]
    round: Round | None
    """The scheduled round, None before it is scheduled."""


@dataclass(frozen=True)
class DivisionBracket:
    division: Division | None
    rounds: list[BracketRound]
    champion: Entry | None


@dataclass(frozen=True)
class BracketPage:
    season: Season
    league: League
    brackets: list[DivisionBracket]
    """Empty until round 1 fixes the seeds."""


DECIDED_BY = {
    Result.X_WON: "on the board total",
    Result.Y_WON: "on the board total",
    Result.DRAWN: "",  # more boards won, or the better seed: told apart below
    Result.X_FORFEITED: "by forfeit",
    Result.Y_FORFEITED: "by forfeit",
    Result.BOTH_FORFEITED: "both forfeited: the better seed goes through",
    Result.VOID: "the match failed: the better seed goes through",
    Result.PENDING: "",
    Result.BYE: "bye",
}


def round_name(number: int, rounds: int) -> str:
    """What a knockout's round is called: the final, the semi-finals, ... or its number.

    >>> [round_name(n, 4) for n in (1, 2, 3, 4)]
    ['Round 1', 'Quarter-finals', 'Semi-finals', 'Final']
    """
    from_the_end = rounds - number
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(from_the_end, f"Round {number}")


def bracket_page(*, league_id: int, number: int) -> BracketPage:
    """A knockout season's bracket, per division: every round to the final, the ties known
    so far with their seeds, results and matches, and the champion once there is one.

    Raises ``Season.DoesNotExist`` (also for a season of another format)."""
    season = Season.objects.select_related("league__organiser__user").get(
        league_id=league_id, number=number, league__format=League.Format.KNOCKOUT
    )
    brackets = []
    if season.round_count is not None:
        rounds = {round_.number: round_ for round_ in round_list(season=season)}
        entries = list(entry_list(season=season))
        divisions: list[Division | None] = list(season.divisions.order_by("level")) or [None]
        for division in divisions:
            group = {
                entry.number: entry
                for entry in entries
                if entry.division_id == (division.pk if division else None)
                and entry.number is not None
            }
            brackets.append(_division_bracket(season, division, group, rounds))
    return BracketPage(season=season, league=season.league, brackets=brackets)


def _division_bracket(
    season: Season, division: Division | None, seeded: dict[int, Entry], rounds: dict[int, Round]
) -> DivisionBracket:
    fixtures: dict[frozenset[int], Fixture] = {}
    for fixture in _fixtures_in_full().filter(round__season=season, division=division):
        seeds = [fixture.entry_x.number] + ([fixture.entry_y.number] if fixture.entry_y else [])
        fixtures[frozenset(seed for seed in seeds if seed is not None)] = fixture
    winners = knockout_winners(season=season, division=division)
    size = len(seeded)
    shown = []
    for ties in knockout.bracket(size, winners):
        number = ties[0].round
        shown.append(
            BracketRound(
                number=number,
                name=round_name(number, knockout.round_count(size)),
                ties=[_bracket_tie(tie, seeded, fixtures) for tie in ties],
                round=rounds.get(number),
            )
        )
    title = knockout.champion(size, winners)
    return DivisionBracket(
        division=division, rounds=shown, champion=None if title is None else seeded[title]
    )


def _bracket_tie(
    tie: knockout.Tie, seeded: dict[int, Entry], fixtures: dict[frozenset[int], Fixture]
) -> BracketTie:
    seeds = {seed for seed in (tie.x, tie.y) if seed is not None}
    fixture = fixtures.get(frozenset(seeds)) if tie.bye or len(seeds) == 2 else None
    score_x = None
    decided_by = ""
    if fixture is not None:
        outcome = tie_outcome(fixture)
        decided_by = DECIDED_BY[outcome.result]
        if outcome.result in fixture_results.PLAYED:
            assert fixture.match is not None
            score_x = fixture.match.score_x
        if outcome.result == Result.DRAWN:
            decided_by = (
                "drawn: the better seed goes through"
                if outcome.boards_won_x == outcome.boards_won_y
                else "drawn: more boards won, "
                f"{max(outcome.boards_won_x, outcome.boards_won_y)} to "
                f"{min(outcome.boards_won_x, outcome.boards_won_y)}"
            )

    def side(seed: int | None) -> BracketSide:
        score = None
        if fixture is not None and score_x is not None and seed is not None:
            score = score_x if seed == fixture.entry_x.number else -score_x
        return BracketSide(
            seed=seed,
            entry=None if seed is None else seeded[seed],
            advanced=seed is not None and seed == tie.winner,
            score=score,
        )

    return BracketTie(
        top=side(tie.x),
        bottom=None if tie.bye else side(tie.y),
        fixture=fixture,
        decided_by=decided_by,
    )
