"""The notices of the signed-in person, and marking them read (arena/notices.py)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena import notices
from arena.models import Notice


class NoticeSerializer(serializers.ModelSerializer[Notice]):
    class Meta:
        model = Notice
        fields = ["id", "kind", "text", "url", "created", "read"]


class MarkedReadSerializer(serializers.Serializer[dict[str, int]]):
    marked = serializers.IntegerField(help_text="how many notices were unread")


class NoticeListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=NoticeSerializer(many=True), summary="Your newest notices")
    def get(self, request: Request) -> Response:
        assert request.user.pk is not None
        shown = notices.notices_of(user_id=request.user.pk)
        return Response(NoticeSerializer(shown, many=True).data)


class NoticeReadView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=MarkedReadSerializer, summary="Mark every notice read")
    def post(self, request: Request) -> Response:
        assert request.user.pk is not None
        return Response({"marked": notices.mark_read(user_id=request.user.pk)})
