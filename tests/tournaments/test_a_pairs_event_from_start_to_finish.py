"""A small Mitchell pairs event through the API: creation, entries, play, standings."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any

import pytest

from arena.models import Player
from tournaments.models import Board, BoardPar, HumanRating
from tournaments.tasks import board_par_task

from .conftest import client_for, entry_payload


def create_event(director: Player, **overrides: Any) -> dict[str, Any]:
    body = {
        "name": "Tuesday pairs",
        "variant": "single4",
        "movement": "mitchell",
        "boards_per_round": 2,
        "par_bot": "greedy",
    }
    body.update(overrides)
    response = client_for(director).post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_mitchell_pairs_event_runs_from_creation_to_final_standings(
    alice: Player, field: list[Player], django_capture_on_commit_callbacks: Any
) -> None:
    director = client_for(alice)
    event = create_event(alice)
    base = f"/api/tournaments/{event['id']}"
    assert len(event["commitment"]) == 64
    assert client_for(None).get(f"{base}/verification/").json().get("secret") is None

    for first, second in zip(field[::2], field[1::2], strict=True):
        response = director.post(
            f"{base}/entries/", {"players": [first.pk, second.pk]}, format="json"
        )
        assert response.status_code == 201, response.json()
    # The par of each board is a task queued when the start commits.
    with django_capture_on_commit_callbacks(execute=True):
        started = director.post(f"{base}/start/", {}, format="json")
    assert started.status_code == 200, started.json()
    assert started.json()["status"] == "running"

    movement = director.get(f"{base}/movement/").json()[0]
    assert (movement["tables"], movement["rounds"]) == (3, 3)
    boards = {board.number: board for board in Board.objects.filter(event_id=event["id"])}
    assert sorted(boards) == [1, 2, 3, 4, 5, 6]
    # Par of every board, played by the greedy bot. The start queued one task per board; a
    # task that already ran in-process (no broker) is skipped, and with a broker (CI) the
    # queued messages go to a worker this test doesn't start, so each runs here.
    for board in boards.values():
        board_par_task.apply(args=[board.pk])
    assert BoardPar.objects.filter(board__event_id=event["id"]).count() == 6

    players_by_pair = {
        entry["number"]: [p["id"] for p in entry["players"]]
        for entry in director.get(f"{base}/entries/").json()[0]["entries"]
    }
    by_id = {p.pk: p for p in field}
    # Each table's North-South player enters the table's results; an East-West player
    # confirms each, as the opponents do on a Bridgemate.
    for seating in movement["seatings"]:
        ns_player = by_id[players_by_pair[seating["sides"][0]["entry"]][0]]
        ew_player = by_id[players_by_pair[seating["sides"][1]["entry"]][1]]
        for number in seating["boards"]:
            board = boards[number]
            payload = entry_payload("single4", board.seed, board.dealer, seating["table"] * 7)
            payload.update(round=seating["round"], table=seating["table"], board=number)
            response = client_for(ns_player).post(f"{base}/results/", payload, format="json")
            assert response.status_code == 201, response.json()
            assert response.json()["status"] == "pending"
            confirmed = client_for(ew_player).post(
                f"{base}/results/{response.json()['id']}/confirm/"
            )
            assert confirmed.json()["status"] == "confirmed", confirmed.json()

    live = client_for(None).get(f"{base}/standings/").json()
    assert live["status"] == "running"

    finished = director.post(f"{base}/finish/")
    assert finished.json()["status"] == "finished"

    # Everyone now sees every result; recompute the matchpoints by hand from the scores.
    results = client_for(None).get(f"{base}/results/").json()
    assert len(results) == 18
    totals: dict[int, float] = defaultdict(float)
    by_board: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in results:
        by_board[row["board"]].append(row)
    for rows in by_board.values():
        assert len(rows) == 3  # every board at every table once
        nets = [r["score_ns"] - r["score_ew"] for r in rows]
        for row, net in zip(rows, nets, strict=True):
            beaten = sum(1 for other in nets if other < net)
            tied = sum(1 for other in nets if other == net) - 1
            assert row["matchpoints_ns"] == 2 * beaten + tied
            assert row["matchpoints_ew"] == 4 - row["matchpoints_ns"]
            totals[row["sides"][0]] += row["matchpoints_ns"]
            totals[row["sides"][1]] += row["matchpoints_ew"]

    standings = client_for(None).get(f"{base}/standings/").json()["sections"][0]["standings"]
    assert {row["entry"]: row["matchpoints"] for row in standings} == dict(totals)
    for row in standings:
        # Six boards, each with a top of 4.
        assert row["percentage"] == round(100 * totals[row["entry"]] / 24, 2)
        assert row["field"] == ("NS" if row["entry"] <= 3 else "EW")
    for direction in ("NS", "EW"):
        ranked = [r for r in standings if r["field"] == direction]
        assert [r["rank"] for r in ranked] == [1, 2, 3]
        assert ranked == sorted(ranked, key=lambda r: -r["percentage"])

    verification = client_for(None).get(f"{base}/verification/").json()
    assert verification["verified"] is True
    secret = bytes.fromhex(verification["secret"])
    assert hashlib.sha256(secret).hexdigest() == event["commitment"]

    card = client_for(field[0]).get(f"{base}/scorecard/").json()
    first_board = card["rounds"][0]["boards"][0]
    assert first_board["par"]["bot"] == "greedy"
    assert first_board["matchpoints"] == first_board["result"]["matchpoints_ns"]

    comparison = client_for(None).get(f"{base}/boards/1/").json()
    assert comparison["par"]["bot"] == "greedy"
    assert len(comparison["results"]) == 3

    html = client_for(None).get(f"{base}/hand-records/")
    assert html.status_code == 200
    assert b"Board 6" in html.content and b"Par (greedy bot)" in html.content
    pdf = client_for(None).get(f"{base}/hand-records.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")

    # Every player is now rated; partners moved together.
    ratings = {r.player_id: r.rating for r in HumanRating.objects.filter(variant="single4")}
    assert len(ratings) == 12
    for first, second in zip(field[::2], field[1::2], strict=True):
        assert ratings[first.pk] == ratings[second.pk]
    # The team model's updates are zero-sum only while every player's uncertainty is equal;
    # after the first rounds they differ a little, so the field stays centred, not exactly.
    assert sum(ratings.values()) / 12 == pytest.approx(1500, abs=0.5)

    listed = client_for(None).get("/api/tournaments/ratings/?variant=single4").json()
    assert listed["count"] == 12

    # The director may show the same event on the 1 and 1/2 scale: matchpoints and tops
    # halve, percentages do not move.
    halved = director.patch(f"{base}/", {"scale": "1-0.5"}, format="json")
    assert halved.json()["scale"] == "1-0.5"
    again = client_for(None).get(f"{base}/standings/").json()["sections"][0]["standings"]
    before = {row["entry"]: row for row in standings}
    for row in again:
        assert row["matchpoints"] == before[row["entry"]]["matchpoints"] / 2
        assert row["top"] == 12
        assert row["percentage"] == before[row["entry"]]["percentage"]
