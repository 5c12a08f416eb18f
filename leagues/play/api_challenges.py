"""Challenge endpoints under /api/play/challenges/: the same services as the pages.

A challenge in play is its owner's alone (anyone else gets 404, whether or not it exists);
once it is over anyone may read it, as on its page. The secret its boards are dealt from is
given only then. Its tables are played through the table endpoints (``tables[].api_url``);
each is dealt when every earlier one is over, which reading the challenge checks.
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
from leagues.play import challenges
from leagues.play.api import (
    PlayBotSpecField,
    PlayErrorSerializer,
    read_body,
    refused,
)
from leagues.play.errors import PlayError
from leagues.play.models import Challenge
from leagues.play.scoring import MAX_BOARDS, plan
from leagues.play.throttles import PLAY_CHALLENGES


class ChallengeCreateSerializer(serializers.Serializer[Any]):
    variant = VariantChoiceField()
    opponent = PlayBotSpecField(
        help_text='the bot challenged: {"kind": "reference", "name": "greedy"} or '
        '{"kind": "arena", "version": 12}'
    )
    boards = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS, default=2)


class ChallengeTableSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    table = serializers.CharField(help_text="the board's table: A, B, ...")
    order = serializers.IntegerField(help_text="the order the human plays the tables in")
    play_table = serializers.IntegerField(help_text="the table's id at /api/play/tables/<id>/")
    human_seat = serializers.IntegerField()
    status = serializers.CharField()
    side_scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    api_url = serializers.CharField()


class ChallengeSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    opponent = serializers.JSONField()
    boards = serializers.IntegerField()
    status = serializers.CharField()
    created = serializers.DateTimeField()


class ChallengeSerializer(ChallengeSummarySerializer):
    owner = serializers.CharField()
    seed_commitment = serializers.CharField(help_text="SHA-256 of the secret the boards use")
    seed_secret = serializers.CharField(
        allow_null=True, help_text="hex; revealed once the challenge is over"
    )
    tables_total = serializers.IntegerField(help_text="tables the match has in all")
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
    following = challenges.next_table(challenge)
    over = challenge.status == Challenge.Status.FINISHED
    return {
        **summary_view(challenge),
        "owner": challenge.owner.get_username(),
        "seed_commitment": challenge.seed_commitment,
        "seed_secret": challenge.seed_secret if over else None,
        "tables_total": len(plan(challenge.variant, challenge.boards)),
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
                "api_url": reverse("play-api-table", args=[row.play_table_id]),
            }
            for row in rows
        ],
        "next_table": None if following is None else following.pk,
        "board_results": challenge.board_results,
        "summary": challenge.summary,
        "finished": challenge.finished,
        "url": reverse("play-challenge", args=[challenge.pk]),
    }


def summary_view(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "variant": challenge.variant,
        "opponent": challenge.opponent,
        "boards": challenge.boards,
        "status": challenge.status,
        "created": challenge.created,
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
        if isinstance(data, Response):
            return data
        try:
            # Counted with the page's challenges; a refused one hands its slot back.
            with PLAY_CHALLENGES.spend(request):
                challenge = challenges.challenge_create(
                    owner=request.user,  # type: ignore[arg-type]
                    variant=data["variant"],
                    opponent=data["opponent"],
                    boards=data["boards"],
                )
        except PlayError as error:
            return refused(error)
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
        summary="A challenge: its tables so far, the one to play next, its result at the end",
    )
    def get(self, request: Request, challenge_id: int) -> Response:
        try:
            challenge = challenges.challenge_for(challenge_id=challenge_id, viewer=request.user)
        except PlayError as error:
            return refused(error)
        # As the page: deals the next table once every dealt one is over, scores at the end.
        challenge = challenges.challenge_settle(challenge_id=challenge.pk)
        return Response(ChallengeSerializer(challenge_view(challenge)).data)
