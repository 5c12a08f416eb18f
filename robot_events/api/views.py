"""Robot event endpoints, under /api/robots/: thin views over services and selectors.

Everyone lists events and reads an event, its standings and its commitment; a signed-in
player joins and starts their next board; a director (staff, or a user with the
``robots.direct_robotevent`` permission) creates events and timetables and closes events.
A board's traveller is shown to those who may see it (``selectors.board_visible``).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.identity import asking_player, asking_player_required
from robot_events import play_tables, selectors, services
from robot_events.api.serializers import (
    RobotEntrySerializer,
    RobotErrorSerializer,
    RobotEventCreateSerializer,
    RobotEventSerializer,
    RobotPlaySerializer,
    RobotScheduleChangeSerializer,
    RobotScheduleCreateSerializer,
    RobotStandingSerializer,
)
from robot_events.models import RobotEvent

_ERRORS = {
    400: "the input breaks a rule; `detail` says which",
    401: "not signed in",
    403: "not allowed for this account (`detail` says who may)",
    404: "no such event or board",
    409: "done once already (a join, a board, a close)",
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {
        code: OpenApiResponse(RobotErrorSerializer, description=_ERRORS[code]) for code in codes
    }


def _event(event_id: int) -> RobotEvent:
    return get_object_or_404(RobotEvent.objects.select_related("director"), pk=event_id)


class EventListView(GenericAPIView):  # type: ignore[type-arg]
    serializer_class = RobotEventSerializer

    def get_queryset(self) -> Any:
        return selectors.event_list()

    @extend_schema(operation_id="robots_list", responses=RobotEventSerializer(many=True))
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(RobotEventSerializer(page, many=True).data)

    @extend_schema(
        request=RobotEventCreateSerializer,
        responses={201: RobotEventSerializer, **_errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        director = asking_player_required(request)
        incoming = RobotEventCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        event = services.robot_event_create(director=director, **incoming.validated_data)
        return Response(RobotEventSerializer(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    @extend_schema(responses={200: RobotEventSerializer, **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(RobotEventSerializer(_event(event_id)).data)


class EntryListView(APIView):
    @extend_schema(
        request=None, responses={201: RobotEntrySerializer, **_errors(400, 401, 403, 404, 409)}
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Join the event: the entry, and where to start its boards."""
        entry = services.robot_entry_join(
            event=_event(event_id), player=asking_player_required(request)
        )
        return Response(RobotEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class PlayListView(APIView):
    @extend_schema(responses={200: RobotPlaySerializer(many=True), **_errors(401, 403, 404)})
    def get(self, request: Request, event_id: int) -> Response:
        """The caller's own boards: started, finished, and their own scores."""
        entry = selectors.joined_entry(
            event=_event(event_id), player=asking_player_required(request)
        )
        play_tables.entry_sync(entry=entry)
        plays = entry.plays.select_related("board").order_by("board__number")
        return Response(RobotPlaySerializer(plays, many=True).data)

    @extend_schema(
        request=None, responses={201: RobotPlaySerializer, **_errors(400, 401, 403, 404, 409)}
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Start the caller's next board (the board being played, if one is)."""
        entry = selectors.joined_entry(
            event=_event(event_id), player=asking_player_required(request)
        )
        play_tables.entry_sync(entry=entry)
        play = services.robot_play_start(entry=entry)
        return Response(RobotPlaySerializer(play).data, status=status.HTTP_201_CREATED)


class EventCloseView(APIView):
    @extend_schema(
        request=None, responses={200: RobotEventSerializer, **_errors(401, 403, 404, 409)}
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = services.robot_event_close(
            event=_event(event_id), by=asking_player_required(request)
        )
        return Response(RobotEventSerializer(event).data)


class StandingsView(APIView):
    @extend_schema(responses={200: RobotStandingSerializer(many=True), **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        rows = selectors.event_standings(event=_event(event_id))
        return Response(RobotStandingSerializer(rows, many=True).data)


class BoardView(APIView):
    @extend_schema(responses={200: dict[str, Any], **_errors(403, 404)})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        """A board's traveller: every human result, the robots' par, the hands."""
        event, viewer = _event(event_id), asking_player(request)
        play_tables.viewer_sync(event=event, viewer=viewer, number=number)
        view = selectors.board_traveller(event=event, viewer=viewer, number=number)
        view.pop("event")
        return Response(view)


class VerificationView(APIView):
    @extend_schema(responses={200: dict[str, Any], **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(selectors.event_verification(event=_event(event_id)))


class ScheduleListView(APIView):
    @extend_schema(
        request=RobotScheduleCreateSerializer,
        responses={201: dict[str, Any], **_errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        """A daily timetable: an event of these settings is created at hour:minute UTC."""
        incoming = RobotScheduleCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        schedule = services.robot_schedule_create(
            director=asking_player_required(request), **incoming.validated_data
        )
        return Response(
            {"id": schedule.pk, "name": schedule.name, "task": schedule.task_id},
            status=status.HTTP_201_CREATED,
        )


class ScheduleDetailView(APIView):
    @extend_schema(
        request=RobotScheduleChangeSerializer,
        responses={200: dict[str, Any], **_errors(400, 401, 403, 404, 409)},
    )
    def patch(self, request: Request, schedule_id: int) -> Response:
        """Pause (``running: false``) or resume a timetable: its director or staff."""
        incoming = RobotScheduleChangeSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        running = incoming.validated_data["running"]
        schedule = services.robot_schedule_set_running(
            schedule_id=schedule_id, by=asking_player_required(request), running=running
        )
        return Response({"id": schedule.pk, "name": schedule.name, "running": running})

    @extend_schema(responses={204: None, **_errors(401, 403, 404)})
    def delete(self, request: Request, schedule_id: int) -> Response:
        """Remove a timetable (the events it created stay): its director or staff."""
        services.robot_schedule_remove(schedule_id=schedule_id, by=asking_player_required(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
