"""Input and output shapes of the arena API. No business logic lives here."""

from __future__ import annotations

import math
from typing import Any

from rest_framework import serializers

from arena.models import Bot, BotVersion, Match, Player, Rating, RatingChange
from arena.variants import Variant

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


class PlayerSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    bot_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Player
        fields = ["id", "username", "display_name", "created", "bot_count"]


class PlayerRegisterSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False)
    display_name = serializers.CharField(max_length=64, required=False, allow_blank=True)


class RegisteredPlayerSerializer(PlayerSerializer):
    token = serializers.CharField(read_only=True, help_text="API token for the new player")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "token"]


class BotSerializer(serializers.ModelSerializer):
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


class BotCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=64)
    variant = serializers.ChoiceField(choices=Variant.choices)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class BotVersionSerializer(serializers.ModelSerializer):
    """What everyone may see of a version."""

    bot = serializers.IntegerField(source="bot_id", read_only=True)

    class Meta:
        model = BotVersion
        fields = ["bot", "number", "kind", "status", "sha256", "size", "created"]


class OwnerBotVersionSerializer(BotVersionSerializer):
    """What only the bot's owner may see: why a version was refused, and the build log."""

    class Meta(BotVersionSerializer.Meta):
        fields = [*BotVersionSerializer.Meta.fields, "status_reason", "build_log"]


class BotVersionUploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        required=False, help_text="multipart upload: a .py module or a .zip with bot.py"
    )
    source = serializers.CharField(
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
        "bot": version.bot_id,
        "name": version.bot.name,
        "owner": version.bot.owner.user.username,
        "number": version.number,
    }


class MatchSerializer(serializers.ModelSerializer):
    version_x = serializers.SerializerMethodField()
    version_y = serializers.SerializerMethodField()
    requested_by = serializers.CharField(
        source="requested_by.user.username",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="who asked for the match; null for the matchmaker's and leagues' matches",
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
            "score_x",
            "share_x",
            "mean_x",
            "ci95",
            "faults",
            "error",
        ]

    def get_version_x(self, match: Match) -> dict[str, Any]:
        return _version_label(match.version_x)

    def get_version_y(self, match: Match) -> dict[str, Any]:
        return _version_label(match.version_y)


class MatchDetailSerializer(MatchSerializer):
    boards = serializers.SerializerMethodField()
    rules = serializers.JSONField(read_only=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "rules", "boards"]

    def get_boards(self, match: Match) -> list[dict[str, Any]]:
        tables: dict[int, dict[str, Any]] = {}
        for game in match.games.all().order_by("number", "table"):
            entry = tables.setdefault(game.number, {"board": game.number, "tables": {}})
            entry["tables"][game.table] = {"team_scores": game.team_scores, "fault": game.fault}
        for number, result in enumerate(match.board_results, start=1):
            if number in tables:
                tables[number]["result_x"] = result
        return [tables[number] for number in sorted(tables)]


class MatchCreateSerializer(serializers.Serializer):
    version = id_field("your bot version (plays as X)")
    opponent = id_field("the opponent's bot version")
    boards = serializers.IntegerField(min_value=1, max_value=1000, default=100)
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False)


class RatingSerializer(serializers.ModelSerializer):
    version = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "variant",
            "version",
            "elo",
            "provisional",
            "matches",
            "boards",
            "bt_rating",
            "bt_low",
            "bt_high",
            "last_match",
        ]

    def get_version(self, rating: Rating) -> dict[str, Any]:
        return _version_label(rating.version)


class RatingChangeSerializer(serializers.ModelSerializer):
    variant = serializers.CharField(source="rating.variant")
    match = serializers.IntegerField(source="match_id")

    class Meta:
        model = RatingChange
        fields = ["variant", "match", "before", "after", "score", "expected", "k_factor", "created"]


class SprtQuerySerializer(serializers.Serializer):
    a = id_field("the new version")
    b = id_field("the version it is compared with")
    elo0 = FiniteFloatField(default=0.0, min_value=-SPRT_ELO_LIMIT, max_value=SPRT_ELO_LIMIT)
    elo1 = FiniteFloatField(default=10.0, min_value=-SPRT_ELO_LIMIT, max_value=SPRT_ELO_LIMIT)
    alpha = FiniteFloatField(default=0.05, min_value=1e-6, max_value=0.5)
    beta = FiniteFloatField(default=0.05, min_value=1e-6, max_value=0.5)
