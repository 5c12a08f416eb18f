"""Challenge endpoints under /api/play/challenges/: the same services as the pages.

A challenge in play is its owner's alone (anyone else gets 404, whether or not it exists);
once it is over anyone may read it, as on its page. The secret its boards are dealt from is
given only then. Its tables, one a board, are played through the table endpoints
(``tables[].api_url``); each is dealt when the one before it is over, and each board's
bot-only table is played once the human's table of it is over, which reading the challenge
checks. Reading it past ``expires`` scores what is left as forfeits.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.variant_fields import VariantChoiceField
from tables import challenges
from tables.api.tables import (
    PlayBotSpecField,
    PlayErrorSerializer,
    read_body,
)
from tables.challenge_boards import MAX_BOARDS
from tables.models import Challenge
from tables.throttles import PLAY_CHALLENGES


class ChallengeCreateSerializer(serializers.Serializer[Any]):
    variant = VariantChoiceField()
    opponent = PlayBotSpecField(
        help_text='the bot challenged: {"kind": "reference", "name": "greedy"} or '
        '{"kind": "arena", "version": 12}'
    )
    boards = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS, default=2)


class ComparisonFaultSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    kind = serializers.CharField()


class ComparisonSerializer(serializers.Serializer[Any]):
    side_scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="the bot-only table's score per side"
    )
    margin = serializers.FloatField(
        help_text="your side's margin there: its score minus the other side's (or the others' mean)"
    )
    fault = ComparisonFaultSerializer(allow_null=True, help_text="a bot's fault there, if any")


class ChallengeTableSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    table = serializers.CharField(
        help_text="A: the human's table of the board (B, ... in the two_tables format)"
    )
    order = serializers.IntegerField(help_text="the order the human plays the tables in")
    play_table = serializers.IntegerField(help_text="the table's id at /api/play/tables/<id>/")
    human_seat = serializers.IntegerField()
    status = serializers.CharField()
    side_scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    fault = serializers.CharField(
        allow_null=True, help_text="why the hand ended early: abandoned, expired, ..."
    )
    comparison = ComparisonSerializer(
        allow_null=True,
        help_text="the board with the challenged bot at every seat, played once this table "
        "is over (never its moves); none before, and in the two_tables format",
    )
    result = serializers.IntegerField(
        allow_null=True,
        help_text="the board's result: your side's margin here minus its margin at the "
        "bot-only table; none until both are over",
    )
    api_url = serializers.CharField()


class ChallengeSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    opponent = serializers.JSONField()
    boards = serializers.IntegerField()
    status = serializers.CharField()
    created = serializers.DateTimeField()
    expires = serializers.DateTimeField(
        help_text="boards not over by then count as your forfeits (PLAY_CHALLENGE_EXPIRES_S)"
    )


class ChallengeSerializer(ChallengeSummarySerializer):
    owner = serializers.CharField()
    format = serializers.CharField(
        help_text="bot_table: one table a board, compared with the bot at every seat; "
        "two_tables: started before, the human at every table of a board"
    )
    seed_commitment = serializers.CharField(help_text="SHA-256 of the secret the boards use")
    seed_secret = serializers.CharField(
        allow_null=True, help_text="hex; revealed once the challenge is over"
    )
    tables_total = serializers.IntegerField(help_text="tables the human plays in all")
    tables = ChallengeTableSerializer(many=True, help_text="the tables dealt so far")
    next_table = serializers.IntegerField(
        allow_null=True, help_text="the id of the table to play now; none once all are over"
    )
    board_results = serializers.ListField(child=serializers.IntegerField())
    summary = serializers.DictField(allow_null=True, help_text="bots.duplicate.Summary")
    finished = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField(help_text="the challenge's page")


def challenge_view(challenge: Challenge) -> dict[str, Any]:
    """What a reader allowed to see the challenge may see of it (``challenge_for``)."""
    rows = challenges.challenge_tables(challenge)
    boards = {board["board"]: board for board in challenges.board_rows(challenge)}
    following = challenges.next_table(challenge)
    over = challenge.status == Challenge.Status.FINISHED
    two_tables = challenge.format == Challenge.Format.TWO_TABLES
    return {
        **summary_view(challenge),
        "owner": challenge.owner.get_username(),
        "format": challenge.format,
        "seed_commitment": challenge.seed_commitment,
        "seed_secret": challenge.seed_secret if over else None,
        "tables_total": challenges.tables_total(challenge),
        "tables": [
            {
                "board": row.board,
                "table": row.table,
                "order": row.order,
                "play_table": row.play_table_id,
                "human_seat": row.play_table.human_seat,
                "status": row.play_table.status,
                "side_scores": (
                    row.play_table.result["side_scores"] if row.play_table.result else None
                ),
                "fault": (
                    row.play_table.result["fault"]["kind"]
                    if row.play_table.result and row.play_table.result.get("fault")
                    else None
                ),
                "comparison": None if two_tables else boards[row.board]["comparison"],
                "result": None if two_tables else boards[row.board]["result"],
                "api_url": reverse("tables_api:table", args=[row.play_table_id]),
            }
            for row in rows
        ],
        "next_table": None if following is None else following.pk,
        "board_results": challenge.board_results,
        "summary": challenge.summary,
        "finished": challenge.finished,
        "url": reverse("tables:challenge", args=[challenge.pk]),
    }


def summary_view(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "variant": challenge.variant,
        "opponent": challenge.opponent,
        "boards": challenge.boards,
        "status": challenge.status,
        "created": challenge.created,
        "expires": challenge.expires,
    }


class ChallengeListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ChallengeSummarySerializer(many=True), summary="Your challenges")
    def get(self, request: Request) -> Response:
        mine = challenges.challenges_of(viewer=request.user)[:100]
        return Response(ChallengeSummarySerializer([summary_view(c) for c in mine], many=True).data)

    @extend_schema(
        request=ChallengeCreateSerializer,
        responses={201: ChallengeSerializer, 400: PlayErrorSerializer},
        summary="Challenge a bot to a short duplicate match (its first table is dealt)",
    )
    def post(self, request: Request) -> Response:
        data = read_body(ChallengeCreateSerializer(data=request.data))
        # Counted with the page's challenges; a refused one hands its slot back.
        with PLAY_CHALLENGES.spend(request):
            challenge = challenges.challenge_create(
                owner=request.user,  # type: ignore[arg-type]
                variant=data["variant"],
                opponent=data["opponent"],
                boards=data["boards"],
            )
        return Response(
            ChallengeSerializer(challenge_view(challenge)).data, status=status.HTTP_201_CREATED
        )


class ChallengeDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: ChallengeSerializer,
            404: OpenApiResponse(
                PlayErrorSerializer, description="no such challenge, or another's in play"
            ),
        },
        summary="A challenge: its tables so far with each board's comparison, the one to "
        "play next, its result at the end",
    )
    def get(self, request: Request, challenge_id: int) -> Response:
        challenge = challenges.challenge_for(challenge_id=challenge_id, viewer=request.user)
        # As the page: deals the next table once every dealt one is over, scores at the end.
        challenge = challenges.challenge_settle(challenge_id=challenge.pk)
        return Response(ChallengeSerializer(challenge_view(challenge)).data)
