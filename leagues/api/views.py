"""Leagues endpoints under /api/leagues/: thin views over leagues.services and selectors.

Anyone reads; a league's organiser creates seasons, schedules rounds, edits the league and
sets its timetable; a bot's owner enters it and withdraws the entry (the organiser may
withdraw any entry before the season starts).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import GenericAPIView, ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from arena.errors import NotFound
from arena.identity import asking_player_required
from arena.variant_fields import REGISTERED_VARIANTS
from leagues import selectors, services
from leagues.api.serializers import (
    LeagueCreateSerializer,
    LeagueEntryCreateSerializer,
    LeagueEntrySerializer,
    LeagueRoundDetailSerializer,
    LeagueRoundScheduleSerializer,
    LeagueRoundSerializer,
    LeagueSeasonBracketSerializer,
    LeagueSeasonCreateSerializer,
    LeagueSeasonSerializer,
    LeagueSerializer,
    LeagueStandingsSerializer,
    LeagueTimetableSerializer,
    LeagueUpdateSerializer,
    timetable_data,
)
from leagues.models import Entry, League, Round, Season

TIEBREAKS = {
    League.Format.ROUND_ROBIN: ["points", "board_difference", "sonneborn_berger"],
    League.Format.DOUBLE_ROUND_ROBIN: ["points", "board_difference", "sonneborn_berger"],
    League.Format.SWISS: ["points", "buchholz", "board_difference", "sonneborn_berger"],
    League.Format.LADDER: ["rung"],
    League.Format.KNOCKOUT: ["round_reached", "seed"],
}


def _organiser(request: Request, league: League, doing: str) -> League:
    """The league, once the one asking is shown to organise it (``services`` decides)."""
    return services.league_of_organiser(
        league=league, by=asking_player_required(request), doing=doing
    )


class LeagueFilter(django_filters.FilterSet):
    variant = django_filters.ChoiceFilter(choices=REGISTERED_VARIANTS)
    # Not "format": DRF reads ?format= as the choice of renderer.
    league_format = django_filters.ChoiceFilter(field_name="format", choices=League.Format.choices)
    organiser = django_filters.CharFilter(
        field_name="organiser__user__username", help_text="organiser's username"
    )
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = League
        fields = ["variant", "league_format", "organiser", "name"]


class LeagueViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[League],
):
    """Leagues of bots: anyone lists them; a player creates one and organises it."""

    serializer_class = LeagueSerializer
    filterset_class = LeagueFilter
    lookup_value_regex = r"\d+"
    ordering_fields = ["id", "created", "name"]

    def get_queryset(self) -> QuerySet[League]:
        return selectors.league_list()

    @extend_schema(request=LeagueCreateSerializer, responses={201: LeagueSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        organiser = asking_player_required(request)
        incoming = LeagueCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        league = services.league_create(organiser=organiser, **incoming.validated_data)
        return Response(self._render(league.pk), status=status.HTTP_201_CREATED)

    @extend_schema(request=LeagueUpdateSerializer, responses=LeagueSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = self.get_object()
        _organiser(request, league, "edit the league")
        incoming = LeagueUpdateSerializer(data=request.data, partial=True)
        incoming.is_valid(raise_exception=True)
        services.league_update(league=league, **incoming.validated_data)
        return Response(self._render(league.pk))

    def _render(self, league_id: int) -> dict[str, Any]:
        return dict(LeagueSerializer(selectors.league_list().get(pk=league_id)).data)

    @extend_schema(
        methods=["GET"], responses={200: LeagueTimetableSerializer, 204: OpenApiResponse()}
    )
    @extend_schema(
        methods=["PUT"], request=LeagueTimetableSerializer, responses=LeagueTimetableSerializer
    )
    @extend_schema(methods=["DELETE"], responses={204: OpenApiResponse()})
    @action(detail=True, methods=["get", "put", "delete"])
    def timetable(self, request: Request, pk: str) -> Response:
        """Celery beat schedules the next round every N minutes once the previous one has
        ended (round 1 from the season's ``starts_at``). Organiser only for PUT and DELETE."""
        league = self.get_object()
        if request.method == "GET":
            data = timetable_data(league)
            return Response(data) if data else Response(status=status.HTTP_204_NO_CONTENT)
        _organiser(request, league, "change the timetable")
        if request.method == "DELETE":
            services.league_timetable_clear(league=league)
            return Response(status=status.HTTP_204_NO_CONTENT)
        incoming = LeagueTimetableSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        services.league_timetable_set(
            league=league, every_minutes=incoming.validated_data["every_minutes"]
        )
        league = selectors.league_list().get(pk=league.pk)
        return Response(timetable_data(league))


def _league(league_id: int) -> League:
    return get_object_or_404(League.objects.select_related("organiser"), pk=league_id)


def _season(league_id: int, number: int) -> Season:
    return get_object_or_404(
        Season.objects.select_related("league__organiser"), league_id=league_id, number=number
    )


class SeasonListView(ListAPIView[Season]):
    """A league's seasons; the organiser opens the next one."""

    serializer_class = LeagueSeasonSerializer

    def get_queryset(self) -> QuerySet[Season]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no URL
            return Season.objects.none()
        return selectors.season_list(league=_league(self.kwargs["league_id"]))

    @extend_schema(request=LeagueSeasonCreateSerializer, responses={201: LeagueSeasonSerializer})
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        _organiser(request, league, "open a season")
        incoming = LeagueSeasonCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        season = services.season_create(league=league, **incoming.validated_data)
        season = selectors.season_list(league=league).get(pk=season.pk)
        return Response(LeagueSeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(GenericAPIView[Season]):
    serializer_class = LeagueSeasonSerializer

    def get(self, request: Request, league_id: int, number: int) -> Response:
        season = get_object_or_404(selectors.season_list(league=_league(league_id)), number=number)
        return Response(LeagueSeasonSerializer(season).data)


class EntryListView(ListAPIView[Entry]):
    """A season's entries; a bot's owner enters it while the season is open."""

    serializer_class = LeagueEntrySerializer

    def get_queryset(self) -> QuerySet[Entry]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no URL
            return Entry.objects.none()
        return selectors.entry_list(season=_season(self.kwargs["league_id"], self.kwargs["number"]))

    @extend_schema(request=LeagueEntryCreateSerializer, responses={201: LeagueEntrySerializer})
    def post(self, request: Request, league_id: int, number: int) -> Response:
        player = asking_player_required(request)
        season = _season(league_id, number)
        incoming = LeagueEntryCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        entry = services.entry_enter(
            season=season,
            by=player,
            bot_id=data["bot"],
            version_number=data.get("version"),
            division_name=data.get("division"),
            follows_latest=data["follows_latest"],
        )
        entry = selectors.entry_list(season=season).get(pk=entry.pk)
        return Response(LeagueEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryDetailView(GenericAPIView[Entry]):
    serializer_class = LeagueEntrySerializer

    def _entry(self, league_id: int, number: int, entry_id: int) -> Entry:
        season = _season(league_id, number)
        return get_object_or_404(selectors.entry_list(season=season), pk=entry_id)

    def get(self, request: Request, league_id: int, number: int, entry_id: int) -> Response:
        return Response(LeagueEntrySerializer(self._entry(league_id, number, entry_id)).data)

    @extend_schema(responses={204: OpenApiResponse()})
    def delete(self, request: Request, league_id: int, number: int, entry_id: int) -> Response:
        """Withdraw an entry before the season starts: its bot's owner or the organiser."""
        player = asking_player_required(request)
        entry = self._entry(league_id, number, entry_id)
        services.entry_withdraw(entry=entry, by=player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundListView(ListAPIView[Round]):
    """A season's rounds; the organiser schedules the next one (idempotent per number)."""

    serializer_class = LeagueRoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no URL
            return Round.objects.none()
        return selectors.round_list(season=_season(self.kwargs["league_id"], self.kwargs["number"]))

    @extend_schema(
        request=LeagueRoundScheduleSerializer,
        responses={
            201: LeagueRoundDetailSerializer,
            200: OpenApiResponse(
                LeagueRoundDetailSerializer, description="the round already existed"
            ),
        },
    )
    def post(self, request: Request, league_id: int, number: int) -> Response:
        season = _season(league_id, number)
        _organiser(request, season.league, "schedule rounds")
        incoming = LeagueRoundScheduleSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        round_, created = services.round_schedule(
            season=season, number=incoming.validated_data["number"]
        )
        return Response(
            _round_detail(season, round_.number),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


def _round_detail(season: Season, round_number: int) -> dict[str, Any]:
    round_ = get_object_or_404(
        selectors.round_list_with_fixtures(season=season), number=round_number
    )
    return dict(LeagueRoundDetailSerializer(round_).data)


class RoundDetailView(GenericAPIView[Round]):
    """A round's fixtures and their results."""

    serializer_class = LeagueRoundDetailSerializer

    def get(self, request: Request, league_id: int, number: int, round_number: int) -> Response:
        return Response(_round_detail(_season(league_id, number), round_number))


# No model: the standings are computed (a dict), and GenericAPIView binds its serializer to
# its model type.
class StandingsView(GenericAPIView[Any]):
    """The standings of each division, with the tiebreaks applied in the order listed.

    Round robin: points (win 2, draw 1, loss 0 by the sign of X's total board result),
    board-score difference, Sonneborn-Berger. Swiss: points, Buchholz, board-score
    difference, Sonneborn-Berger. Ladder: the rung. Knockout: the round reached (the
    champion first), then the seed. Failed matches count for nobody.
    """

    serializer_class = LeagueStandingsSerializer

    def get(self, request: Request, league_id: int, number: int) -> Response:
        season = _season(league_id, number)
        data = {
            "season": season.number,
            "status": season.status,
            "tiebreaks": TIEBREAKS[League.Format(season.league.format)],
            "divisions": selectors.season_standings(season=season),
        }
        return Response(LeagueStandingsSerializer(data).data)


# No model: the bracket is computed from the fixtures.
class BracketView(GenericAPIView[Any]):
    """A knockout season's bracket, one a division: every round to the final with its ties
    in bracket order (seeds, byes, results, matches, how each tie was decided) and the
    champion's entry once the final is decided. 404 for a season of another format."""

    serializer_class = LeagueSeasonBracketSerializer

    def get(self, request: Request, league_id: int, number: int) -> Response:
        try:
            page = selectors.bracket_page(league_id=league_id, number=number)
        except Season.DoesNotExist:
            raise NotFound(f"league {league_id} has no knockout season {number}") from None
        data = {"season": page.season, "brackets": page.brackets}
        return Response(LeagueSeasonBracketSerializer(data).data)
