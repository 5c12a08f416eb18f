"""Input and output shapes of the arena API. No business logic lives here."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from arena.models import Bot, BotVersion, Player
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
