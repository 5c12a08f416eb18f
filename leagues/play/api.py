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

from bots.games import VARIANTS, game_for
from leagues.play import selectors, services
from leagues.play.errors import PlayError
from leagues.play.pages import new_seed


class BotSpecField(serializers.JSONField):
    """A bot spec: {"kind": "reference", "name": "greedy"} or {"kind": "arena", "version": 12}."""


class TableCreateSerializer(serializers.Serializer[Any]):
    variant = serializers.ChoiceField(choices=list(VARIANTS))
    human_seat = serializers.IntegerField(min_value=0, max_value=3, default=0)
    dealer = serializers.IntegerField(
        min_value=0, max_value=3, required=False, help_text="default: drawn by the server"
    )
    bots = serializers.ListField(
        child=BotSpecField(),
        min_length=1,
        max_length=3,
        help_text="one bot spec per seat other than the human's, in seat order",
    )


class ActionSerializer(serializers.Serializer[Any]):
    action = serializers.CharField(max_length=200, help_text='the action\'s text, e.g. "play AS"')
    ply = serializers.IntegerField(min_value=0, help_text="the ply this action answers")


class MoveSerializer(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.CharField(help_text="as the human's seat heard it")


class TableSerializer(serializers.Serializer[Any]):
    """What the reader may see of a table (selectors.table_view)."""

    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField()
    ply = serializers.IntegerField(help_text="the ply the next action answers")
    human_seat = serializers.IntegerField()
    dealer = serializers.IntegerField()
    players = serializers.IntegerField()
    partnership = serializers.BooleanField()
    seats = serializers.ListField(child=serializers.JSONField())
    names = serializers.ListField(child=serializers.CharField())
    current = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    waiting_for_bot = serializers.BooleanField()
    observation = serializers.DictField(help_text="the engine's observation for the human seat")
    moves = MoveSerializer(many=True)
    controls = serializers.DictField(
        allow_null=True, help_text="the legal actions, grouped (cards, choose, bids, buttons)"
    )
    seed_commitment = serializers.CharField(help_text="SHA-256 of the seed's 8 bytes")
    seed = serializers.IntegerField(allow_null=True, help_text="revealed once the hand is over")
    result = serializers.DictField(allow_null=True)
    return_url = serializers.CharField()
    url = serializers.CharField()
    replay_url = serializers.CharField(allow_null=True)


class TableSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    status = serializers.CharField()
    ply = serializers.IntegerField()
    human_seat = serializers.IntegerField()
    created = serializers.DateTimeField()


class ActionResultSerializer(serializers.Serializer[Any]):
    moves = MoveSerializer(many=True, help_text="the action and every bot move after it")
    table = TableSerializer()


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


def _refused(error: PlayError) -> Response:
    return Response({"detail": error.message}, status=error.status)


class TableListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=TableSummarySerializer(many=True), summary="Your tables")
    def get(self, request: Request) -> Response:
        tables = selectors.visible_tables(viewer=request.user)[:100]
        return Response(TableSummarySerializer(tables, many=True).data)

    @extend_schema(
        request=TableCreateSerializer,
        responses={201: TableSerializer, 400: ErrorSerializer},
        summary="Sit down at a new table with bots (the server deals from a secret seed)",
    )
    def post(self, request: Request) -> Response:
        form = TableCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        players = game_for(data["variant"]).players
        try:
            table = services.table_start(
                owner=request.user,  # type: ignore[arg-type]
                variant=data["variant"],
                seed=new_seed(),
                dealer=data.get("dealer", secrets.randbelow(players)),
                human_seat=data["human_seat"],
                bots=data["bots"],
            )
        except PlayError as error:
            return _refused(error)
        view = selectors.table_view(table=table, viewer=request.user)
        return Response(view, status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TableSerializer, 404: ErrorSerializer}, summary="A table")
    def get(self, request: Request, table_id: int) -> Response:
        try:
            table = selectors.table_for(table_id=table_id, viewer=request.user)
        except PlayError as error:
            return _refused(error)
        return Response(selectors.table_view(table=table, viewer=request.user))


class TableActionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ActionSerializer,
        responses={
            200: ActionResultSerializer,
            400: OpenApiResponse(ErrorSerializer, description="illegal or unreadable action"),
            404: ErrorSerializer,
            409: OpenApiResponse(ErrorSerializer, description="stale ply, or not your turn"),
        },
        summary="Act at your table; the bots answer up to your next turn",
    )
    def post(self, request: Request, table_id: int) -> Response:
        form = ActionSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            update = services.table_act(
                table_id=table_id,
                user=request.user,
                action=form.validated_data["action"],
                ply=form.validated_data["ply"],
            )
        except PlayError as error:
            return _refused(error)
        view = selectors.table_view(table=update.table, viewer=request.user)
        return Response({"moves": update.moves, "table": view})
