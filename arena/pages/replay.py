"""The replay viewer: one table of one board of a finished match, step by step.

The page is server-rendered (every step as text, the result breakdown) and enhanced by
``arena/static/arena/replay/replay.js``, which draws the table from ``frames.json``. Both
read the same frames (``arena.replay_view``): a seat's view holds that seat's observations
and nothing else, so neither the page nor the JSON can show a card the seat did not see.
Neither knows the game: the frames carry the table, the captions and the breakdown that
the game's observer wrote.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page

from arena import selectors
from arena.errors import Conflict, InvalidInput, NotFound, refuses_as
from arena.models import BotVersion, Game, Match
from arena.replay_view import ViewError, replay_frames, side_rows
from engine.registry import load_game


def _game(match_id: int, board: int, table: str) -> tuple[Match, Game]:
    match = selectors.match_list().filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"there is no match {match_id}")
    if match.status != Match.Status.DONE:
        # A running match's other tables play the same boards: nothing of it is shown.
        raise Conflict(f"match {match.pk} is {match.status}: its replays open once it is over")
    game = selectors.match_games(match=match, board=board, table=table).first()
    if game is None:
        raise NotFound(f"match {match.pk} has no table {table} on board {board}")
    return match, game


def _seat(request: HttpRequest, players: int) -> int | None:
    raw = request.GET.get("seat", "")
    if raw in ("", "open"):
        return None
    if not raw.isdigit() or not 0 <= int(raw) < players:
        raise InvalidInput(f"seat is 'open' or a seat number from 0 to {players - 1}, not {raw!r}")
    return int(raw)


def _step(request: HttpRequest, steps: int) -> int:
    raw = request.GET.get("step", "0")
    if not raw.isdigit() or int(raw) >= steps:
        raise InvalidInput(f"step is a whole number from 0 to {steps - 1}, not {raw!r}")
    return int(raw)


def _names(game: Game) -> list[str]:
    versions = BotVersion.objects.select_related("bot__owner__user").in_bulk(game.seat_versions)
    return [
        f"{versions[v].bot.owner.user.username}/{versions[v].bot.name} v{versions[v].number}"
        if v in versions
        else f"version {v}"
        for v in game.seat_versions
    ]


def _frames(game: Game, seat: int | None) -> dict[str, Any]:
    document = game.replay.document
    try:
        return replay_frames(
            document["hand"],
            seat=seat,
            names=_names(game),
            fault=document.get("fault"),
            team_scores=document.get("team_scores"),
        )
    except ViewError as error:
        raise InvalidInput(str(error)) from None


# The longest hands' frames are up to 2 MiB of JSON and some 30 KiB gzipped (see
# tests/bench/bench_replay_frames.py). Every view of a finished match is public, so what
# compression could leak to a prober is nothing a reader could not fetch outright.
@refuses_as("json")
@gzip_page
def replay_frames_json(request: HttpRequest, match_id: int, board: int, table: str) -> HttpResponse:
    """The frames of one table, in the open view or one seat's (``?seat=N``)."""
    match, game = _game(match_id, board, table)
    frames = _frames(game, _seat(request, load_game(match.variant).players))
    return JsonResponse({"match": match.pk, "board": board, "table": table, **frames})


def replay_page(request: HttpRequest, match_id: int, board: int, table: str) -> HttpResponse:
    match, game = _game(match_id, board, table)
    players = load_game(match.variant).players
    seat = _seat(request, players)
    frames = _frames(game, seat)
    step = _step(request, len(frames["frames"]))
    url = reverse("arena:replay-frames", args=[match.pk, board, table])
    context = {
        "match": match,
        "game": game,
        "board": board,
        "table": table,
        "seat": seat,
        "step": step,
        "frames": frames,
        "steps": frames["frames"],
        "frames_url": url + ("" if seat is None else f"?seat={seat}"),
        "seat_choices": [(s, frames["names"][s]) for s in range(players)],
        "tables": list(
            selectors.match_games(match=match, board=board).values_list("table", flat=True)
        ),
        "sides": side_rows(frames),
    }
    return render(request, "arena/replay.html", context)
