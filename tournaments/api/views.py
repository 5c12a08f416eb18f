"""Tournament endpoints: thin views over services and selectors.

Who sees what: everyone sees events, entries, the movement, live standings and the
commitment; a player sees their own scorecard while the event runs; the director sees
and does everything for their event (entries, start, score entry, corrections, hand
records to make up the boards); once the event is finished, results, hand records,
corrections and the secret are public.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.errors import InvalidInput, NotFound
from arena.http import idempotency
from arena.identity import asking_player, asking_player_required
from tournaments import selectors, services
from tournaments.api.serializers import (
    CorrectionSerializer,
    EntryCreateSerializer,
    EventCreateSerializer,
    EventSerializer,
    EventStartSerializer,
    EventUpdateSerializer,
    HumanRatingQuerySerializer,
    HumanRatingSerializer,
    MovementSectionSerializer,
    ResultCorrectSerializer,
    ResultEnterSerializer,
    ResultRejectSerializer,
    ResultRowSerializer,
    ReviewSerializer,
    RoundCloseSerializer,
    SectionSerializer,
    TournamentErrorSerializer,
)
from tournaments.models import Event, HumanRating, Result
from tournaments.records import hand_records_pdf

_ERRORS = {
    400: "the input breaks a rule; `detail` says which",
    401: "not signed in",
    403: "not allowed for this account (`detail` says who may)",
    404: "no such event, or nothing of it yet",
    429: "too many refused score entries: wait (`Retry-After`) or ask the director",
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error responses an endpoint gives, all with the same ``{"detail": ...}`` body."""
    return {
        code: OpenApiResponse(TournamentErrorSerializer, description=_ERRORS[code])
        for code in codes
    }


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("director"), pk=event_id)


class EventListView(GenericAPIView[Event]):
    """Events: anyone lists them; an authenticated player creates one and directs it."""

    serializer_class = EventSerializer

    def get_queryset(self) -> QuerySet[Event]:
        return selectors.event_list()

    @extend_schema(operation_id="tournaments_list", responses=EventSerializer(many=True))
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(EventSerializer(page, many=True).data)

    @extend_schema(
        request=EventCreateSerializer, responses={201: EventSerializer, **_errors(400, 401, 403)}
    )
    def post(self, request: Request) -> Response:
        director = asking_player_required(request)
        incoming = EventCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        event = services.event_create(director=director, **incoming.validated_data)
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    @extend_schema(responses={200: EventSerializer, **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventSerializer(_event(event_id)).data)

    @extend_schema(
        request=EventUpdateSerializer,
        responses={200: EventSerializer, **_errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, event_id: int) -> Response:
        by = asking_player_required(request)
        incoming = EventUpdateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        event = services.event_update(event=_event(event_id), by=by, **incoming.validated_data)
        return Response(EventSerializer(event).data)


class EntryListView(APIView):
    """Sections and their entries; the director adds entries before the start."""

    @extend_schema(responses={200: SectionSerializer(many=True), **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        sections = selectors.section_list(event=_event(event_id))
        return Response(SectionSerializer(sections, many=True).data)

    @extend_schema(
        request=EntryCreateSerializer,
        responses={201: SectionSerializer(many=True), **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event_id: int) -> Response:
        by = asking_player_required(request)
        event = _event(event_id)
        incoming = EntryCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        services.entry_add(
            event=event,
            by=by,
            section_name=data["section"],
            players=data["players"],
            name=data["name"],
        )
        sections = selectors.section_list(event=event)
        return Response(SectionSerializer(sections, many=True).data, status=status.HTTP_201_CREATED)


class EntryDetailView(APIView):
    @extend_schema(responses={204: None, **_errors(400, 401, 403, 404)})
    def delete(self, request: Request, event_id: int, entry_id: int) -> Response:
        by = asking_player_required(request)
        event = _event(event_id)
        entry = get_object_or_404(selectors.player_entry_queryset(event=event), pk=entry_id)
        services.entry_remove(event=event, by=by, entry=entry)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventStartView(APIView):
    @extend_schema(
        request=EventStartSerializer,
        responses={200: EventSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event_id: int) -> Response:
        by = asking_player_required(request)
        incoming = EventStartSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        event = services.event_start(event=_event(event_id), by=by, **incoming.validated_data)
        return Response(EventSerializer(event).data)


class EventFinishView(APIView):
    @extend_schema(request=None, responses={200: EventSerializer, **_errors(400, 401, 403, 404)})
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_finish(event=_event(event_id), by=asking_player_required(request))
        return Response(EventSerializer(event).data)


class RoundNextView(APIView):
    """The director calls the next round (it also comes by itself once a round is complete)."""

    @extend_schema(request=None, responses={200: EventSerializer, **_errors(400, 401, 403, 404)})
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_round_advance(
            event=_event(event_id), by=asking_player_required(request)
        )
        return Response(EventSerializer(event).data)


class RoundCloseView(APIView):
    """The director closes past rounds to players' entries."""

    @extend_schema(
        request=RoundCloseSerializer,
        responses={200: EventSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event_id: int) -> Response:
        by = asking_player_required(request)
        incoming = RoundCloseSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        event = services.event_round_close(
            event=_event(event_id), by=by, round=incoming.validated_data["round"]
        )
        return Response(EventSerializer(event).data)


class MovementView(APIView):
    """Each section's guide: every round's tables, entrants and boards."""

    @extend_schema(responses={200: MovementSectionSerializer(many=True), **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        selectors.require_started(event=event)
        out = []
        for section in selectors.section_list(event=event).exclude(size=None):
            movement = selectors.section_movement(event=event, section=section)
            entries = selectors.entries_by_number(section=section)
            out.append(
                {
                    "section": section.name,
                    "kind": movement.kind.value,
                    "tables": movement.tables,
                    "rounds": movement.rounds,
                    "seatings": [
                        {
                            "round": s.round,
                            "table": s.table,
                            "match": s.match,
                            "boards": list(
                                selectors.board_numbers(event=event, board_set=s.board_set)
                            ),
                            "sides": [
                                {
                                    "entry": n,
                                    "name": selectors.entry_label(entries[n])
                                    if n in entries
                                    else "sit-out",
                                }
                                for n in s.sides
                            ],
                        }
                        for s in movement.seatings
                    ],
                }
            )
        return Response(out)


class ResultListView(APIView):
    """All table results (director, or everyone once finished); entering one."""

    @extend_schema(responses={200: ResultRowSerializer(many=True), **_errors(403, 404)})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        selectors.require_results_visible(
            event=event, viewer=asking_player(request), what="table results"
        )
        rows = []
        for section in selectors.section_list(event=event).exclude(size=None):
            scored = selectors.section_scores(event=event, section=section)
            rows += [
                selectors.result_row(scored.get(result.pk), result)
                for result in selectors.result_list(event=event).filter(section=section)
            ]
        return Response(rows)

    @extend_schema(
        request=ResultEnterSerializer,
        parameters=[idempotency.OPENAPI_HEADER],
        responses={201: ResultRowSerializer, **_errors(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request, event_id: int) -> Response:
        # A table's device that lost its answer sends the entry again with the same key and
        # gets the first answer, instead of a refusal for a board already entered.
        return idempotency.respond(request, handler=lambda: self._enter(request, event_id))

    def _enter(self, request: Request, event_id: int) -> Response:
        by = asking_player_required(request)
        event = _event(event_id)
        incoming = ResultEnterSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        result = services.result_enter(
            event=event,
            by=by,
            section_name=data["section"],
            round=data["round"],
            table=data["table"],
            board_number=data["board"],
            entry=services.score_entry_from(data),
        )
        return Response(selectors.result_row(None, result), status=status.HTTP_201_CREATED)


class ResultDetailView(APIView):
    @extend_schema(
        request=ResultCorrectSerializer,
        responses={200: ResultRowSerializer, **_errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, event_id: int, result_id: int) -> Response:
        by = asking_player_required(request)
        event = _event(event_id)
        result = get_object_or_404(Result, pk=result_id, section__event=event)
        incoming = ResultCorrectSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        corrected = services.result_correct(
            event=event,
            result=result,
            by=by,
            entry=services.score_entry_from(incoming.validated_data),
            reason=incoming.validated_data["reason"],
        )
        return Response(selectors.result_row(None, corrected))


def _result(event: Event, result_id: int) -> Result:
    return get_object_or_404(
        Result.objects.select_related("board", "section__event", "entered_by"),
        pk=result_id,
        section__event=event,
    )


class PendingResultListView(APIView):
    """The results waiting for the viewer's confirmation: those the other side entered at
    the viewer's tables (every pending result for the director)."""

    @extend_schema(responses={200: ResultRowSerializer(many=True), **_errors(401, 404)})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        pending = selectors.pending_for(event=event, viewer=asking_player_required(request))
        return Response([selectors.result_row(None, result) for result in pending])


class ResultConfirmView(APIView):
    """A player of the other side at the table confirms a result (the director may, for
    the table): from then on it is scored."""

    @extend_schema(
        request=None, responses={200: ResultRowSerializer, **_errors(400, 401, 403, 404)}
    )
    def post(self, request: Request, event_id: int, result_id: int) -> Response:
        by = asking_player_required(request)
        event = _event(event_id)
        confirmed = services.result_confirm(event=event, result=_result(event, result_id), by=by)
        return Response(selectors.result_row(None, confirmed))


class ResultRejectView(APIView):
    """A player of the other side at the table rejects a result, saying why: it is removed
    and the table enters the board again."""

    @extend_schema(
        request=ResultRejectSerializer,
        responses={200: ReviewSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event_id: int, result_id: int) -> Response:
        by = asking_player_required(request)
        event = _event(event_id)
        incoming = ResultRejectSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        review = services.result_reject(
            event=event,
            result=_result(event, result_id),
            by=by,
            reason=incoming.validated_data["reason"],
        )
        return Response(ReviewSerializer(review).data)


class ReviewListView(APIView):
    """The audit trail of confirmations and rejections: director; everyone once finished."""

    @extend_schema(responses={200: ReviewSerializer(many=True), **_errors(403, 404)})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        selectors.require_results_visible(
            event=event, viewer=asking_player(request), what="confirmations"
        )
        return Response(ReviewSerializer(selectors.review_list(event=event), many=True).data)


class CorrectionListView(APIView):
    """The audit trail: who changed which result, when, from what to what."""

    @extend_schema(responses={200: CorrectionSerializer(many=True), **_errors(403, 404)})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        selectors.require_results_visible(
            event=event, viewer=asking_player(request), what="corrections"
        )
        return Response(
            CorrectionSerializer(selectors.correction_list(event=event), many=True).data
        )


class StandingsView(APIView):
    """Live standings: percentages so far, public while the event runs."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        selectors.require_started(event=event)
        return Response(
            {"status": event.status, "sections": selectors.event_standings(event=event)}
        )


class ScorecardView(APIView):
    """An entry's scorecard: your own while the event runs, anyone's once it is over."""

    @extend_schema(
        parameters=[
            OpenApiParameter("section", str, description="with entry: whose scorecard"),
            OpenApiParameter("entry", int, description="entry number; default: your own"),
        ],
        responses={200: OpenApiTypes.OBJECT, **_errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        selectors.require_started(event=event)
        viewer = asking_player(request)
        number = request.query_params.get("entry")
        if number is None:
            if viewer is None:
                raise NotAuthenticated()
            entry = selectors.own_entry(event=event, viewer=viewer)
        else:
            try:
                entry_number = int(number)
            except ValueError:
                raise InvalidInput("entry is a number", field="entry") from None
            section = request.query_params.get("section", "A")
            entry = get_object_or_404(
                selectors.player_entry_queryset(event=event),
                section__name=section,
                number=entry_number,
            )
            selectors.require_scorecard_visible(event=event, viewer=viewer, entry=entry)
        return Response(selectors.entry_scorecard(event=event, entry=entry))


class BoardView(APIView):
    """One board across the field: every result with matchpoints, and the par."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **_errors(403, 404)})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(event_id)
        selectors.require_results_visible(
            event=event, viewer=asking_player(request), what="board results"
        )
        if not event.boards.filter(number=number).exists():
            raise NotFound(f"the event has no board {number}")
        return Response(selectors.board_comparison(event=event, number=number))


def _records(request: Request, event_id: int) -> tuple[Event, list[dict[str, Any]]]:
    event = _event(event_id)
    selectors.require_started(event=event)
    selectors.require_results_visible(
        event=event, viewer=asking_player(request), what="hand records"
    )
    public = selectors.is_public(event=event)
    return event, selectors.hand_records(event=event, with_results=public)


class HandRecordsView(APIView):
    """Printable hand records (HTML): the hands, and after the event the results and par."""

    @extend_schema(responses={(200, "text/html"): OpenApiTypes.STR, **_errors(403, 404)})
    def get(self, request: Request, event_id: int) -> HttpResponse:
        event, records = _records(request, event_id)
        return render(
            request._request,
            "tournaments/hand_records.html",
            {"event": event, "records": records, "public": selectors.is_public(event=event)},
        )


class HandRecordsPdfView(APIView):
    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY, **_errors(403, 404)})
    def get(self, request: Request, event_id: int) -> HttpResponse:
        event, records = _records(request, event_id)
        response = HttpResponse(hand_records_pdf(event, records), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="event-{event.pk}-hands.pdf"'
        return response


class VerificationView(APIView):
    """The commitment; after the event the secret, every seed and the server's own check."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **_errors(404)})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(selectors.deal_verification(event=_event(event_id)))


class HumanRatingListView(GenericAPIView[HumanRating]):
    """Human players' Elo from duplicate events, per variant."""

    serializer_class = HumanRatingSerializer

    def get_queryset(self) -> QuerySet[HumanRating]:
        query = HumanRatingQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return selectors.human_rating_list(variant=query.validated_data.get("variant"))

    @extend_schema(
        parameters=[HumanRatingQuerySerializer],
        responses=HumanRatingSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(HumanRatingSerializer(page, many=True).data)
