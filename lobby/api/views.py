"""Lobby endpoints under /api/lobby/: thin views over lobby.services and lobby.selectors.

Anyone lists tables and reads a table's frame (a spectator's, or their own seat's); a
signed-in person opens tables, sits, leaves, acts and talks. Every answer to a change is
the requester's new frame.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.errors import InvalidInput
from lobby import selectors, services
from lobby.api.serializers import (
    ActSerializer,
    FillSerializer,
    FrameSerializer,
    LobbyErrorSerializer,
    SitSerializer,
    TableCreateSerializer,
    TableSummarySerializer,
    TalkSerializer,
)
from lobby.models import GameTable

_ERRORS = {
    400: "the input breaks a rule (an illegal action names the rule and the legal choices)",
    401: "not signed in",
    403: "not allowed (not seated, not the host, no invitation)",
    404: "no such table",
    409: "the table moved on (a stale ply), it is not your turn, or the seat is taken",
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {
        code: OpenApiResponse(LobbyErrorSerializer, description=_ERRORS[code]) for code in codes
    }


def read_body(form: serializers.Serializer[Any]) -> dict[str, Any]:
    """The body's fields, or an InvalidInput naming every field that is wrong."""
    if not form.is_valid():
        lines = [f"{key}: {' '.join(map(str, value))}" for key, value in form.errors.items()]
        raise InvalidInput("; ".join(lines))
    return dict(form.validated_data)


def _frame(request: Request, table_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(selectors.frame_for(table_id=table_id, viewer=request.user), status=code)


class TableListView(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=list(GameTable.Status.values), required=False)
        ],
        responses={200: TableSummarySerializer(many=True), 400: LobbyErrorSerializer},
        summary="Tables, newest first (waiting ones to sit at, games in play to watch)",
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in GameTable.Status.values:
            raise InvalidInput(f"status is one of {', '.join(GameTable.Status.values)}")
        tables = selectors.tables_listed(status=wanted)[:100]
        return Response(TableSummarySerializer(tables, many=True).data)

    @extend_schema(
        request=TableCreateSerializer,
        responses={201: FrameSerializer, **_errors(400, 401, 409)},
        summary="Open a table; the game starts when every seat is filled",
    )
    def post(self, request: Request) -> Response:
        data = read_body(TableCreateSerializer(data=request.data))
        table = services.table_open(host=request.user, **data)  # type: ignore[arg-type]
        return _frame(request, table.pk, status.HTTP_201_CREATED)


class TableDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: FrameSerializer, **_errors(404)},
        summary="A table as the reader may see it (their seat's view, or a spectator's)",
    )
    def get(self, request: Request, table_id: int) -> Response:
        return _frame(request, table_id)


class SitView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SitSerializer,
        responses={200: FrameSerializer, **_errors(400, 401, 403, 404, 409)},
        summary="Sit at an empty seat, or come back to yours",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = read_body(SitSerializer(data=request.data))
        services.table_sit(
            table_id=table_id, user=request.user, seat=data["seat"], token=data.get("token")
        )
        return _frame(request, table_id)


class LeaveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: FrameSerializer, **_errors(401, 403, 404, 409)},
        summary="Leave: before the start the seat is freed; during play a bot plays it",
    )
    def post(self, request: Request, table_id: int) -> Response:
        services.table_leave(table_id=table_id, user=request.user)
        return _frame(request, table_id)


class FillView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=FillSerializer,
        responses={200: FrameSerializer, **_errors(400, 401, 403, 404, 409)},
        summary="The host gives an empty seat to a bot",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = read_body(FillSerializer(data=request.data))
        services.table_fill(
            table_id=table_id, user=request.user, seat=data["seat"], bot=data["bot"]
        )
        return _frame(request, table_id)


class ActView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ActSerializer,
        responses={200: FrameSerializer, **_errors(400, 401, 403, 404, 409)},
        summary="Act at your seat, answering the frame's ply",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = read_body(ActSerializer(data=request.data))
        services.table_act(
            table_id=table_id, user=request.user, action=data["action"], ply=data["ply"]
        )
        return _frame(request, table_id)


class TalkView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TalkSerializer,
        responses={200: FrameSerializer, **_errors(400, 401, 403, 404)},
        summary="Say one of the fixed phrases at your table",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = read_body(TalkSerializer(data=request.data))
        services.table_talk(table_id=table_id, user=request.user, key=data["key"])
        return _frame(request, table_id)
