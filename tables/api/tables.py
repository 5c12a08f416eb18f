"""Play endpoints under /api/play/: the same services and selectors as the pages.

Only a table's owner reads or acts at it (anyone else gets 404, whether or not it exists).
An action names the ply it answers: a stale or repeated one is a 409 that changes nothing.
"""

from __future__ import annotations

import secrets
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.errors import InvalidInput
from arena.variant_fields import VariantChoiceField
from engine.registry import load_game
from tables import selectors, services
from tables.pages.tables import new_seed
from tables.throttles import PLAY_TABLES


class PlayBotSpecField(serializers.JSONField):
    """A bot spec: {"kind": "reference", "name": "greedy"} or {"kind": "arena", "version": 12}."""


class PlayTableCreateSerializer(serializers.Serializer[Any]):
    variant = VariantChoiceField()
    # The variant's own number of seats bounds these: the service checks them against it.
    human_seat = serializers.IntegerField(
        min_value=0, default=0, help_text="a seat of the variant, 0 (North) and on"
    )
    dealer = serializers.IntegerField(
        min_value=0, required=False, help_text="default: drawn by the server"
    )
    bots = serializers.ListField(
        child=PlayBotSpecField(),
        min_length=1,
        help_text="one bot spec per seat other than the human's, in seat order",
    )


class PlayActionSerializer(serializers.Serializer[Any]):
    action = serializers.CharField(max_length=200, help_text='the action\'s text, e.g. "play AS"')
    ply = serializers.IntegerField(min_value=0, help_text="the ply this action answers")


class PlayMoveSerializer(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.CharField(help_text="as the human's seat heard it")


class PlayTableSerializer(serializers.Serializer[Any]):
    """What the reader may see of a table (selectors.table_view)."""

    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField()
    ply = serializers.IntegerField(help_text="the ply the next action answers")
    human_seat = serializers.IntegerField()
    dealer = serializers.IntegerField()
    players = serializers.IntegerField()
    game = serializers.CharField(help_text="the game the variant belongs to")
    partnership = serializers.BooleanField()
    seat_names = serializers.ListField(
        child=serializers.CharField(), help_text="each seat's name (North is seat 0)"
    )
    side_names = serializers.ListField(
        child=serializers.CharField(),
        help_text="each scoring side by its seats' names, in the order of side_scores",
    )
    seats = serializers.ListField(child=serializers.JSONField())
    names = serializers.ListField(child=serializers.CharField())
    current = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    waiting_for_bot = serializers.BooleanField()
    out_of_time = serializers.BooleanField(
        help_text="the time to play the hand is up: it takes no more actions, and its app "
        "ends it shortly"
    )
    observation = serializers.DictField(help_text="the engine's observation for the human seat")
    moves = PlayMoveSerializer(many=True)
    controls = serializers.DictField(
        allow_null=True, help_text="the legal actions, grouped (cards, choose, bids, buttons)"
    )
    seed_commitment = serializers.CharField(help_text="SHA-256 of the seed's 8 bytes")
    seed = serializers.IntegerField(allow_null=True, help_text="revealed once the hand is over")
    result = serializers.DictField(allow_null=True)
    return_url = serializers.CharField()
    url = serializers.CharField()
    replay_url = serializers.CharField(allow_null=True)
    sealed = serializers.CharField(
        allow_null=True,
        help_text="why the finished hand's seed and replay are not shown yet (the deal is "
        "played at other tables still); null when they are shown or the hand is not over",
    )


class PlayTableSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField()
    ply = serializers.IntegerField()
    human_seat = serializers.IntegerField()
    created = serializers.DateTimeField()


class PlayActionResultSerializer(serializers.Serializer[Any]):
    moves = PlayMoveSerializer(many=True, help_text="the action and every bot move after it")
    table = PlayTableSerializer()


class PlayErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


def field_errors(errors: Any, prefix: str = "") -> list[str]:
    """Field errors as ``field.index: message`` lines, so every 400 has one ``detail``."""
    if isinstance(errors, dict):
        return [
            line for key, value in errors.items() for line in field_errors(value, f"{prefix}{key}.")
        ]
    if isinstance(errors, list) and errors and not isinstance(errors[0], str):
        return [
            line
            for index, value in enumerate(errors)
            for line in field_errors(value, f"{prefix}{index}.")
        ]
    messages = errors if isinstance(errors, list) else [errors]
    return [f"{prefix.rstrip('.')}: {message}" for message in messages]


def read_body(form: serializers.Serializer[Any]) -> dict[str, Any]:
    """The body's fields, or an InvalidInput naming every field that is wrong."""
    if not form.is_valid():
        raise InvalidInput("; ".join(field_errors(form.errors)))
    return dict(form.validated_data)


class TableListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PlayTableSummarySerializer(many=True), summary="Your tables")
    def get(self, request: Request) -> Response:
        tables = selectors.visible_tables(viewer=request.user)[:100]
        return Response(PlayTableSummarySerializer(tables, many=True).data)

    @extend_schema(
        request=PlayTableCreateSerializer,
        responses={
            201: PlayTableSerializer,
            400: PlayErrorSerializer,
            409: OpenApiResponse(
                PlayErrorSerializer,
                description="as many tables open as a player may have (PLAY_OPEN_TABLES_MAX)",
            ),
        },
        summary="Sit down at a new table with bots (the server deals from a secret seed)",
    )
    def post(self, request: Request) -> Response:
        data = read_body(PlayTableCreateSerializer(data=request.data))
        players = load_game(data["variant"]).players
        # Only a table started keeps its slot (a refused one hands it back).
        with PLAY_TABLES.spend(request):
            table = services.table_start(
                owner=request.user,  # type: ignore[arg-type]
                variant=data["variant"],
                seed=new_seed(),
                dealer=data.get("dealer", secrets.randbelow(players)),
                human_seat=data["human_seat"],
                bots=data["bots"],
                casual=True,
            )
        view = selectors.table_view(table=table, viewer=request.user)
        return Response(view, status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: PlayTableSerializer, 404: PlayErrorSerializer}, summary="A table"
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_for(table_id=table_id, viewer=request.user)
        return Response(selectors.table_view(table=table, viewer=request.user))


class TableActionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PlayActionSerializer,
        responses={
            200: PlayActionResultSerializer,
            400: OpenApiResponse(PlayErrorSerializer, description="illegal or unreadable action"),
            404: PlayErrorSerializer,
            409: OpenApiResponse(PlayErrorSerializer, description="stale ply, or not your turn"),
        },
        summary="Act at your table; the bots answer up to your next turn",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = read_body(PlayActionSerializer(data=request.data))
        update = services.table_act(
            table_id=table_id, user=request.user, action=data["action"], ply=data["ply"]
        )
        view = selectors.table_view(table=update.table, viewer=request.user)
        return Response({"moves": update.moves, "table": view})


class TableAbandonView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: PlayTableSerializer,
            404: PlayErrorSerializer,
            409: OpenApiResponse(PlayErrorSerializer, description="the hand is over already"),
        },
        summary="Leave your table: the hand ends as a forfeit of your side",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = services.table_abandon(table_id=table_id, user=request.user)
        return Response(selectors.table_view(table=table, viewer=request.user))
