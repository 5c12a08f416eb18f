"""A bot's page (versions, ratings, matches, faults; build logs for its owner), creating a
bot and uploading a version: the same serializers and services as the API."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from arena import selectors, services
from arena.api.serializers import BotCreateSerializer
from arena.errors import InvalidInput, NotFound, ServiceError, TooManyAttempts, form_refused
from arena.http.quotas.throttles import UPLOADS
from arena.identity import asking_player_required
from arena.models import Bot
from arena.pages import charts
from arena.queues.positions import queue_text, version_queue_position
from arena.uploads import MAX_ARCHIVE_BYTES
from arena.variants import variant_choices


def bot_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    return _render_bot(request, bot_id)


def _render_bot(
    request: HttpRequest, bot_id: int, *, upload_error: str = "", status: int = 200
) -> HttpResponse:
    viewer = request.user.pk if request.user.is_authenticated else None
    try:
        page = selectors.bot_page(bot_id=bot_id, viewer_id=viewer)
    except Bot.DoesNotExist:
        raise NotFound(f"there is no bot {bot_id}") from None
    versions = [
        (
            shown,
            charts.rating_line(
                [shown.history[0].before, *(change.after for change in shown.history)]
                if shown.history
                else []
            ),
            queue_text(version_queue_position(shown.version)),
        )
        for shown in reversed(page.versions)
    ]
    context: dict[str, Any] = {
        "page": page,
        "bot": page.bot,
        "versions": versions,
        "chart_width": charts.CHART_WIDTH,
        "chart_height": charts.CHART_HEIGHT,
        "upload_error": upload_error,
        "max_upload": MAX_ARCHIVE_BYTES,
    }
    return render(request, "arena/bot.html", context, status=status)


@require_POST
@login_required
def bot_version_upload(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = services.bot_of_owner(
        bot_id=bot_id, by=asking_player_required(request), doing="add versions"
    )
    # The page and the API draw on one quota (per player and per address); only stored
    # uploads are charged, so a refused one costs nothing.
    upload = request.FILES.get("file")
    try:
        with UPLOADS.spend(request):
            if upload is None:
                raise InvalidInput("choose a file to upload (a .py or .zip)")
            # As the API: one byte past the largest allowed size is enough to refuse more.
            data = upload.read(MAX_ARCHIVE_BYTES + 1)
            version = services.bot_version_submit(bot=bot, data=data, filename=upload.name or "")
    except ServiceError as refusal:
        # The bot's page again, the refusal beside the upload form.
        message = (
            f"too many uploads: try again in {refusal.wait} seconds"
            if isinstance(refusal, TooManyAttempts)
            else str(refusal)
        )
        return form_refused(_render_bot(request, bot_id, upload_error=message), refusal)
    messages.success(request, f"Version {version.number} was received; it is being validated.")
    return redirect("arena:bot", bot_id=bot.pk)


@require_http_methods(["GET", "POST"])
@login_required
def bot_new(request: HttpRequest) -> HttpResponse:
    player = asking_player_required(request)
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        incoming = BotCreateSerializer(data=request.POST)
        if incoming.is_valid():
            try:
                bot = services.bot_create(owner=player, **incoming.validated_data)
            except InvalidInput as error:
                errors = {error.field or "detail": [str(error)]}
            except ValidationError as error:
                errors = {key: list(value) for key, value in error.message_dict.items()}
            else:
                messages.success(request, f"{bot.name} was created: upload its first version.")
                return redirect("arena:bot", bot_id=bot.pk)
        else:
            errors = {key: [str(item) for item in value] for key, value in incoming.errors.items()}
    return render(
        request,
        "arena/bot_new.html",
        {"variants": variant_choices(), "errors": errors, "values": request.POST},
        status=400 if errors else 200,
    )
