"""Matches, replays and ratings endpoints."""

from __future__ import annotations

import json
from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena import selectors, services
from arena.api.bots import waiting_for_broker
from arena.api.filters import IdFilter
from arena.api.serializers import (
    LeaderboardQuerySerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    RatingChangeSerializer,
    RatingSerializer,
    SprtQuerySerializer,
    model_check_data,
)
from arena.http import idempotency
from arena.http.caching import (
    LEADERBOARD_TTL,
    REPLAY_TTL,
    cached,
    leaderboard_key,
    peek,
    replay_key,
    store,
)
from arena.http.quotas.throttles import CHALLENGES, VERIFICATIONS
from arena.http.renderers import JSONRenderer
from arena.identity import asking_player, asking_player_required
from arena.models import BotVersion, Match, Rating, RatingChange
from arena.replay_view import replay_deal
from arena.services.control_value import (
    EVIDENCE_BOARDS,
    WINDOW_MATCHES,
    ControlValue,
    controls_report,
    pairings_report,
)
from arena.services.design_value import DesignValue
from arena.variant_fields import REGISTERED_VARIANTS
from engine.registry import load_game


class MatchFilter(django_filters.FilterSet):
    bot = IdFilter(method="filter_bot", help_text="a bot id, either side")
    version = IdFilter(method="filter_version", help_text="a version id")
    variant = django_filters.ChoiceFilter(choices=REGISTERED_VARIANTS)
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    kind = django_filters.ChoiceFilter(choices=Match.Kind.choices)

    class Meta:
        model = Match
        fields = ["bot", "version", "variant", "status", "kind"]

    def filter_bot(self, queryset: Any, name: str, value: int) -> Any:
        return queryset.filter(Q(version_x__bot_id=value) | Q(version_y__bot_id=value))

    def filter_version(self, queryset: Any, name: str, value: int) -> Any:
        return queryset.filter(Q(version_x_id=value) | Q(version_y_id=value))


class MatchViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Match],
):
    """Duplicate matches between bot versions; POST requests a challenge."""

    filterset_class = MatchFilter
    lookup_value_regex = r"\d+"
    ordering_fields = ["id", "created", "finished"]

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.match_list()

    def get_serializer_class(self) -> Any:
        return MatchDetailSerializer if self.action == "retrieve" else MatchSerializer

    @extend_schema(
        request=MatchCreateSerializer,
        parameters=[idempotency.OPENAPI_HEADER],
        responses={
            201: MatchSerializer,
            202: OpenApiResponse(MatchSerializer, "stored; starts when the broker is back"),
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return idempotency.respond(
            request, handler=lambda: self._challenge(request), settle=_waiting_for_broker
        )

    def _challenge(self, request: Request) -> Response:
        player = asking_player_required(request)
        with CHALLENGES.spend(request):  # only accepted challenges count
            incoming = MatchCreateSerializer(data=request.data)
            incoming.is_valid(raise_exception=True)
            match = services.match_challenge(by=player, **incoming.validated_data)
        match = selectors.match_list().get(pk=match.pk)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True, methods=["get"])
    def verification(self, request: Request, pk: str | None = None) -> Response:
        """The seed commitment; once the match is done, the secret and every board checked."""
        match = get_object_or_404(selectors.match_list(), pk=pk)
        return Response(selectors.match_verification(match=match))

    @extend_schema(
        parameters=[
            OpenApiParameter("board", int, description="only this board"),
            OpenApiParameter("table", str, enum=["A", "B"], description="only this table"),
            OpenApiParameter("verify", bool, description="re-simulate each game in the engine"),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    @action(detail=True, methods=["get"])
    def replay(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The match's replays (all games, or one board and table), and your bots' stderr."""
        board = _int_param(request, "board")
        table = request.query_params.get("table")
        if table is not None and table not in ("A", "B"):
            raise ValidationError({"table": "table is A or B"})
        verify = request.query_params.get("verify", "").lower() in ("1", "true", "yes")
        match_id = int(str(pk))  # the route admits digits only; "017" is match 17
        # The games of a finished match never change: served from the cache after the first
        # request, with no database query for an anonymous reader. Only a board the match
        # has is ever cached, under the match's canonical id.
        key = replay_key(match_id=match_id, board=board, table=table, verify=verify)
        games = peek(key)  # the games as rendered JSON
        match = None
        if games is None:
            match = get_object_or_404(selectors.match_list(), pk=match_id)
            if board is not None and not 1 <= board <= match.board_count:
                raise ValidationError({"board": f"this match has boards 1 to {match.board_count}"})
            if verify:
                # Re-simulating costs CPU in proportion to the boards: counted per client.
                with VERIFICATIONS.spend(request):
                    games = _render(_replay_games(match, board, table, verify))
            else:
                games = _render(_replay_games(match, board, table, verify))
            if match.status == Match.Status.DONE:
                store(key, games, REPLAY_TTL)
        stderr: dict[str, dict[str, str]] = {}
        if request.user.is_authenticated:
            match = match or get_object_or_404(selectors.match_list(), pk=match_id)
            stderr = selectors.match_own_stderr(match=match, viewer=asking_player(request))
        body = b'{"match":%d,"games":%s,"stderr":%s}' % (match_id, games, _render(stderr))
        return _json_response(request, body)


def _waiting_for_broker(response: Response) -> Response:
    match = selectors.match_list().get(pk=response.data["id"])
    return waiting_for_broker(
        response,
        match,
        MatchSerializer,
        "the match is stored and queued, but the task queue is unreachable: it starts as "
        "soon as the queue is back (do not send the request again)",
    )


def _replay_games(
    match: Match, board: int | None, table: str | None, verify: bool
) -> list[dict[str, Any]]:
    game = load_game(match.variant)
    games = []
    for row in selectors.match_games(match=match, board=board, table=table):
        document = dict(row.replay.document)
        if verify:
            difference = game.read_replay(document["hand"]).verify()
            document["verified"] = difference is None
            document["difference"] = None if difference is None else str(difference)
        if match.status == Match.Status.DONE:
            # The cards dealt, for viewers; never while the match is playing: a running
            # match's later tables play the same boards.
            document["deal"] = replay_deal(match.variant, document["hand"])
        games.append(document)
    return games


def _render(data: Any) -> bytes:
    rendered: bytes = JSONRenderer().render(data)
    return rendered


def _json_response(request: Request, body: bytes) -> HttpResponse:
    """Send already rendered JSON as it is; the browsable API gets it parsed back."""
    if request.accepted_renderer.format == "json":
        return HttpResponse(body, content_type="application/json")
    return Response(json.loads(body))


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ValidationError({name: f"{name} must be a whole number"}) from None


class LeaderboardView(ListAPIView[Rating]):
    """Ratings by variant, best first: the board-level rating with its 95% interval, boards,
    matches, how many more boards would separate each version from the next one below, and
    whether the version is disabled (left out unless ``disabled=true``). For one variant,
    ``model_check`` says whether the ratings describe the boards at all: the deviance
    against each pair's own score, its degrees of freedom and p-value, ``poor`` below
    p = 0.01, and every pair more than 2 standard errors from what its ratings predict."""

    serializer_class = RatingSerializer

    def get_queryset(self) -> QuerySet[Rating]:
        # The browsable API's filter form asks for it; the JSON path pages it in _page.
        return selectors.leaderboard(variant=self.request.query_params.get("variant"))

    # Already rendered JSON goes out as a plain HttpResponse, which DRF sends as it is.
    @extend_schema(parameters=[LeaderboardQuerySerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:  # type: ignore[override]
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        variant = query.validated_data.get("variant")
        disabled = query.validated_data["disabled"]
        page = request.query_params.get("page", "1")
        # One key per page however it is spelt ("01" is page 1); a page that does not exist
        # is refused while building, so it is never stored; nor is anything but a number.
        key = (
            leaderboard_key(
                host=request.get_host(),
                variant=variant,
                disabled=disabled,
                page=str(int(page)) if page.isdecimal() else page,
                page_size=self.paginator.get_page_size(request),  # type: ignore[union-attr]
            )
            if page.isdecimal() or page == "last"
            else None
        )
        body = cached(key, lambda: _render(self._page(variant, disabled)), LEADERBOARD_TTL)
        return _json_response(request, body)

    def _page(self, variant: str | None, disabled: bool) -> Any:
        ratings = selectors.leaderboard(variant=variant, disabled=disabled)
        page = self.paginate_queryset(ratings)
        data = self.get_paginated_response(self.get_serializer(page, many=True).data).data
        if variant:
            # Whether one rating per version describes the variant's boards at all.
            data["model_check"] = model_check_data(selectors.rating_check(variant=variant))
        return data


class RatingHistoryView(ListAPIView[RatingChange]):
    """How a bot version's rating moved, match by match, with each match's boards."""

    serializer_class = RatingChangeSerializer

    def get_queryset(self) -> QuerySet[RatingChange]:
        version = get_object_or_404(
            BotVersion, bot_id=self.kwargs["bot_id"], number=self.kwargs["number"]
        )
        return selectors.rating_history(version=version)


def sprt_query(params: Any) -> dict[str, Any]:
    """The validated SPRT query with its two versions (a 400 naming what is wrong)."""
    query = SprtQuerySerializer(data=params)
    query.is_valid(raise_exception=True)
    data = dict(query.validated_data)
    versions = BotVersion.objects.select_related("bot").in_bulk([data["a"], data["b"]])
    for key in ("a", "b"):
        if data[key] not in versions:
            raise ValidationError({key: f"there is no bot version {data[key]}"})
        data[key] = versions[data[key]]
    if data["a"].bot.variant != data["b"].bot.variant:
        raise ValidationError(
            {
                "b": f"version {data['b'].pk} plays {data['b'].bot.variant}, "
                f"not {data['a'].bot.variant}"
            }
        )
    return data


class SprtView(APIView):
    """The SPRT of version A against version B over their duplicate boards, as chess-engine
    testing runs it (exact logistic GSPRT, Elo per board): the LLR path board by board,
    Wald's bounds, and the verdict at the first crossing."""

    @extend_schema(parameters=[SprtQuerySerializer], responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        data = sprt_query(request.query_params)
        report = selectors.sprt_between(
            a=data["a"],
            b=data["b"],
            elo0=data["elo0"],
            elo1=data["elo1"],
            alpha=data["alpha"],
            beta=data["beta"],
        )
        final = report.path.final
        return Response(
            {
                "a": report.a.pk,
                "b": report.b.pk,
                "variant": report.variant,
                "elo0": data["elo0"],
                "elo1": data["elo1"],
                "alpha": data["alpha"],
                "beta": data["beta"],
                "wins": final.wins,
                "draws": final.draws,
                "losses": final.losses,
                "llr": final.llr,
                "lower_bound": final.lower_bound,
                "upper_bound": final.upper_bound,
                "verdict": report.path.verdict,
                "stopped_at": report.path.stopped_at,
                "path": [{"boards": boards, "llr": llr} for boards, llr in report.path.points],
            }
        )


class ControlValueView(APIView):
    """Each control variate's measured variance gain over duplicate alone and its worker-CPU
    cost factor, per variant and rule set, and whether the arena runs it (it does where the
    gain is above the cost, and while it has fewer boards measured than ``evidence_boards``).

    ``designs``: per variant and rule set, plain deals' variance over duplicate's at equal
    worker CPU (``ratio``, ``2 Var(table result) / Var(board result)``; its square root is
    plain deals' error over duplicate's), the same over duplicate with the controls that
    ran (``controls_ratio``, that ratio times their ``gain`` over their ``cost``), each with
    its 95% interval (a seeded bootstrap over matches), the tables' results' correlation,
    and the ``verdict``: "measuring", "duplicate beats plain", "duplicate with controls
    beats plain" or "no design beats plain here" (there every control is off and the arena
    runs duplicate alone).

    ``pairings``: the pairs of bots that have played ``evidence_boards`` boards of a
    variant (the 50 with the most), with the measures of their own matches that decide
    for them in place of their variant's: each control with that many boards of its own,
    and each design verdict they have.
    """

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        values, designs = controls_report()
        return Response(
            {
                "evidence_boards": EVIDENCE_BOARDS,
                "window_matches": WINDOW_MATCHES,
                "controls": [_control(value) for value in values],
                "designs": [_design(design) for design in designs],
                "pairings": [
                    {
                        "variant": value.variant,
                        "bots": [
                            {"id": bot, "name": name}
                            for bot, name in zip(value.pairing, value.names, strict=True)
                        ],
                        "boards": value.boards,
                        "controls": [_control(control) for control in value.controls],
                        "designs": [_design(design) for design in value.designs],
                    }
                    for value in pairings_report()
                ],
            }
        )


def _control(value: ControlValue) -> dict[str, Any]:
    return {
        "variant": value.variant,
        "rules_key": value.rules_key,
        "control": value.kind,
        "matches": value.matches,
        "boards": value.boards,
        "gain": value.gain,
        "cost": value.cost,
        "on": value.on,
        "reason": value.reason,
    }


def _design(design: DesignValue) -> dict[str, Any]:
    return {
        "variant": design.variant,
        "rules_key": design.rules_key,
        "tables": design.tables,
        "matches": design.matches,
        "boards": design.boards,
        "table_correlation": design.correlation,
        "ratio": design.ratio,
        "ratio_interval": _interval(design.ratio_low, design.ratio_high),
        "error_ratio": design.error,
        "control_matches": design.control_matches,
        "control_boards": design.control_boards,
        "gain": design.gain,
        "cost": design.cost,
        "controls_ratio": design.controls_ratio,
        "controls_ratio_interval": _interval(design.controls_low, design.controls_high),
        "controls_error_ratio": design.controls_error,
        "verdict": design.verdict,
        "reason": design.reason,
    }


def _interval(low: float | None, high: float | None) -> list[float] | None:
    return None if low is None or high is None else [low, high]
