"""A table's device that lost the answer to a score entry sends it again with the same
Idempotency-Key: it gets the first answer, and the board is entered once."""

from __future__ import annotations

from arena.models import Player
from tournaments.models import Board, Result

from .conftest import client_for, entry_payload, running_event


def test_a_repeated_entry_with_the_same_key_gets_the_first_answer_and_one_result(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    board = Board.objects.get(event=event, number=1)
    body = entry_payload("single4", board.seed, board.dealer, 3)
    body.update(round=1, table=1, board=1)
    player = client_for(field[0])
    url = f"/api/tournaments/{event.pk}/results/"

    first = player.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="table-1-board-1")
    assert first.status_code == 201, first.json()
    again = player.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="table-1-board-1")
    assert (again.status_code, again.json()) == (201, first.json())
    assert again["Idempotent-Replayed"] == "true"
    assert Result.objects.filter(section__event=event).count() == 1

    # Without the key, the second entry of the same board is refused, as before.
    refused = player.post(url, body, format="json")
    assert refused.status_code == 400
    other = player.post(
        url, {**body, "board": 2}, format="json", HTTP_IDEMPOTENCY_KEY="table-1-board-1"
    )
    assert other.status_code == 422
    assert Result.objects.filter(section__event=event).count() == 1
