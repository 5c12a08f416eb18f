"""League pages: the list, a league, a season (rounds, fixtures, standings, divisions), and
the organisers' and entrants' forms, which call the same serializers and services as the API."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from arena.errors import InvalidInput, NotFound
from arena.identity import asking_player, asking_player_required
from arena.variants import variant_choices
from leagues import selectors, services
from leagues.api.serializers import (
    LeagueCreateSerializer,
    LeagueEntryCreateSerializer,
    LeagueRoundScheduleSerializer,
    LeagueSeasonCreateSerializer,
    LeagueTimetableSerializer,
    LeagueUpdateSerializer,
    timetable_data,
)
from leagues.api.views import TIEBREAKS
from leagues.models import Entry, League, Season

TIEBREAK_LABELS = {
    "points": "points (win 2, draw 1, loss 0)",
    "board_difference": "board-score difference",
    "sonneborn_berger": "Sonneborn-Berger",
    "buchholz": "Buchholz",
    "rung": "ladder rung",
    "round_reached": "the round reached (the champion first)",
    "seed": "seed",
}

Errors = dict[str, list[str]]
LEAGUE_FIELDS = (
    "name",
    "description",
    "variant",
    "format",
    "boards_per_match",
    "decision_ms",
    "bank_ms",
    "ladder_reach",
)


class DivisionLinesError(ValueError):
    """A line of the divisions field does not read as ``name, promoted, relegated``."""


def league_list(request: HttpRequest) -> HttpResponse:
    return render(request, "leagues/league_list.html", {"leagues": selectors.league_list()})


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    return _render_league(request, league_id)


def _render_league(
    request: HttpRequest, league_id: int, *, errors: Errors | None = None, status: int = 200
) -> HttpResponse:
    try:
        page = selectors.league_page(league_id=league_id)
    except League.DoesNotExist:
        raise NotFound(f"there is no league {league_id}") from None
    league = page.league
    return render(
        request,
        "leagues/league.html",
        {
            "page": page,
            "league": league,
            "is_organiser": selectors.is_organiser(league=league, viewer=asking_player(request)),
            "tiebreaks": [
                TIEBREAK_LABELS[name] for name in TIEBREAKS[League.Format(league.format)]
            ],
            "timetable": timetable_data(league),
            "errors": errors or {},
            "values": request.POST,
        },
        status=status,
    )


def season_detail(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    return _render_season(request, league_id, number)


def _render_season(
    request: HttpRequest,
    league_id: int,
    number: int,
    *,
    errors: Errors | None = None,
    status: int = 200,
) -> HttpResponse:
    viewer = request.user.pk if request.user.is_authenticated else None
    try:
        page = selectors.season_page(league_id=league_id, number=number, viewer_id=viewer)
    except Season.DoesNotExist:
        raise NotFound(f"league {league_id} has no season {number}") from None
    league = page.league
    last = page.rounds[-1].round.number if page.rounds else 0
    return render(
        request,
        "leagues/season.html",
        {
            "page": page,
            "season": page.season,
            "league": league,
            "is_organiser": selectors.is_organiser(league=league, viewer=asking_player(request)),
            "tiebreaks": [
                TIEBREAK_LABELS[name] for name in TIEBREAKS[League.Format(league.format)]
            ],
            "next_round": last + 1,
            "rounds_left": page.season.round_count is None or last < page.season.round_count,
            "divisions": page.divisions,
            "errors": errors or {},
            "values": request.POST,
        },
        status=status,
    )


def season_bracket(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    """A knockout season's bracket: seeds, byes, results linked to their matches, the
    champion."""
    try:
        page = selectors.bracket_page(league_id=league_id, number=number)
    except Season.DoesNotExist:
        raise NotFound(f"league {league_id} has no knockout season {number}") from None
    return render(
        request,
        "leagues/bracket.html",
        {"page": page, "season": page.season, "league": page.league},
    )


@require_http_methods(["GET", "POST"])
@login_required
def league_new(request: HttpRequest) -> HttpResponse:
    player = asking_player_required(request)
    errors: Errors = {}
    if request.method == "POST":
        data: dict[str, Any] = {
            key: request.POST[key] for key in LEAGUE_FIELDS if request.POST.get(key)
        }
        data["allow_follow_latest"] = "allow_follow_latest" in request.POST
        incoming = LeagueCreateSerializer(data=data)
        if incoming.is_valid():
            try:
                league = services.league_create(organiser=player, **incoming.validated_data)
            except InvalidInput as error:
                errors = {error.field or "detail": [str(error)]}
            else:
                messages.success(request, f"The league {league.name} was created.")
                return redirect("leagues:league", league_id=league.pk)
        else:
            errors = _serializer_errors(incoming.errors)
    return render(
        request,
        "leagues/league_new.html",
        {
            "variants": variant_choices(),
            "formats": League.Format.choices,
            "errors": errors,
            "values": request.POST,
        },
        status=400 if errors else 200,
    )


EDITABLE_NUMBERS = ("boards_per_match", "decision_ms", "bank_ms", "ladder_reach")
"""The numbers the organiser may change, as the API's ``PATCH`` takes them; one left empty
is left as it is (the API has no way to empty one either)."""


@require_http_methods(["GET", "POST"])
@login_required
def league_edit(request: HttpRequest, league_id: int) -> HttpResponse:
    """The organiser's form for what the API's ``PATCH`` of a league may change: its name,
    description, boards a match, time control and entries' versions (a ladder's reach too)."""
    league = selectors.league_get(league_id=league_id)
    if league is None:
        raise NotFound(f"there is no league {league_id}")
    league = services.league_of_organiser(
        league=league, by=asking_player_required(request), doing="edit the league"
    )
    # The name as saved: a refused change must not show as the page's title.
    saved_name = league.name
    errors: Errors = {}
    values: Any = request.POST
    if request.method == "POST":
        # A browser sends a textarea's line breaks as CRLF; the description is stored as the
        # API's clients send it, with LF (and its length counted as the textarea counts it).
        data: dict[str, Any] = {
            key: request.POST[key].replace("\r\n", "\n")
            for key in ("name", "description")
            if key in request.POST
        }
        data.update((key, request.POST[key]) for key in EDITABLE_NUMBERS if request.POST.get(key))
        data["allow_follow_latest"] = "allow_follow_latest" in request.POST
        incoming = LeagueUpdateSerializer(data=data, partial=True)
        if incoming.is_valid():
            try:
                services.league_update(league=league, **incoming.validated_data)
            except InvalidInput as error:
                errors = {error.field or "detail": [str(error)]}
            else:
                messages.success(request, f"The league {league.name} is saved.")
                return redirect("leagues:league", league_id=league.pk)
        else:
            errors = _serializer_errors(incoming.errors)
    else:
        values = {
            "name": league.name,
            "description": league.description,
            "boards_per_match": league.boards_per_match,
            "decision_ms": league.decision_ms or "",
            "bank_ms": league.bank_ms or "",
            "ladder_reach": league.ladder_reach,
            "allow_follow_latest": league.allow_follow_latest,
        }
    return render(
        request,
        "leagues/league_edit.html",
        {"league": league, "saved_name": saved_name, "errors": errors, "values": values},
        status=400 if errors else 200,
    )


@require_POST
@login_required
def season_new(request: HttpRequest, league_id: int) -> HttpResponse:
    league = selectors.league_get(league_id=league_id)
    if league is None:
        raise NotFound(f"there is no league {league_id}")
    league = services.league_of_organiser(
        league=league, by=asking_player_required(request), doing="open a season"
    )
    try:
        divisions = division_lines(request.POST.get("divisions", ""))
    except DivisionLinesError as error:
        return _render_league(request, league_id, errors={"divisions": [str(error)]}, status=400)
    data: dict[str, Any] = {
        "name": request.POST.get("name", ""),
        "carry_over": "carry_over" in request.POST,
    }
    if request.POST.get("planned_rounds"):
        data["planned_rounds"] = request.POST["planned_rounds"]
    if divisions:
        data["divisions"] = divisions
    incoming = LeagueSeasonCreateSerializer(data=data)
    if not incoming.is_valid():
        return _render_league(
            request, league_id, errors=_serializer_errors(incoming.errors), status=400
        )
    try:
        season = services.season_create(league=league, **incoming.validated_data)
    except InvalidInput as error:
        return _render_league(
            request, league_id, errors={error.field or "detail": [str(error)]}, status=400
        )
    messages.success(request, f"Season {season.number} is open for entries.")
    return redirect("leagues:season", league_id=league_id, number=season.number)


@require_POST
@login_required
def timetable_set(request: HttpRequest, league_id: int) -> HttpResponse:
    """The organiser's timetable, as the API's ``PUT``/``DELETE .../timetable/``: a number
    of minutes sets it, ``clear`` stops it."""
    league = selectors.league_get(league_id=league_id)
    if league is None:
        raise NotFound(f"there is no league {league_id}")
    league = services.league_of_organiser(
        league=league, by=asking_player_required(request), doing="change the timetable"
    )
    if "clear" in request.POST:
        services.league_timetable_clear(league=league)
        messages.success(request, "The timetable is stopped: rounds are scheduled by hand.")
        return redirect("leagues:league", league_id=league_id)
    incoming = LeagueTimetableSerializer(
        data={"every_minutes": request.POST.get("every_minutes", "")}
    )
    if not incoming.is_valid():
        return _render_league(
            request, league_id, errors=_serializer_errors(incoming.errors), status=400
        )
    every = incoming.validated_data["every_minutes"]
    try:
        services.league_timetable_set(league=league, every_minutes=every)
    except InvalidInput as error:
        return _render_league(
            request, league_id, errors={error.field or "detail": [str(error)]}, status=400
        )
    messages.success(request, f"The next round is scheduled every {every} minutes.")
    return redirect("leagues:league", league_id=league_id)


@require_POST
@login_required
def entry_new(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    season = selectors.season_get(league_id=league_id, number=number)
    if season is None:
        raise NotFound(f"league {league_id} has no season {number}")
    player = asking_player_required(request)
    data: dict[str, Any] = {
        key: request.POST[key] for key in ("bot", "version", "division") if request.POST.get(key)
    }
    data["follows_latest"] = "follows_latest" in request.POST
    incoming = LeagueEntryCreateSerializer(data=data)
    if not incoming.is_valid():
        return _render_season(
            request, league_id, number, errors=_serializer_errors(incoming.errors), status=400
        )
    valid = incoming.validated_data
    # The API's service: it looks the bot up, checks it is the player's, and enters it.
    try:
        entry = services.entry_enter(
            season=season,
            by=player,
            bot_id=valid["bot"],
            version_number=valid.get("version"),
            division_name=valid.get("division"),
            follows_latest=valid["follows_latest"],
        )
    except InvalidInput as error:
        return _render_season(
            request, league_id, number, errors={error.field or "detail": [str(error)]}, status=400
        )
    messages.success(request, f"{entry.bot.name} is entered in season {season.number}.")
    return redirect("leagues:season", league_id=league_id, number=number)


@require_POST
@login_required
def entry_withdraw(
    request: HttpRequest, league_id: int, number: int, entry_id: int
) -> HttpResponse:
    """The bot's owner or the organiser withdraws an entry before the season starts, as the
    API's entry removal does."""
    entry = (
        Entry.objects.filter(pk=entry_id, season__league_id=league_id, season__number=number)
        .select_related("bot", "season__league")
        .first()
    )
    if entry is None:
        raise NotFound(f"season {number} of league {league_id} has no entry {entry_id}")
    name = entry.bot.name
    try:
        services.entry_withdraw(entry=entry, by=asking_player_required(request))
    except InvalidInput as error:
        return _render_season(
            request, league_id, number, errors={"detail": [str(error)]}, status=400
        )
    messages.success(request, f"{name} is withdrawn from season {number}.")
    return redirect("leagues:season", league_id=league_id, number=number)


@require_POST
@login_required
def round_new(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    season = selectors.season_get(league_id=league_id, number=number)
    if season is None:
        raise NotFound(f"league {league_id} has no season {number}")
    services.league_of_organiser(
        league=season.league, by=asking_player_required(request), doing="schedule rounds"
    )
    incoming = LeagueRoundScheduleSerializer(data={"number": request.POST.get("number", "")})
    if not incoming.is_valid():
        return _render_season(
            request, league_id, number, errors=_serializer_errors(incoming.errors), status=400
        )
    try:
        round_, created = services.round_schedule(
            season=season, number=incoming.validated_data["number"]
        )
    except InvalidInput as error:
        return _render_season(
            request, league_id, number, errors={error.field or "detail": [str(error)]}, status=400
        )
    if created:
        messages.success(request, f"Round {round_.number} is scheduled; its matches are queued.")
    else:
        messages.info(request, f"Round {round_.number} was already scheduled.")
    return redirect("leagues:season", league_id=league_id, number=number)


def division_lines(text: str) -> list[dict[str, Any]]:
    """Divisions typed one a line, top first, as ``name, promoted, relegated``.

    >>> [tuple(d.values()) for d in division_lines("Premier, 0, 2\\n\\nSecond, 2")]
    [('Premier', 0, 2), ('Second', 2, 0)]
    """
    divisions = []
    for index, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, *counts = (part.strip() for part in line.split(","))
        if not name or len(counts) > 2 or not all(count.isdigit() for count in counts):
            raise DivisionLinesError(
                f"line {index}: write a division as 'name, promoted, relegated' "
                f"(whole numbers), not {line.strip()!r}"
            )
        promoted, relegated = ([int(count) for count in counts] + [0, 0])[:2]
        divisions.append({"name": name, "promoted": promoted, "relegated": relegated})
    return divisions


def _serializer_errors(errors: Any) -> Errors:
    flattened: Errors = {}
    for key, value in dict(errors).items():
        name = "detail" if key == "non_field_errors" else key
        flattened[name] = [str(item) for item in (value if isinstance(value, list) else [value])]
    return flattened
