"""Input and output shapes of the robot event API."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from robot_events import permissions
from robot_events.models import ROBOT_VARIANTS, RobotEntry, RobotEvent, RobotPlay
from robot_events.services import MAX_BOARDS


class RobotErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(
        required=False,
        help_text="what is wrong; a malformed input lists each field's problems under its "
        "name instead",
    )


class RobotEventCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    variant = serializers.ChoiceField(choices=ROBOT_VARIANTS)
    boards = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS)
    robots = serializers.ChoiceField(choices=RobotEvent.Robots.choices)
    kind = serializers.ChoiceField(choices=RobotEvent.Kind.choices)
    scoring = serializers.ChoiceField(choices=RobotEvent.Scoring.choices)


class RobotScheduleCreateSerializer(RobotEventCreateSerializer):
    hour = serializers.IntegerField(min_value=0, max_value=23)
    minute = serializers.IntegerField(min_value=0, max_value=59, default=0)


class RobotScheduleChangeSerializer(serializers.Serializer[Any]):
    running = serializers.BooleanField(help_text="false pauses the timetable, true resumes it")


class RobotEventSerializer(serializers.ModelSerializer[RobotEvent]):
    director = serializers.CharField(source="director.display_name", read_only=True)
    status = serializers.SerializerMethodField()

    class Meta:
        model = RobotEvent
        fields = [
            "id",
            "name",
            "variant",
            "boards",
            "robots",
            "kind",
            "scoring",
            "director",
            "opens",
            "closes",
            "closed",
            "status",
            "commitment",
        ]

    def get_status(self, event: RobotEvent) -> str:
        return permissions.status(event)


class RobotEntrySerializer(serializers.ModelSerializer[RobotEntry]):
    """A player's entry in an event: what joining creates. Its boards are played through
    ``plays_url``, one at a time."""

    event = serializers.IntegerField(source="event_id", read_only=True)
    player = serializers.CharField(source="player.display_name", read_only=True)
    plays_url = serializers.SerializerMethodField()

    class Meta:
        model = RobotEntry
        fields = ["id", "event", "player", "joined", "plays_url"]

    def get_plays_url(self, entry: RobotEntry) -> str:
        return reverse("robot_events_api:plays", args=[entry.event_id])


class RobotPlaySerializer(serializers.ModelSerializer[RobotPlay]):
    board = serializers.IntegerField(source="board.number", read_only=True)
    table = serializers.IntegerField(source="table_id", read_only=True, allow_null=True)
    table_url = serializers.SerializerMethodField()

    class Meta:
        model = RobotPlay
        fields = [
            "id",
            "board",
            "table",
            "table_url",
            "started",
            "finished",
            "score_ns",
            "score_ew",
        ]

    def get_table_url(self, play: RobotPlay) -> str | None:
        return None if play.table_id is None else reverse("tables:table", args=[play.table_id])


class RobotStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    boards = serializers.IntegerField()
    matchpoints = serializers.FloatField()
    top = serializers.FloatField()
    percentage = serializers.FloatField(allow_null=True)
    imps = serializers.FloatField(allow_null=True)
