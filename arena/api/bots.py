"""The arena's REST endpoints: thin views over services and selectors."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from arena import selectors, services
from arena.api.filters import BotFilter
from arena.api.serializers import (
    BotCreateSerializer,
    BotSerializer,
    BotVersionSerializer,
    BotVersionUploadSerializer,
    OwnerBotVersionSerializer,
    PlayerRegisterSerializer,
    PlayerSerializer,
    RegisteredPlayerSerializer,
)
from arena.errors import InvalidInput
from arena.http import idempotency
from arena.http.parsers import JSONParser
from arena.http.quotas.throttles import REGISTRATIONS, UPLOADS
from arena.identity import asking_player, asking_player_required
from arena.models import Bot, BotVersion, Player
from arena.uploads import MAX_ARCHIVE_BYTES


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Player],
):
    """Players: anyone may list them; anyone may register (POST) and receives a token."""

    serializer_class = PlayerSerializer
    permission_classes = [permissions.AllowAny]
    lookup_value_regex = r"\d+"
    ordering_fields = ["id", "created", "display_name"]

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.player_list()

    @extend_schema(request=PlayerRegisterSerializer, responses={201: RegisteredPlayerSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with REGISTRATIONS.spend(request):  # a refused registration hands its slot back
            incoming = PlayerRegisterSerializer(data=request.data)
            incoming.is_valid(raise_exception=True)
            player = services.player_register(**incoming.validated_data)
        token, _ = Token.objects.get_or_create(user=player.user)
        player.bot_count = 0  # type: ignore[attr-defined]
        player.token = token.key  # type: ignore[attr-defined]
        return Response(RegisteredPlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class BotViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Bot],
):
    """Bots: public listing and detail; an authenticated player creates bots they own."""

    serializer_class = BotSerializer
    filterset_class = BotFilter
    lookup_value_regex = r"\d+"
    ordering_fields = ["id", "created", "name"]

    def get_queryset(self) -> QuerySet[Bot]:
        return selectors.bot_list()

    @extend_schema(request=BotCreateSerializer, responses={201: BotSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        owner = asking_player_required(request)
        incoming = BotCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        bot = services.bot_create(owner=owner, **incoming.validated_data)
        return Response(
            BotSerializer(selectors.bot_list().get(pk=bot.pk)).data, status=status.HTTP_201_CREATED
        )


class BotVersionListView(GenericAPIView[BotVersion]):
    """A bot's versions: everyone sees the list; only the owner uploads and sees build logs."""

    parser_classes = [MultiPartParser, FormParser, JSONParser]
    serializer_class = BotVersionSerializer

    def _bot(self) -> Bot:
        return get_object_or_404(Bot.objects.select_related("owner"), pk=self.kwargs["bot_id"])

    def get_queryset(self) -> QuerySet[BotVersion]:
        # The browsable API's filter form asks for it; the schema generator has no URL.
        if getattr(self, "swagger_fake_view", False):
            return BotVersion.objects.none()
        return selectors.bot_version_list(bot=self._bot())

    @extend_schema(responses=OwnerBotVersionSerializer(many=True))
    def get(self, request: Request, bot_id: int) -> Response:
        bot = self._bot()
        owner = selectors.is_bot_owner(bot=bot, viewer=asking_player(request))
        output = OwnerBotVersionSerializer if owner else BotVersionSerializer
        page = self.paginate_queryset(selectors.bot_version_list(bot=bot))
        return self.get_paginated_response(output(page, many=True).data)

    @extend_schema(
        request=BotVersionUploadSerializer,
        parameters=[idempotency.OPENAPI_HEADER],
        responses={
            201: OwnerBotVersionSerializer,
            202: OpenApiResponse(
                OwnerBotVersionSerializer, "stored; validated when the broker is back"
            ),
        },
    )
    def post(self, request: Request, bot_id: int) -> Response:
        return idempotency.respond(
            request, handler=lambda: self._upload(request), settle=_validation_waiting
        )

    def _upload(self, request: Request) -> Response:
        bot = services.bot_of_owner(
            bot_id=self._bot().pk, by=asking_player_required(request), doing="add versions"
        )
        with UPLOADS.spend(request):  # only stored uploads count: a refused one costs nothing
            incoming = BotVersionUploadSerializer(data=request.data)
            incoming.is_valid(raise_exception=True)
            data, filename = _uploaded_bytes(incoming.validated_data)
            version = services.bot_version_submit(bot=bot, data=data, filename=filename)
        version.refresh_from_db()
        return Response(OwnerBotVersionSerializer(version).data, status=status.HTTP_201_CREATED)


def _uploaded_bytes(validated: dict[str, Any]) -> tuple[bytes, str]:
    upload = validated.get("file")
    if upload is not None:
        # Reading one byte past the largest allowed size is enough to refuse anything bigger
        # without pulling a huge upload into memory.
        return upload.read(MAX_ARCHIVE_BYTES + 1), upload.name or validated["filename"]
    try:
        return validated["source"].encode("utf-8"), validated["filename"]
    except UnicodeEncodeError:
        raise InvalidInput("the source text is not valid Unicode", field="source") from None


class BotVersionDetailView(APIView):
    @extend_schema(responses=OwnerBotVersionSerializer)
    def get(self, request: Request, bot_id: int, number: int) -> Response:
        version = get_object_or_404(
            BotVersion.objects.defer("source").select_related("bot__owner"),
            bot_id=bot_id,
            number=number,
        )
        owner = selectors.is_bot_owner(bot=version.bot, viewer=asking_player(request))
        output = OwnerBotVersionSerializer if owner else BotVersionSerializer
        return Response(output(version).data)


class BotVersionSourceView(APIView):
    """The uploaded file itself, for the bot's owner only."""

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request: Request, bot_id: int, number: int) -> HttpResponse:
        version = get_object_or_404(
            BotVersion.objects.select_related("bot__owner"), bot_id=bot_id, number=number
        )
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        version = selectors.bot_version_source(
            version=version, viewer=asking_player_required(request)
        )
        is_zip = version.kind == BotVersion.Kind.ZIP
        response = HttpResponse(
            bytes(version.source),
            content_type="application/zip" if is_zip else "text/x-python; charset=utf-8",
        )
        filename = f"{version.bot.name}-v{version.number}.{'zip' if is_zip else 'py'}"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


def waiting_for_broker(
    response: Response, stored: Any, serializer: type[Serializer[Any]], detail: str
) -> Response:
    """202 instead of 201 when what was ``stored`` (a version, a match: anything with
    ``publish_pending``) could not be sent to the workers yet; the body is ``stored`` as the
    serializer gives it, and the ``detail`` of what happens when the queue is back."""
    if not stored.publish_pending:
        return response
    body = {**serializer(stored).data, "detail": detail}
    return Response(body, status=status.HTTP_202_ACCEPTED)


def _validation_waiting(response: Response) -> Response:
    version = BotVersion.objects.get(pk=response.data["id"])
    return waiting_for_broker(
        response,
        version,
        OwnerBotVersionSerializer,
        "the version is stored, but the task queue is unreachable: it is validated as soon "
        "as the queue is back (do not upload it again)",
    )
