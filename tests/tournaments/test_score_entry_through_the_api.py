"""Score entry over the API: refusals are 400s naming the broken rule and the field."""

from __future__ import annotations

from typing import Any

from arena.models import Player
from engine import rules_for
from tournaments.models import Board, Result

from .conftest import client_for, entry_payload, running_event


def played_payload(board: Board) -> dict[str, Any]:
    return next(
        payload
        for play_seed in range(100)
        if (payload := entry_payload("single4", board.seed, board.dealer, play_seed))["outcome"]
        == "played"
    )


def test_a_bid_off_the_ladder_is_a_400_naming_the_rule(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field)
    board = Board.objects.get(event=event, number=1)
    payload = dict(played_payload(board), bid=rules_for("single4").bid_max + 1)
    payload.update(round=1, table=1, board=1)
    response = client_for(alice).post(
        f"/api/tournaments/{event.pk}/results/", payload, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["detail"].startswith("bid_ladder:")
    assert body["bid"] == [body["detail"]]
    assert not Result.objects.exists()


def test_counters_that_do_not_add_up_are_refused(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field)
    board = Board.objects.get(event=event, number=1)
    payload = played_payload(board)
    payload.update(round=1, table=1, board=1, taken=[payload["taken"][0], payload["taken"][1] + 1])
    response = client_for(alice).post(
        f"/api/tournaments/{event.pk}/results/", payload, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"].startswith("counters_total:")
    assert "taken" in response.json()


def test_more_counters_than_are_in_play_are_a_400_naming_them(
    alice: Player, field: list[Player]
) -> None:
    # RULES.md section 4: 25 counters are in play in single4.
    event = running_event(alice, field)
    board = Board.objects.get(event=event, number=1)
    payload = dict(played_payload(board), round=1, table=1, board=1, taken=[40, 0])
    response = client_for(alice).post(
        f"/api/tournaments/{event.pk}/results/", payload, format="json"
    )
    assert response.status_code == 400
    message = "counters: 40 counters entered for North-South, but only 25 are in play in single4"
    assert response.json()["detail"] == message
    assert response.json()["taken"] == [message]
    assert not Result.objects.exists()


def test_a_board_the_table_does_not_play_this_round_is_refused(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    board = Board.objects.get(event=event, number=3)
    payload = played_payload(board)
    payload.update(round=1, table=1, board=3)
    response = client_for(alice).post(
        f"/api/tournaments/{event.pk}/results/", payload, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "table 1 plays boards [1, 2] in round 1, not board 3"


def test_a_table_with_a_sit_out_takes_no_results(alice: Player, field: list[Player]) -> None:
    # Five pairs: three tables, and pair 6 (East-West at table 3 in round 1) does not exist.
    event = running_event(alice, field[:10])
    scorecard = client_for(alice).get(f"/api/tournaments/{event.pk}/scorecard/?entry=3").json()
    assert scorecard["rounds"][0]["sits_out"] is True
    board = Board.objects.get(event=event, number=5)
    payload = played_payload(board)
    payload.update(round=1, table=3, board=5)
    response = client_for(alice).post(
        f"/api/tournaments/{event.pk}/results/", payload, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "table 3 sits out in round 1"


def test_a_three_hand_event_is_individual_and_its_par_comes_from_strong(alice: Player) -> None:
    client = client_for(alice)
    base = {"name": "Three-hand night", "variant": "cutthroat3", "movement": "individual"}
    response = client.post("/api/tournaments/", dict(base, kind="pairs"), format="json")
    assert response.status_code == 400
    assert "individual" in response.json()["detail"]
    response = client.post(
        "/api/tournaments/", dict(base, kind="individual", par_bot="strong"), format="json"
    )
    assert response.status_code == 201
    # Three-hand has a strong bot of its own (bots/reference/strong3.py): it gives the par.
    assert response.json()["par_bot"] == "strong"
    event_id = response.json()["id"]
    response = client.patch(f"/api/tournaments/{event_id}/", {"par_bot": "greedy"}, format="json")
    assert response.status_code == 200
    response = client.patch(f"/api/tournaments/{event_id}/", {"par_bot": ""}, format="json")
    assert response.status_code == 200
