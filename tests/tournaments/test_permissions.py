"""Who may do what: the director runs the event, players see their own scorecards, and
everyone sees the results once they are published."""

from __future__ import annotations

from arena.models import Player
from tournaments import selectors, services
from tournaments.models import Board, Result

from .conftest import client_for, entry_payload, running_event


def first_table_payload(event_id: int) -> dict[str, object]:
    board = Board.objects.get(event_id=event_id, number=1)
    payload = entry_payload("single4", board.seed, board.dealer, 1)
    payload.update(round=1, table=1, board=1)
    return payload


def test_only_the_director_adds_entries_and_starts(alice: Player, bob: Player) -> None:
    created = client_for(alice).post(
        "/api/tournaments/", {"name": "Pairs", "variant": "single4"}, format="json"
    )
    base = f"/api/tournaments/{created.json()['id']}"
    response = client_for(bob).post(f"{base}/entries/", {"players": [alice.pk, bob.pk]})
    assert response.status_code == 403
    assert client_for(bob).post(f"{base}/start/").status_code == 403
    assert (
        client_for(None).post("/api/tournaments/", {"name": "x", "variant": "single4"}).status_code
        == 401
    )


def test_a_player_enters_results_only_at_their_own_table(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"
    payload = first_table_payload(event.pk)
    # Pair 2 (Erin & Frank) sits at table 2 in round 1, not at table 1.
    response = client_for(field[2]).post(f"{base}/results/", payload, format="json")
    assert response.status_code == 403
    response = client_for(field[0]).post(f"{base}/results/", payload, format="json")
    assert response.status_code == 201
    again = client_for(field[0]).post(f"{base}/results/", payload, format="json")
    assert again.status_code == 400
    assert "already entered" in again.json()["detail"]


def test_players_see_their_own_scorecard_and_results_wait_for_publication(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"
    entered = (
        client_for(field[0])
        .post(f"{base}/results/", first_table_payload(event.pk), format="json")
        .json()
    )
    # Pending, the result is not on the scorecard yet: an opponent confirms it.
    opponents = selectors.result_opponents(result=Result.objects.get(pk=entered["id"]))
    assert field[0].pk not in opponents and field[1].pk not in opponents
    confirmer = client_for(Player.objects.get(pk=min(opponents)))
    assert confirmer.post(f"{base}/results/{entered['id']}/confirm/").status_code == 200

    own = client_for(field[0]).get(f"{base}/scorecard/")
    assert own.status_code == 200
    card = own.json()
    assert card["entry"] == 1
    assert card["rounds"][0]["boards"][0]["result"]["board"] == 1
    assert client_for(field[0]).get(f"{base}/scorecard/?entry=2").status_code == 403
    assert client_for(alice).get(f"{base}/scorecard/?entry=2").status_code == 200

    for path in ("results/", "boards/1/", "hand-records/", "hand-records.pdf", "corrections/"):
        assert client_for(field[0]).get(f"{base}/{path}").status_code == 403, path
    assert client_for(alice).get(f"{base}/results/").status_code == 200
    assert client_for(alice).get(f"{base}/hand-records/").status_code == 200
    assert client_for(None).get(f"{base}/standings/").status_code == 200
    assert "secret" not in client_for(None).get(f"{base}/verification/").json()

    services.event_finish(event=event, by=alice)
    for path in ("results/", "boards/1/", "hand-records/", "corrections/", "scorecard/?entry=2"):
        assert client_for(None).get(f"{base}/{path}").status_code == 200, path
    assert selectors.deal_verification(event=event)["verified"] is True


def test_the_director_edits_the_event_and_withdraws_an_entry_before_the_start(
    alice: Player, field: list[Player]
) -> None:
    director = client_for(alice)
    event = director.post(
        "/api/tournaments/", {"name": "Pairs", "variant": "auction4"}, format="json"
    ).json()
    base = f"/api/tournaments/{event['id']}"
    for first, second in zip(field[:6:2], field[1:6:2], strict=True):
        director.post(f"{base}/entries/", {"players": [first.pk, second.pk]}, format="json")
    entries = director.get(f"{base}/entries/").json()[0]["entries"]
    assert director.delete(f"{base}/entries/{entries[0]['id']}/").status_code == 204
    numbers = [e["number"] for e in director.get(f"{base}/entries/").json()[0]["entries"]]
    assert numbers == [1, 2]
    renamed = director.patch(f"{base}/", {"name": "Friday pairs"}, format="json")
    assert renamed.json()["name"] == "Friday pairs"
    assert client_for(field[0]).patch(f"{base}/", {"name": "x"}, format="json").status_code == 403
