"""Input and output shapes of the arena API. No business logic lives here."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from arena.models import Bot, BotVersion, Match, Player, Rating, RatingChange
from arena.variants import Variant


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
        source="requested_by.user.username", read_only=True, default=None
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
    rating_changes = serializers.SerializerMethodField(
        help_text="what the match did to each side's rating (empty until it is rated)"
    )

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "rules", "boards", "rating_changes"]

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


class MatchCreateSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="your bot version (plays as X)")
    opponent = serializers.IntegerField(help_text="the opponent's bot version")
    boards = serializers.IntegerField(min_value=1, max_value=1000, default=100)
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False)


class RatingSerializer(serializers.ModelSerializer):
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


class RatingChangeSerializer(serializers.ModelSerializer):
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


class MatchRatingChangeSerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingChange
        fields = ["before", "after", "wins", "draws", "losses", "score", "expected"]


class LeaderboardQuerySerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=Variant.choices, required=False)
    disabled = serializers.BooleanField(
        default=False, help_text="also list the versions disabled for faults (marked)"
    )


class SprtQuerySerializer(serializers.Serializer):
    a = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="the new version")
    b = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, help_text="the version it is compared with"
    )
    elo0 = serializers.FloatField(default=0.0, min_value=-1000, max_value=1000)
    elo1 = serializers.FloatField(default=10.0, min_value=-1000, max_value=1000)
    alpha = serializers.FloatField(default=0.05, min_value=1e-6, max_value=0.5)
    beta = serializers.FloatField(default=0.05, min_value=1e-6, max_value=0.5)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["elo1"] <= attrs["elo0"]:
            raise serializers.ValidationError({"elo1": "elo1 must be greater than elo0"})
        if attrs["a"] == attrs["b"]:
            raise serializers.ValidationError({"b": "a version is not tested against itself"})
        return attrs
