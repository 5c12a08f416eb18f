"""A table's result counts once the other side confirms it, as a Bridgemate asks the
opponents: rejected with a reason, it goes back to be entered again; the director may
confirm for the table, in the audit trail; an event with a pending result cannot finish."""

from __future__ import annotations

import pytest

from arena.errors import InvalidInput, NotAllowed
from arena.models import Player
from tournaments import selectors, services
from tournaments.models import Event, Result, Review

from .conftest import client_for, entry_payload, play_all, running_event


def enter(event: Event, by: Player, *, round: int = 1, table: int = 1, board: int = 1) -> Result:
    played = event.boards.get(number=board)
    data = entry_payload(event.variant, played.seed, played.dealer, table)
    return services.result_enter(
        event=event,
        by=by,
        section_name="A",
        round=round,
        table=table,
        board_number=board,
        entry=services.score_entry_from(data),
    )


def boards_counted(event: Event) -> int:
    rows = selectors.event_standings(event=event)[0]["standings"]
    return sum(row["boards"] for row in rows)


def test_only_an_opponent_confirms_and_only_confirmed_results_count(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    # Round 1, table 1: pair 1 (Carol, Dave) North-South, pair 4 (Ivan, Judy) East-West.
    carol, dave, ivan, judy = field[0], field[1], field[6], field[7]
    result = enter(event, carol)
    assert result.status == Result.Status.PENDING
    assert selectors.result_opponents(result=result) == {ivan.pk, judy.pk}
    assert boards_counted(event) == 0
    for not_an_opponent in (carol, dave, field[2]):
        with pytest.raises(NotAllowed):
            services.result_confirm(event=event, result=result, by=not_an_opponent)
    assert selectors.pending_for(event=event, viewer=judy) == [result]
    assert selectors.pending_for(event=event, viewer=dave) == []

    confirmed = services.result_confirm(event=event, result=result, by=judy)
    assert (confirmed.status, confirmed.confirmed_by) == (Result.Status.CONFIRMED, judy)
    # One result of board 1 counts for both pairs at the table.
    assert boards_counted(event) == 2
    with pytest.raises(InvalidInput, match="is confirmed"):
        services.result_confirm(event=event, result=confirmed, by=ivan)
    review = Review.objects.get()
    assert (review.action, review.by, review.on_behalf, review.entered_by) == (
        "confirmed",
        judy,
        False,
        carol,
    )


def test_a_rejection_needs_a_reason_and_sends_the_board_back_to_be_entered(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    carol, ivan = field[0], field[6]
    result = enter(event, ivan, board=2)
    with pytest.raises(InvalidInput, match="say why"):
        services.result_reject(event=event, result=result, by=carol, reason="  ")
    assert Result.objects.filter(pk=result.pk).exists()

    services.result_reject(event=event, result=result, by=carol, reason="we bid 30, not 25")
    assert not Result.objects.filter(pk=result.pk).exists()
    review = Review.objects.get()
    assert (review.action, review.board, review.reason) == ("rejected", 2, "we bid 30, not 25")
    assert review.result["bid"] == result.bid
    # The board is open again at the table.
    again = enter(event, carol, board=2)
    assert again.status == Result.Status.PENDING


def test_the_event_finishes_only_once_every_result_is_confirmed(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    play_all(event, skip={(2, 3, 1)})
    # Round 2, table 3 plays boards 1-2; Grace of pair 3 sits North-South there.
    pending = enter(event, field[4], round=2, table=3, board=1)
    with pytest.raises(InvalidInput, match="section A round 2 table 3 board 1"):
        services.event_finish(event=event, by=alice)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING

    services.result_confirm(event=event, result=pending, by=alice)
    review = Review.objects.get()
    assert (review.by, review.on_behalf) == (alice, True)
    assert services.event_finish(event=event, by=alice).status == Event.Status.FINISHED


def test_the_api_confirms_rejects_and_lists_what_waits_for_the_viewer(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"
    carol, judy = field[0], field[7]
    result = enter(event, carol)
    waiting = client_for(judy).get(f"{base}/results/pending/").json()
    assert [(row["id"], row["status"]) for row in waiting] == [(result.pk, "pending")]
    assert client_for(carol).get(f"{base}/results/pending/").json() == []
    refused = client_for(carol).post(f"{base}/results/{result.pk}/confirm/")
    assert refused.status_code == 403
    no_reason = client_for(judy).post(f"{base}/results/{result.pk}/reject/", {}, format="json")
    assert no_reason.status_code == 400
    assert "reason" in no_reason.json()
    rejected = client_for(judy).post(
        f"{base}/results/{result.pk}/reject/", {"reason": "wrong meld"}, format="json"
    )
    assert rejected.status_code == 200, rejected.json()
    assert rejected.json()["action"] == "rejected"
    gone = client_for(judy).post(f"{base}/results/{result.pk}/confirm/")
    assert gone.status_code == 404
    assert client_for(judy).get(f"{base}/reviews/").status_code == 403
    assert [r["reason"] for r in client_for(alice).get(f"{base}/reviews/").json()] == ["wrong meld"]
