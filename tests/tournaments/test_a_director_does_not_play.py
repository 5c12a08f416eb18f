"""A director sees every board before play, so nobody both directs an event and plays in it."""

from __future__ import annotations

from arena.models import Player
from engine import format_cards
from tests.engine.helpers import dealt_parts
from tournaments import selectors
from tournaments.hands import PLAYER_CARDS_MESSAGE, deal
from tournaments.models import Board, Entry

from .conftest import client_for, running_event


def test_the_director_cannot_enter_her_own_event(alice: Player, field: list[Player]) -> None:
    client = client_for(alice)
    event = client.post("/api/tournaments/", {"name": "Pairs", "variant": "single4"}).json()
    response = client.post(
        f"/api/tournaments/{event['id']}/entries/",
        {"players": [alice.pk, field[0].pk]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "the director of an event cannot play in it"
    assert not Entry.objects.exists()


def test_staff_who_play_see_no_board_before_it_is_published(
    alice: Player, field: list[Player]
) -> None:
    # Staff direct every event, except one they play in: there they are a player.
    staff_player, watching_staff = field[0], field[11]
    for player in (staff_player, watching_staff):
        player.user.is_staff = True
        player.user.save()
    event = running_event(alice, field[:10])
    assert selectors.is_director(event=event, player=watching_staff)
    assert not selectors.is_director(event=event, player=staff_player)
    base = f"/api/tournaments/{event.pk}"
    board = Board.objects.get(event=event, number=3)  # pair 1 plays it only in round 2
    dealt = dealt_parts(deal(event.variant, board.seed, board.dealer))
    hidden_hands = [format_cards(dealt[seat]) for seat in range(4)]
    for path in (
        "hand-records/",
        "hand-records.pdf",
        "boards/3/",
        "results/",
        "corrections/",
        "scorecard/?entry=2",
    ):
        response = client_for(staff_player).get(f"{base}/{path}")
        assert response.status_code == 403, path
        assert not any(hand in response.content.decode() for hand in hidden_hands), path
        assert client_for(watching_staff).get(f"{base}/{path}").status_code == 200, path

    # At the table, the playing staff member is told what any player is told.
    wrong = {
        "round": 1,
        "table": 1,
        "board": 1,
        "declarer": 0,
        "bid": 20,
        "trump": "S",
        "meld": [999, 999],
        "taken": [12, 13],
    }
    refused = client_for(staff_player).post(f"{base}/results/", wrong, format="json")
    assert refused.json()["detail"] == f"cards: {PLAYER_CARDS_MESSAGE}"
    assert client_for(staff_player).post(f"{base}/rounds/next/").status_code == 403
