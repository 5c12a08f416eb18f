"""Input and output shapes of the arena API. No business logic lives here."""

from __future__ import annotations

import math
from typing import Any

from django.urls import reverse
from rest_framework import serializers

from arena.models import Bot, BotVersion, Match, Player, Rating, RatingChange
from arena.queues.positions import match_queue_position
from arena.selectors import RatingCheck
from arena.variant_fields import VariantChoiceField

ID_MAX = 2**63 - 1
"""The largest id the database can hold (a 64-bit key): a larger one is refused with a 400
naming the field, where the database would answer with a server error."""
SPRT_ELO_LIMIT = 1000.0
"""An SPRT hypothesis is an Elo difference of at most this size either way (more than any
two bots of one variant are apart)."""


def id_field(help_text: str, **options: Any) -> serializers.IntegerField:
    """An input naming a row by its id: a positive number the database can hold."""
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, help_text=help_text, **options)


class FiniteFloatField(serializers.FloatField):
    """A float that is a real number: ``nan``, ``inf`` and ``-inf`` are refused."""

    default_error_messages = {"not_finite": "A finite number is required."}

    def to_internal_value(self, data: Any) -> float:
        value = float(super().to_internal_value(data))
        if not math.isfinite(value):
            self.fail("not_finite")
        return value


class PlayerSerializer(serializers.ModelSerializer[Player]):
    username = serializers.CharField(source="user.username", read_only=True)
    bot_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Player
        fields = ["id", "username", "display_name", "created", "bot_count"]


class PlayerRegisterSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False)
    display_name = serializers.CharField(max_length=64, required=False, allow_blank=True)


class RegisteredPlayerSerializer(PlayerSerializer):
    token = serializers.CharField(read_only=True, help_text="API token for the new player")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "token"]


class BotSerializer(serializers.ModelSerializer[Bot]):
    owner = serializers.CharField(source="owner.user.username", read_only=True)
    owner_id = serializers.IntegerField(read_only=True)
    version_count = serializers.IntegerField(read_only=True)
    latest_version = serializers.IntegerField(read_only=True, allow_null=True)

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "owner",
            "owner_id",
            "variant",
            "description",
            "created",
            "version_count",
            "latest_version",
        ]


class BotCreateSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=64)
    variant = VariantChoiceField()
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)


def version_url(version: BotVersion) -> str:
    return reverse(
        "arena_api:bot-version-detail", kwargs={"bot_id": version.bot_id, "number": version.number}
    )


class BotVersionSerializer(serializers.ModelSerializer[BotVersion]):
    """What everyone may see of a version."""

    bot = serializers.IntegerField(source="bot_id", read_only=True)
    url = serializers.SerializerMethodField(help_text="this version's page in the API")

    class Meta:
        model = BotVersion
        fields = ["id", "url", "bot", "number", "kind", "status", "sha256", "size", "created"]

    def get_url(self, version: BotVersion) -> str:
        return version_url(version)


class OwnerBotVersionSerializer(BotVersionSerializer):
    """What only the bot's owner may see: why a version was refused, and the build log."""

    class Meta(BotVersionSerializer.Meta):
        fields = [
            *BotVersionSerializer.Meta.fields,
            "status_reason",
            "build_log",
            "publish_pending",
        ]


class BotVersionUploadSerializer(serializers.Serializer[dict[str, Any]]):
    file = serializers.FileField(
        required=False, help_text="multipart upload: a .py module or a .zip with bot.py"
    )
    # A declared field: DRF's metaclass moves it off the class, so Field.source is untouched.
    source = serializers.CharField(  # type: ignore[assignment]
        required=False, trim_whitespace=False, help_text="JSON upload: the module's source text"
    )
    filename = serializers.CharField(required=False, default="bot.py", max_length=255)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("file" in attrs) == ("source" in attrs):
            raise serializers.ValidationError(
                "send exactly one of 'file' (multipart) or 'source' (the module's text)"
            )
        return attrs


def _version_label(version: BotVersion) -> dict[str, Any]:
    return {
        "id": version.pk,
        "url": version_url(version),
        "bot": version.bot_id,
        "name": version.bot.name,
        "owner": version.bot.owner.user.username,
        "number": version.number,
    }


class MatchSerializer(serializers.ModelSerializer[Match]):
    version_x = serializers.SerializerMethodField()
    version_y = serializers.SerializerMethodField()
    requested_by = serializers.CharField(
        source="requested_by.user.username",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="who asked for the match; null for the matchmaker's and leagues' matches",
    )
    seed_commitment = serializers.SerializerMethodField(
        help_text="sha256 of the secret the boards are dealt from; null for a chosen seed"
    )
    seed_secret = serializers.SerializerMethodField(
        help_text="the secret, revealed once the match is done (null before)"
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "variant",
            "kind",
            "status",
            "board_count",
            "seed",
            "seed_chosen",
            "seed_commitment",
            "seed_secret",
            "decision_ms",
            "bank_ms",
            "rated",
            "version_x",
            "version_y",
            "requested_by",
            "created",
            "started",
            "finished",
            "attempts",
            "publish_pending",
            "score_x",
            "share_x",
            "mean_x",
            "ci95",
            "cv_mean_x",
            "cv_ci95",
            "table_seconds",
            "control_seconds",
            "controls_run",
            "faults",
            "error",
        ]

    def get_seed_commitment(self, match: Match) -> str | None:
        return match.seed_commitment or None

    def get_seed_secret(self, match: Match) -> str | None:
        # Before the end the secret gives every deal still to be played: never shown.
        if match.status != Match.Status.DONE or not match.seed_secret:
            return None
        return match.seed_secret

    def get_version_x(self, match: Match) -> dict[str, Any]:
        return _version_label(match.version_x)

    def get_version_y(self, match: Match) -> dict[str, Any]:
        return _version_label(match.version_y)


class MatchDetailSerializer(MatchSerializer):
    boards = serializers.SerializerMethodField()
    rules = serializers.JSONField(read_only=True)
    rating_changes = serializers.SerializerMethodField(
        help_text="what the match did to each side's rating (empty until it is rated)"
    )
    queue_position = serializers.SerializerMethodField(
        help_text="while queued, its place in its queue (1: the next to start); else null"
    )

    class Meta(MatchSerializer.Meta):
        fields = [
            *MatchSerializer.Meta.fields,
            "rules",
            "boards",
            "rating_changes",
            "queue_position",
        ]

    def get_queue_position(self, match: Match) -> int | None:
        return match_queue_position(match)

    def get_rating_changes(self, match: Match) -> list[dict[str, Any]]:
        return [
            {"version": change.rating.version_id, **MatchRatingChangeSerializer(change).data}
            for change in match.rating_changes.select_related("rating").order_by("id")
        ]

    def get_boards(self, match: Match) -> list[dict[str, Any]]:
        tables: dict[int, dict[str, Any]] = {}
        for game in match.games.all().order_by("number", "table"):
            entry = tables.setdefault(game.number, {"board": game.number, "tables": {}})
            entry["tables"][game.table] = {"team_scores": game.team_scores, "fault": game.fault}
        for number, result in enumerate(match.board_results, start=1):
            if number in tables:
                tables[number]["result_x"] = result
        return [tables[number] for number in sorted(tables)]


class MatchCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """Each side is a version id, or a bot id with a version number, or a bot id alone (its
    latest active version)."""

    version = id_field("your bot version's id (plays as X)", required=False)
    bot = id_field("your bot's id: its version 'number', or its latest active one", required=False)
    number = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text="with 'bot'"
    )
    opponent = id_field("the opponent's version id", required=False)
    opponent_bot = id_field(
        "the opponent bot's id: its 'opponent_number', or its latest active version",
        required=False,
    )
    opponent_number = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text="with 'opponent_bot'"
    )
    boards = serializers.IntegerField(min_value=1, max_value=1000, default=100)
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        help_text="deal from this seed (unrated matches only; rated ones are dealt from a "
        "secret the server commits to)",
    )
    rated = serializers.BooleanField(default=True, help_text="false for a friendly match")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for version, bot, number in MATCH_SIDES:
            if (version in attrs) == (bot in attrs):
                raise serializers.ValidationError(
                    {version: f"give either '{version}' (a version id) or '{bot}' (a bot id)"}
                )
            if number in attrs and bot not in attrs:
                raise serializers.ValidationError({number: f"'{number}' goes with '{bot}'"})
        return attrs


MATCH_SIDES = (("version", "bot", "number"), ("opponent", "opponent_bot", "opponent_number"))
"""How each side of a challenge may be named: (version id, bot id, version number)."""


class RatingSerializer(serializers.ModelSerializer[Rating]):
    """A leaderboard row: the board-level rating with its 95% interval."""

    version = serializers.SerializerMethodField()
    low = serializers.FloatField(source="elo_low", help_text="the 95% interval's lower end")
    high = serializers.FloatField(source="elo_high", help_text="the 95% interval's upper end")
    disabled = serializers.SerializerMethodField(
        help_text="the version was disabled (faults): it plays no more matches"
    )

    class Meta:
        model = Rating
        fields = [
            "variant",
            "version",
            "elo",
            "low",
            "high",
            "matches",
            "boards",
            "boards_to_separate",
            "disabled",
            "last_match",
        ]

    def get_version(self, rating: Rating) -> dict[str, Any]:
        return _version_label(rating.version)

    def get_disabled(self, rating: Rating) -> bool:
        return rating.version.status == BotVersion.Status.DISABLED


def model_check_data(found: RatingCheck | None) -> dict[str, Any] | None:
    """The leaderboard's model check: the deviance of the ratings against each pair's own
    score, its degrees of freedom and p-value, whether the fit is poor, and every pair
    beyond two standard errors (worst first), seen from its first version."""
    if found is None:
        return None
    check = found.check
    return {
        "deviance": check.deviance,
        "degrees_of_freedom": check.degrees_of_freedom,
        "p_value": check.p_value,
        "poor": check.poor,
        "disagreements": [
            {
                "version": _version_label(found.versions[item.first]),
                "opponent": _version_label(found.versions[item.second]),
                "boards": item.boards,
                "score": item.score,
                "expected": item.expected,
                "residual": item.residual,
            }
            for item in check.disagreements
        ],
    }


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    """One match's boards in a version's rating, and the rating before and after it."""

    variant = serializers.CharField(source="rating.variant")
    match = serializers.IntegerField(source="match_id")

    class Meta:
        model = RatingChange
        fields = [
            "variant",
            "match",
            "before",
            "after",
            "wins",
            "draws",
            "losses",
            "score",
            "expected",
            "created",
        ]


class MatchRatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    class Meta:
        model = RatingChange
        fields = ["before", "after", "wins", "draws", "losses", "score", "expected"]


class LeaderboardQuerySerializer(serializers.Serializer[dict[str, Any]]):
    variant = VariantChoiceField(required=False)
    disabled = serializers.BooleanField(
        default=False, help_text="also list the versions disabled for faults (marked)"
    )


class SprtQuerySerializer(serializers.Serializer[dict[str, Any]]):
    a = id_field("the new version")
    b = id_field("the version it is compared with")
    elo0 = FiniteFloatField(default=0.0, min_value=-SPRT_ELO_LIMIT, max_value=SPRT_ELO_LIMIT)
    elo1 = FiniteFloatField(default=10.0, min_value=-SPRT_ELO_LIMIT, max_value=SPRT_ELO_LIMIT)
    alpha = FiniteFloatField(default=0.05, min_value=1e-6, max_value=0.5)
    beta = FiniteFloatField(default=0.05, min_value=1e-6, max_value=0.5)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["elo1"] <= attrs["elo0"]:
            raise serializers.ValidationError({"elo1": "elo1 must be greater than elo0"})
        if attrs["a"] == attrs["b"]:
            raise serializers.ValidationError({"b": "a version is not tested against itself"})
        return attrs
