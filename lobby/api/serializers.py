"""The lobby API's bodies and answers (their documents in the OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from arena.variant_fields import VariantChoiceField


class LobbyErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


class TableCreateSerializer(serializers.Serializer[Any]):
    variant = VariantChoiceField()
    rules = serializers.DictField(
        required=False, allow_null=True, help_text="changes to the variant's preset rules"
    )
    target = serializers.DictField(
        required=False,
        allow_null=True,
        help_text='{"kind": "score", "value": points} (default: the variant\'s target) or '
        '{"kind": "hands", "value": count}',
    )
    rated = serializers.BooleanField(default=False, help_text="people only: no bot seat")
    clock = serializers.DictField(
        required=False, allow_null=True, help_text='{"decision_s": seconds, "bank_s": seconds}'
    )
    seats = serializers.ListField(
        child=serializers.DictField(),
        help_text='one a seat, in order: {"kind": "host"} (exactly one), {"kind": "open"}, '
        '{"kind": "invite"}, {"kind": "bot", "bot": {"kind": "reference", "name": "greedy"}} '
        'or {"kind": "bot", "bot": {"kind": "arena", "version": id}}',
    )
    substitute = serializers.CharField(
        default="greedy", help_text="the reference bot that plays for a person who left"
    )


class SitSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    token = serializers.CharField(
        required=False, allow_null=True, help_text="the invitation's token, for an invited seat"
    )


class FillSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0)
    bot = serializers.DictField(help_text='{"kind": "reference", "name": ...} or arena version')


class ActSerializer(serializers.Serializer[Any]):
    action = serializers.CharField(max_length=200, help_text='the action\'s text, e.g. "bid 250"')
    ply = serializers.IntegerField(
        min_value=0, help_text="the frame's ply: how many actions of the game were taken"
    )


class TalkSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(max_length=32, help_text="one of the fixed phrases' keys")


class TableSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField()
    rated = serializers.BooleanField()
    host = serializers.CharField(source="host.username")
    target = serializers.DictField()
    created = serializers.DateTimeField()
    seats = serializers.SerializerMethodField()

    def get_seats(self, table: Any) -> list[str]:
        """Each seat's kind: person, bot, open or invite."""
        return [seat.kind for seat in table.seats.all()]


class FrameSerializer(serializers.Serializer[Any]):
    """Everything the reader may see of the table (lobby/README.md, "The frame")."""

    table = serializers.IntegerField()
    ply = serializers.IntegerField()
    status = serializers.CharField()
    variant = serializers.CharField()
    variant_label = serializers.CharField()
    rated = serializers.BooleanField()
    target = serializers.DictField()
    clock = serializers.DictField()
    host = serializers.CharField()
    viewer = serializers.DictField()
    seats = serializers.ListField(child=serializers.DictField())
    hand_no = serializers.IntegerField()
    dealer = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    phase = serializers.CharField()
    phase_words = serializers.CharField()
    view = serializers.DictField(allow_null=True)
    table_form = serializers.DictField(allow_null=True)
    legal = serializers.ListField(child=serializers.DictField())
    pick = serializers.DictField(allow_null=True)
    my_meld = serializers.IntegerField(allow_null=True)
    last_trick = serializers.ListField(child=serializers.DictField(), allow_null=True)
    last_hand = serializers.DictField(
        allow_null=True, help_text="the previous hand as it ended: hand_no, scores, breakdown"
    )
    scores = serializers.DictField()
    recent = serializers.ListField(child=serializers.DictField())
    talk = serializers.ListField(child=serializers.DictField())
    commitment = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    result = serializers.DictField(allow_null=True)
