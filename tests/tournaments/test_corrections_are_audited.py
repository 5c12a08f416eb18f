"""A director's correction re-derives the scores and leaves who, when, before and after."""

from __future__ import annotations

from arena.models import Player
from tournaments.models import Board, Correction

from .conftest import client_for, entry_payload, running_event


def test_a_correction_is_validated_rescored_and_kept_in_the_audit_trail(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field, variant="auction4")
    base = f"/api/tournaments/{event.pk}"
    board = Board.objects.get(event=event, number=1)
    # A table's report of a hand that was played out (not thrown in).
    entered = next(
        payload
        for play_seed in range(100)
        if (payload := entry_payload("auction4", board.seed, board.dealer, play_seed))["outcome"]
        == "played"
    )
    entered.update(round=1, table=1, board=1)
    result = client_for(field[1]).post(f"{base}/results/", entered, format="json").json()

    # The table wrote the wrong bid: the same hand, another contract on the ladder.
    new_bid = 260 if entered["bid"] == 250 else 250
    corrected = dict(entered, bid=new_bid, reason="wrong bid")
    # Players cannot correct; the director can.
    path = f"{base}/results/{result['id']}/"
    assert client_for(field[1]).patch(path, corrected, format="json").status_code == 403
    bad = dict(corrected, bid=255)
    refused = client_for(alice).patch(path, bad, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("bid_ladder:")
    assert Correction.objects.count() == 0

    response = client_for(alice).patch(path, corrected, format="json")
    assert response.status_code == 200, response.json()
    after = response.json()
    assert after["bid"] == new_bid
    declaring = entered["declarer"] % 2
    made = entered["meld"][declaring] + entered["taken"][declaring] >= new_bid
    expected = entered["meld"][declaring] + entered["taken"][declaring] if made else -new_bid
    assert (after["score_ns"], after["score_ew"])[declaring] == expected
    trail = client_for(alice).get(f"{base}/corrections/").json()
    assert len(trail) == 1
    assert trail[0]["director"] == "Alice"
    assert trail[0]["reason"] == "wrong bid"
    assert trail[0]["before"]["bid"] == entered["bid"]
    assert trail[0]["after"]["bid"] == new_bid
    assert trail[0]["after"]["score_ns"] == after["score_ns"]
    assert trail[0]["at"]
