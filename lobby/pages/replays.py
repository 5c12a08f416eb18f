"""Each hand of a finished game in the arena's replay viewer (arena/replay_view.py).

A hand is replayable once its game is over: until then its cards are not everybody's (a
hand ended mid-game still tells how the players bid and play, which the others at the table
must not study before the game ends). The hands are dealt again from the game's seed and
log by the engine, so a replay shows exactly the game that was played.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from arena.errors import refuses_as
from arena.replay_view import ViewError, replay_frames, side_rows
from engine.registry import load_game
from lobby import selectors
from lobby.errors import BadTable, TableNotFound
from lobby.models import GameTable


def finished_hands(table: GameTable) -> list[dict[str, Any]]:
    """The replay document of every hand of the table's finished game, in order."""
    game = load_game(table.variant, rules=load_game(table.variant).rules_from_json(table.rules))
    hands = int(table.target["value"]) if table.target["kind"] == "hands" else None
    state = game.new_target_game(table.seed, table.dealer, max_hands=hands)
    documents = []
    for text in table.actions:
        number = state.hand_number
        hand = state.current_hand
        state.apply(game.parse_action(text))
        if state.hand_number != number:
            documents.append(game.write_replay(hand).to_json())
    return documents


def _hand_frames(
    request: HttpRequest, table_id: int, number: int
) -> tuple[GameTable, dict[str, Any], int | None]:
    table = selectors.table_for(table_id=table_id)
    if not table.is_over or table.started is None:
        raise TableNotFound(f"the hands of table {table.pk} are replayed once its game is over")
    hands = finished_hands(table)
    if not 1 <= number <= len(hands):
        raise TableNotFound(f"the game at table {table.pk} had hands 1 to {len(hands)}")
    players = load_game(table.variant).players
    raw = request.GET.get("seat", "")
    if raw in ("", "open"):
        seat = None
    elif raw.isdigit() and int(raw) < players:
        seat = int(raw)
    else:
        raise BadTable(f"seat is 'open' or a seat number from 0 to {players - 1}, not {raw!r}")
    frame = selectors.frame_for(table_id=table.pk, viewer=request.user)
    names = [entry["name"] for entry in frame["seats"]]
    document = hands[number - 1]
    scores = frame["scores"]["hands"][number - 1]
    try:
        frames = replay_frames(document, seat=seat, names=names, team_scores=scores)
    except ViewError as error:
        raise BadTable(str(error)) from None
    return table, frames, seat


@refuses_as("json")
@gzip_page
@require_GET
def hand_frames_json(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    table, frames, _ = _hand_frames(request, table_id, number)
    return JsonResponse({"lobby_table": table.pk, "hand": number, **frames})


@require_GET
def hand_replay(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """One hand of a finished game in the replay viewer, open or as one seat saw it."""
    table, frames, seat = _hand_frames(request, table_id, number)
    raw_step = request.GET.get("step", "0")
    if not raw_step.isdigit() or int(raw_step) >= len(frames["frames"]):
        raise BadTable(f"step is a whole number below {len(frames['frames'])}, not {raw_step!r}")
    url = reverse("lobby:hand-frames", args=[table.pk, number])
    context = {
        "table": table,
        "number": number,
        "seat": seat,
        "step": int(raw_step),
        "frames": frames,
        "steps": frames["frames"],
        "frames_url": url + ("" if seat is None else f"?seat={seat}"),
        "seat_choices": list(enumerate(frames["names"])),
        "sides": side_rows(frames),
    }
    return render(request, "lobby/replay.html", context)
