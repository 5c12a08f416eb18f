"""A bot's page (versions, ratings, matches, faults; build logs for its owner), creating a
bot, uploading a version and challenging the bot: the same serializers and services as the
API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from arena import selectors, services
from arena.api.serializers import BotCreateSerializer, MatchCreateSerializer
from arena.errors import InvalidInput, NotFound, ServiceError, TooManyAttempts, form_refused
from arena.http.quotas.throttles import CHALLENGES, UPLOADS
from arena.identity import asking_player_required
from arena.models import Bot, BotVersion, Match
from arena.pages import charts
from arena.queues.positions import queue_text, version_queue_positions
from arena.services.matches import MAX_BOARDS
from arena.uploads import MAX_ARCHIVE_BYTES
from arena.variants import variant_choices


def bot_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    return _render_bot(request, bot_id)


def _render_bot(
    request: HttpRequest,
    bot_id: int,
    *,
    upload_error: str = "",
    challenge_error: str = "",
    challenge_values: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    page, versions = _bot_read(request, bot_id)
    context: dict[str, Any] = {
        "page": page,
        "bot": page.bot,
        "versions": versions,
        "live": _live(page),
        "active": _active(page),
        "chart_width": charts.CHART_WIDTH,
        "chart_height": charts.CHART_HEIGHT,
        "upload_error": upload_error,
        "max_upload": MAX_ARCHIVE_BYTES,
        "challenge": _challenge_form(
            request, page, error=challenge_error, values=challenge_values or {}
        ),
    }
    return render(request, "arena/bot.html", context, status=status)


def bot_live(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The part of the bot's page that changes while it waits on something (its versions
    and recent matches), for the page to poll: read as the page reads it, for the same
    reader, so that it holds nothing the page would not."""
    page, versions = _bot_read(request, bot_id)
    context: dict[str, Any] = {
        "page": page,
        "bot": page.bot,
        "versions": versions,
        "live": _live(page),
        "active": _active(page),
    }
    # The page says which versions were active when it was drawn: when that has changed (a
    # version passed validation, or was disabled), its challenge form is drawn again too.
    if request.GET.get("active") != context["active"]:
        context["challenge"] = _challenge_form(request, page, error="", values={})
    return render(request, "arena/_bot_live.html", context)


VersionRow = tuple[selectors.VersionOnPage, charts.LineChart | None, str]


def _bot_read(request: HttpRequest, bot_id: int) -> tuple[selectors.BotPage, list[VersionRow]]:
    """The bot's page as its reader may see it, and its versions' rows, newest first."""
    viewer = request.user.pk if request.user.is_authenticated else None
    try:
        page = selectors.bot_page(bot_id=bot_id, viewer_id=viewer)
    except Bot.DoesNotExist:
        raise NotFound(f"there is no bot {bot_id}") from None
    places = version_queue_positions([shown.version for shown in page.versions])
    versions = [
        (
            shown,
            charts.rating_line(
                [shown.history[0].before, *(change.after for change in shown.history)]
                if shown.history
                else []
            ),
            queue_text(places.get(shown.version.pk)),
        )
        for shown in reversed(page.versions)
    ]
    return page, versions


def _active(page: selectors.BotPage) -> str:
    """The numbers of the bot's active versions, as the page's poll carries them."""
    return ",".join(
        str(shown.version.number)
        for shown in page.versions
        if shown.version.status == BotVersion.Status.ACTIVE
    )


def _live(page: selectors.BotPage) -> bool:
    """Whether the page waits on something: a version in validation, a match not over."""
    return any(shown.version.status == BotVersion.Status.PENDING for shown in page.versions) or any(
        match.status in (Match.Status.QUEUED, Match.Status.RUNNING) for match in page.recent_matches
    )


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


@dataclass(frozen=True)
class ChallengeForm:
    """The bot page's challenge form: what the reader may choose, and what she sent."""

    opponents: list[BotVersion]
    """The bot's active versions, newest first: the ones that can be challenged."""
    mine: list[BotVersion]
    """The reader's own active versions in the bot's variant (empty for a visitor)."""
    boards: int
    max_boards: int
    error: str
    values: dict[str, str]


def _challenge_form(
    request: HttpRequest, page: selectors.BotPage, *, error: str, values: dict[str, str]
) -> ChallengeForm:
    opponents = [
        shown.version
        for shown in reversed(page.versions)
        if shown.version.status == BotVersion.Status.ACTIVE
    ]
    mine = (
        selectors.challenger_versions(user_id=request.user.pk, variant=page.bot.variant)
        if request.user.is_authenticated and opponents
        else []
    )
    return ChallengeForm(
        opponents=opponents,
        mine=mine,
        # A challenge this long is played on the interactive queue, so it starts at once.
        boards=min(settings.INTERACTIVE_MATCH_BOARDS, MAX_BOARDS),
        max_boards=MAX_BOARDS,
        error=error,
        values=values,
    )


CHALLENGE_FIELDS = {"version": "Your version", "opponent_number": "Opponent", "boards": "Boards"}
"""The form's fields, by the API's names, with the labels the page gives them."""


@require_POST
@login_required
def bot_challenge(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Challenge this bot (its latest active version, or the one chosen) with one of your own
    versions: the API's serializer and service, and the API's quota."""
    player = asking_player_required(request)
    if not Bot.objects.filter(pk=bot_id).exists():
        raise NotFound(f"there is no bot {bot_id}")
    values = {name: request.POST.get(name, "").strip() for name in CHALLENGE_FIELDS}
    # The opponent is this page's bot, whatever else the form says; blank fields are left
    # out, so that the serializer applies the API's defaults (its latest active version).
    data: dict[str, Any] = {name: value for name, value in values.items() if value}
    data["opponent_bot"] = bot_id
    try:
        with CHALLENGES.spend(request) as reservation:  # only accepted challenges count
            if "version" not in data:
                raise InvalidInput("choose which of your versions plays the challenge")
            incoming = MatchCreateSerializer(data=data)
            if not incoming.is_valid():
                raise InvalidInput(_first_error(incoming.errors))
            match, created = services.match_challenge_once(by=player, **incoming.validated_data)
            if not created:
                reservation.release()  # the same challenge again is not another one
    except ServiceError as refusal:
        response = _render_bot(
            request, bot_id, challenge_error=_challenge_refusal(refusal), challenge_values=values
        )
        return form_refused(response, refusal)
    x, y = match.version_x, match.version_y
    if created:
        told = f"Your challenge is match {match.pk}"
    else:
        # A form sent twice (a double click) is the same challenge: it is not queued again.
        told = f"Your challenge was already queued as match {match.pk}, and is not sent twice"
    messages.success(
        request,
        f"{told}: {x} against {y} over {match.board_count} boards. "
        "This page follows it until it is played.",
    )
    return redirect("arena:match", match_id=match.pk)


def _first_error(errors: dict[str, Any]) -> str:
    """The serializer's first complaint, named by the form's label for the field."""
    name, complaints = next(iter(errors.items()))
    label = CHALLENGE_FIELDS.get(name)
    text = str(complaints[0])
    return f"{label}: {text}" if label else text


def _challenge_refusal(refusal: ServiceError) -> str:
    """A refusal in words a person can act on."""
    if isinstance(refusal, TooManyAttempts):
        return (
            f"You have sent as many challenges as the arena takes for now "
            f"({refusal.message.removeprefix('Throttled: ').rstrip('.')}): "
            f"try again in {_duration(refusal.wait)}."
        )
    # The service's own words (they may begin with a name, so they keep their case).
    return refusal.message if refusal.message.endswith(".") else f"{refusal.message}."


def _duration(seconds: int) -> str:
    """``seconds`` as a person reads a wait: "45 seconds", "1 minute", "12 minutes"."""
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = round(seconds / 60)
    return f"{minutes} minutes"


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
