"""Input and output shapes of the tournament API (no rules here: services check them)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from arena.http.input_fields import SentTextField, StringField
from arena.models import Player
from arena.variant_fields import VariantChoiceField
from engine.registry import load_game, variant_names
from tournaments.hands import EntryOutcome
from tournaments.models import Correction, Entry, Event, HumanRating, Result, Review, Section
from tournaments.movements import MovementKind
from tournaments.selectors import entry_label

MOST_SIDES = max(
    len(load_game(name).teams) for name in variant_names() if load_game(name).has_hand_records
)
"""The most sides any event's game scores: a longer list is refused before the game checks
it."""


class EventCreateSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=120)
    variant = VariantChoiceField()
    kind = serializers.ChoiceField(choices=Event.Kind.choices, default=Event.Kind.PAIRS)
    movement = serializers.ChoiceField(
        choices=[k.value for k in MovementKind], default=MovementKind.MITCHELL.value
    )
    boards_per_round = serializers.IntegerField(min_value=1, max_value=12, default=3)
    scale = serializers.ChoiceField(choices=Event.Scale.choices, default=Event.Scale.TWO_ONE)
    par_bot = serializers.ChoiceField(choices=["strong", "greedy", ""], default="strong")
    sections = serializers.ListField(
        child=StringField(max_length=8), min_length=1, max_length=10, default=["A"]
    )


class EventUpdateSerializer(serializers.Serializer[dict[str, Any]]):
    name = SentTextField(max_length=120, required=False)
    boards_per_round = serializers.IntegerField(min_value=1, max_value=12, required=False)
    scale = serializers.ChoiceField(choices=Event.Scale.choices, required=False)
    par_bot = serializers.ChoiceField(choices=["strong", "greedy", ""], required=False)


class EventSerializer(serializers.ModelSerializer[Event]):
    director = serializers.CharField(source="director.display_name")

    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "variant",
            "kind",
            "movement",
            "boards_per_round",
            "scale",
            "par_bot",
            "director",
            "status",
            "current_round",
            "closed_round",
            "commitment",
            "created",
            "started",
            "finished",
        ]


class EntryPlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "display_name"]


class EntrySerializer(serializers.ModelSerializer[Entry]):
    # A declared field: DRF's metaclass moves it off the class, so Field.label is untouched.
    label = serializers.SerializerMethodField()  # type: ignore[assignment]
    players = EntryPlayerSerializer(many=True)

    class Meta:
        model = Entry
        fields = ["id", "number", "name", "label", "players"]

    def get_label(self, entry: Entry) -> str:
        return entry_label(entry)


class SectionSerializer(serializers.ModelSerializer[Section]):
    entries = EntrySerializer(many=True)

    class Meta:
        model = Section
        fields = ["name", "size", "rounds", "entries"]


class EntryCreateSerializer(serializers.Serializer[dict[str, Any]]):
    section = serializers.CharField(max_length=8, default="A")
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, allow_empty=False
    )
    name = serializers.CharField(max_length=120, required=False, default="")


class EventStartSerializer(serializers.Serializer[dict[str, Any]]):
    rounds = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class HandFieldsSerializer(serializers.Serializer[dict[str, Any]]):
    """The contract and the totals of a hand; both teams' scores are derived from them."""

    outcome = serializers.ChoiceField(
        choices=[o.value for o in EntryOutcome], default=EntryOutcome.PLAYED.value
    )
    declarer = serializers.IntegerField(min_value=0, max_value=3, help_text="seat 0-3 (N E S W)")
    bid = serializers.IntegerField(min_value=0)
    trump = serializers.ChoiceField(
        choices=["S", "H", "D", "C"], required=False, allow_null=True, default=None
    )
    meld = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=MOST_SIDES,
        help_text="one per side: [North-South, East-West] in a partnership game, one per "
        "seat in a game without partners",
    )
    taken = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=MOST_SIDES,
        default=[0, 0],
        help_text="counters with the last-trick bonus, one per side as ``meld``",
    )
    buried = serializers.IntegerField(
        min_value=0,
        default=0,
        help_text="in a game with a widow: counters in the declarer's buried cards (they "
        "count for it)",
    )


class ResultEnterSerializer(HandFieldsSerializer):
    section = serializers.CharField(max_length=8, default="A")
    round = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1)
    board = serializers.IntegerField(min_value=1)


class ResultCorrectSerializer(HandFieldsSerializer):
    reason = serializers.CharField(max_length=200, required=False, default="")


class ResultRejectSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=200, help_text="what is wrong with the result")


class ReviewSerializer(serializers.ModelSerializer[Review]):
    by = serializers.CharField(source="by.display_name")
    entered_by = serializers.CharField(source="entered_by.display_name")

    class Meta:
        model = Review
        fields = [
            "id",
            "section",
            "round",
            "table",
            "board",
            "action",
            "by",
            "on_behalf",
            "entered_by",
            "reason",
            "result",
            "at",
        ]


class CorrectionSerializer(serializers.ModelSerializer[Correction]):
    director = serializers.CharField(source="director.display_name")
    board = serializers.IntegerField(source="result.board.number")
    section = serializers.CharField(source="result.section.name")
    round = serializers.IntegerField(source="result.round")
    table = serializers.IntegerField(source="result.table")

    class Meta:
        model = Correction
        fields = [
            "id",
            "result",
            "section",
            "round",
            "table",
            "board",
            "director",
            "at",
            "reason",
            "before",
            "after",
        ]


class HumanRatingQuerySerializer(serializers.Serializer[dict[str, Any]]):
    variant = VariantChoiceField(required=False, help_text="only this variant's ratings")


class HumanRatingSerializer(serializers.ModelSerializer[HumanRating]):
    player = serializers.CharField(source="player.display_name")
    player_id = serializers.IntegerField()
    low = serializers.FloatField(read_only=True, help_text="the 95% interval's lower end")
    high = serializers.FloatField(read_only=True, help_text="the 95% interval's upper end")

    class Meta:
        model = HumanRating
        fields = [
            "player_id",
            "player",
            "variant",
            "rating",
            "low",
            "high",
            "mu",
            "sigma",
            "events",
        ]


class RoundCloseSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField(min_value=1, help_text="rounds up to this one are closed")


# Shapes of the responses built by the selectors, for the OpenAPI document.


class TournamentErrorSerializer(serializers.Serializer[dict[str, Any]]):
    detail = serializers.CharField(
        required=False,
        help_text="what is wrong; a refused score entry also repeats it under the field's "
        "name, and a malformed input lists each field's problems under its name instead",
    )


class SeatingSideSerializer(serializers.Serializer[dict[str, Any]]):
    entry = serializers.IntegerField()
    name = serializers.CharField(help_text="the entry's name, or 'sit-out'")


class SeatingSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True, help_text="team events: the match")
    boards = serializers.ListField(child=serializers.IntegerField())
    sides = SeatingSideSerializer(
        many=True, help_text="North-South then East-West; players by seat when individual"
    )


class MovementSectionSerializer(serializers.Serializer[dict[str, Any]]):
    section = serializers.CharField()
    kind = serializers.CharField(help_text="the movement: mitchell, howell, teams or individual")
    tables = serializers.IntegerField()
    rounds = serializers.IntegerField()
    seatings = SeatingSerializer(many=True)


class ResultRowSerializer(serializers.Serializer[dict[str, Any]]):
    """A table's result; a partnership game's carries the pair fields, any other's is per
    seat."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=[s.value for s in Result.Status],
        help_text="pending until a player of the other side (or the director) confirms it; "
        "only confirmed results are scored",
    )
    section = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    board = serializers.IntegerField()
    sides = serializers.ListField(child=serializers.IntegerField())
    outcome = serializers.ChoiceField(choices=[o.value for o in EntryOutcome])
    hand_outcome = serializers.CharField()
    declarer = serializers.IntegerField()
    declarer_seat = serializers.CharField()
    bid = serializers.IntegerField()
    trump = serializers.CharField(allow_null=True)
    meld = serializers.ListField(child=serializers.IntegerField())
    taken = serializers.ListField(child=serializers.IntegerField())
    top = serializers.FloatField(allow_null=True, help_text="null until matchpointed")
    ns = serializers.ListField(child=serializers.IntegerField(), required=False)
    ew = serializers.ListField(child=serializers.IntegerField(), required=False)
    score_ns = serializers.IntegerField(required=False)
    score_ew = serializers.IntegerField(required=False)
    matchpoints_ns = serializers.FloatField(required=False, allow_null=True)
    matchpoints_ew = serializers.FloatField(required=False, allow_null=True)
    buried = serializers.IntegerField(required=False, help_text="games with a widow only")
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="games without partners: per seat",
    )
    matchpoints = serializers.ListField(
        child=serializers.FloatField(),
        required=False,
        allow_null=True,
        help_text="games without partners: per seat",
    )
