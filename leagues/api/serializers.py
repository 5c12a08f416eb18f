"""Input and output shapes of the leagues API. No business logic lives here."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.api.serializers import id_field
from arena.http.input_fields import FormDictField, SentTextField
from arena.services.matches import MAX_BOARDS
from leagues.fixture_results import result_points
from leagues.models import Division, Entry, Fixture, League, Round, Season
from leagues.selectors import fixture_result

# The largest value each numeric input accepts (the smallest is checked by the services).
# Each is far beyond any sensible league and well inside the database's column.
MAX_DECISION_MS = 60_000
"""A minute per decision."""
MAX_BANK_MS = 3_600_000
"""An hour of time bank per bot and board."""
MAX_LADDER_REACH = 100
"""Rungs a ladder challenge may reach up."""
MAX_PLANNED_ROUNDS = 500
MAX_DIVISION_MOVES = 1000
"""Bots promoted or relegated from one division."""
MAX_EVERY_MINUTES = 525_600
"""A year between rounds."""
MAX_ROUND_NUMBER = 10_000
MAX_VERSION_NUMBER = 2**31 - 1
"""Version numbers are 32-bit columns."""


def _limited(
    maximum: int, *, minimum: int | None = None, **options: Any
) -> serializers.IntegerField:
    # DRF takes None for "no minimum" (its default); the stub types min_value as int only.
    return serializers.IntegerField(min_value=minimum, max_value=maximum, **options)  # type: ignore[arg-type]


class LeagueTimetableSerializer(serializers.Serializer[dict[str, Any]]):
    every_minutes = _limited(MAX_EVERY_MINUTES, minimum=1, help_text="at most a year")
    enabled = serializers.BooleanField(read_only=True)
    last_run_at = serializers.DateTimeField(read_only=True, allow_null=True)


class LeagueSerializer(serializers.ModelSerializer[League]):
    organiser = serializers.CharField(source="organiser.user.username", read_only=True)
    season_count = serializers.IntegerField(read_only=True)
    timetable = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "description",
            "organiser",
            "variant",
            "rule_overrides",
            "format",
            "boards_per_match",
            "decision_ms",
            "bank_ms",
            "allow_follow_latest",
            "ladder_reach",
            "timetable",
            "season_count",
            "created",
        ]

    @extend_schema_field(LeagueTimetableSerializer(allow_null=True))
    def get_timetable(self, league: League) -> dict[str, Any] | None:
        return timetable_data(league)


def timetable_data(league: League) -> dict[str, Any] | None:
    task = league.timetable
    if task is None or task.interval is None:
        return None
    return {
        "every_minutes": task.interval.every,
        "enabled": task.enabled,
        "last_run_at": task.last_run_at,
    }


class LeagueCreateSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(max_length=4000, required=False, allow_blank=True)
    variant = serializers.CharField(max_length=32, help_text="a registered variant, by its name")
    format = serializers.CharField(
        max_length=32, help_text="round_robin, double_round_robin, swiss, ladder or knockout"
    )
    rule_overrides = FormDictField(required=False)
    boards_per_match = _limited(MAX_BOARDS, required=False, help_text=f"at most {MAX_BOARDS}")
    decision_ms = _limited(
        MAX_DECISION_MS, required=False, help_text=f"at most {MAX_DECISION_MS} (a minute)"
    )
    bank_ms = _limited(MAX_BANK_MS, required=False, help_text=f"at most {MAX_BANK_MS} (an hour)")
    allow_follow_latest = serializers.BooleanField(required=False)
    ladder_reach = _limited(
        MAX_LADDER_REACH, required=False, help_text=f"at most {MAX_LADDER_REACH} rungs"
    )


class LeagueUpdateSerializer(serializers.Serializer[dict[str, Any]]):
    """Variant, format and rules are accepted only to be refused with a clear message."""

    name = SentTextField(max_length=100, required=False)
    description = serializers.CharField(max_length=4000, required=False, allow_blank=True)
    boards_per_match = _limited(MAX_BOARDS, required=False, help_text=f"at most {MAX_BOARDS}")
    decision_ms = _limited(
        MAX_DECISION_MS, required=False, help_text=f"at most {MAX_DECISION_MS} (a minute)"
    )
    bank_ms = _limited(MAX_BANK_MS, required=False, help_text=f"at most {MAX_BANK_MS} (an hour)")
    allow_follow_latest = serializers.BooleanField(required=False)
    ladder_reach = _limited(
        MAX_LADDER_REACH, required=False, help_text=f"at most {MAX_LADDER_REACH} rungs"
    )
    variant = serializers.CharField(required=False)
    format = serializers.CharField(required=False)
    rule_overrides = FormDictField(required=False)


class LeagueDivisionSerializer(serializers.ModelSerializer[Division]):
    class Meta:
        model = Division
        fields = ["name", "level", "promoted", "relegated"]
        read_only_fields = ["level"]


class LeagueSeasonSerializer(serializers.ModelSerializer[Season]):
    divisions = LeagueDivisionSerializer(many=True, read_only=True)
    entry_count = serializers.IntegerField(read_only=True)
    rounds_scheduled = serializers.IntegerField(read_only=True)

    class Meta:
        model = Season
        fields = [
            "number",
            "name",
            "status",
            "planned_rounds",
            "round_count",
            "rounds_scheduled",
            "starts_at",
            "entry_count",
            "divisions",
            "created",
            "started",
            "finished",
        ]


class LeagueDivisionInputSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=64)
    promoted = _limited(MAX_DIVISION_MOVES, minimum=0, default=0)
    relegated = _limited(MAX_DIVISION_MOVES, minimum=0, default=0)


class LeagueSeasonCreateSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    planned_rounds = _limited(
        MAX_PLANNED_ROUNDS,
        required=False,
        help_text=f"Swiss and ladder only; at most {MAX_PLANNED_ROUNDS}",
    )
    starts_at = serializers.DateTimeField(
        required=False, help_text="when the timetable may schedule round 1"
    )
    divisions = LeagueDivisionInputSerializer(many=True, required=False, help_text="top first")
    carry_over = serializers.BooleanField(
        default=False,
        help_text="copy the previous season's divisions and entries, with promotion and "
        "relegation applied",
    )


class LeagueEntrySerializer(serializers.ModelSerializer[Entry]):
    bot = serializers.IntegerField(source="bot_id", read_only=True)
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    owner = serializers.CharField(source="bot.owner.user.username", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True, allow_null=True)
    division = serializers.CharField(source="division.name", read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "bot",
            "bot_name",
            "owner",
            "version",
            "follows_latest",
            "division",
            "number",
            "rung",
            "created",
        ]


class LeagueEntryCreateSerializer(serializers.Serializer[dict[str, Any]]):
    bot = id_field("the id of one of your bots")
    version = _limited(
        MAX_VERSION_NUMBER,
        minimum=1,
        required=False,
        help_text="a version number; by default the bot's latest active one",
    )
    follows_latest = serializers.BooleanField(
        default=False, help_text="play the latest active version at each fixture"
    )
    division = serializers.CharField(required=False, help_text="a division's name")


class LeagueRoundSerializer(serializers.ModelSerializer[Round]):
    fixture_count = serializers.IntegerField(read_only=True)
    matches_playing = serializers.IntegerField(
        read_only=True, help_text="matches of the round not yet done or failed"
    )

    class Meta:
        model = Round
        fields = [
            "number",
            "status",
            "seed",
            "fixture_count",
            "matches_playing",
            "created",
            "completed",
        ]


class LeagueRoundScheduleSerializer(serializers.Serializer[dict[str, Any]]):
    number = _limited(
        MAX_ROUND_NUMBER,
        minimum=1,
        help_text="the round to schedule; asking again for it creates nothing",
    )


class LeagueFixtureSideSerializer(serializers.Serializer[dict[str, Any]]):
    entry = serializers.IntegerField()
    bot = serializers.CharField()
    owner = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()


class LeagueFixtureSerializer(serializers.ModelSerializer[Fixture]):
    division = serializers.CharField(source="division.name", read_only=True, allow_null=True)
    x = serializers.SerializerMethodField()
    y = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    match = serializers.IntegerField(source="match_id", read_only=True, allow_null=True)
    match_status = serializers.CharField(source="match.status", read_only=True, allow_null=True)
    score_x = serializers.IntegerField(source="match.score_x", read_only=True, allow_null=True)
    mean_x = serializers.FloatField(source="match.mean_x", read_only=True, allow_null=True)
    ci95 = serializers.FloatField(source="match.ci95", read_only=True, allow_null=True)

    class Meta:
        model = Fixture
        fields = [
            "id",
            "division",
            "x",
            "y",
            "walkover",
            "result",
            "match",
            "match_status",
            "score_x",
            "mean_x",
            "ci95",
        ]

    @extend_schema_field(serializers.CharField())
    def get_result(self, fixture: Fixture) -> str:
        return fixture_result(fixture).value

    @extend_schema_field(LeagueFixtureSideSerializer())
    def get_x(self, fixture: Fixture) -> dict[str, Any]:
        return _side(fixture.entry_x, fixture.version_x, result_points(fixture_result(fixture))[0])

    @extend_schema_field(LeagueFixtureSideSerializer(allow_null=True))
    def get_y(self, fixture: Fixture) -> dict[str, Any] | None:
        if fixture.entry_y is None:
            return None
        return _side(fixture.entry_y, fixture.version_y, result_points(fixture_result(fixture))[1])


def _side(entry: Entry, version: Any, points: int) -> dict[str, Any]:
    return {
        "entry": entry.pk,
        "bot": entry.bot.name,
        "owner": entry.bot.owner.user.username,
        "version": None if version is None else version.number,
        "points": points,
    }


class LeagueRoundDetailSerializer(LeagueRoundSerializer):
    fixtures = LeagueFixtureSerializer(many=True, read_only=True)

    class Meta(LeagueRoundSerializer.Meta):
        fields = [*LeagueRoundSerializer.Meta.fields, "fixtures"]


class LeagueStandingRowSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk")
    bot = serializers.CharField(source="entry.bot.name")
    owner = serializers.CharField(source="entry.bot.owner.user.username")
    version = serializers.IntegerField(source="entry.version.number", allow_null=True)
    rung = serializers.IntegerField(source="entry.rung", allow_null=True)
    played = serializers.IntegerField(source="row.played")
    won = serializers.IntegerField(source="row.won")
    drawn = serializers.IntegerField(source="row.drawn")
    lost = serializers.IntegerField(source="row.lost")
    byes = serializers.IntegerField(source="row.byes")
    points = serializers.IntegerField(source="row.points")
    board_difference = serializers.IntegerField(source="row.board_difference")
    buchholz = serializers.IntegerField(source="row.buchholz")
    sonneborn_berger = serializers.FloatField(source="row.sonneborn_berger")


class LeagueDivisionTableSerializer(serializers.Serializer[dict[str, Any]]):
    division = serializers.CharField(source="division.name", allow_null=True)
    rows = LeagueStandingRowSerializer(many=True)


class LeagueStandingsSerializer(serializers.Serializer[dict[str, Any]]):
    season = serializers.IntegerField()
    status = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    divisions = LeagueDivisionTableSerializer(many=True)


class LeagueBracketSideSerializer(serializers.Serializer[dict[str, Any]]):
    seed = serializers.IntegerField(allow_null=True, help_text="null while not yet known")
    entry = serializers.IntegerField(source="entry.pk", allow_null=True, default=None)
    bot = serializers.CharField(source="entry.bot.name", allow_null=True, default=None)
    owner = serializers.CharField(
        source="entry.bot.owner.user.username", allow_null=True, default=None
    )
    advanced = serializers.BooleanField()
    score = serializers.IntegerField(
        allow_null=True, help_text="this side's total board result in the tie's match"
    )


class LeagueBracketTieSerializer(serializers.Serializer[dict[str, Any]]):
    x = LeagueBracketSideSerializer(source="top")
    y = LeagueBracketSideSerializer(source="bottom", allow_null=True, help_text="null: a bye")
    match = serializers.IntegerField(source="fixture.match_id", allow_null=True, default=None)
    decided_by = serializers.CharField()


class LeagueBracketRoundSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(
        source="round.status", allow_null=True, default=None, help_text="null: not scheduled"
    )
    ties = LeagueBracketTieSerializer(many=True)


class LeagueBracketSerializer(serializers.Serializer[dict[str, Any]]):
    division = serializers.CharField(source="division.name", allow_null=True, default=None)
    champion = serializers.IntegerField(
        source="champion.pk", allow_null=True, default=None, help_text="the champion's entry"
    )
    rounds = LeagueBracketRoundSerializer(many=True)


class LeagueSeasonBracketSerializer(serializers.Serializer[dict[str, Any]]):
    season = serializers.IntegerField(source="season.number")
    status = serializers.CharField(source="season.status")
    brackets = LeagueBracketSerializer(
        many=True, help_text="one a division; empty until round 1 fixes the seeds"
    )
