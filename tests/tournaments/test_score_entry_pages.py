"""Score entry on the pages: check, then save, through the same services as the API."""

from __future__ import annotations

from typing import Any

from django.test import Client

from arena import services as arena_services
from arena.models import Player
from tournaments import selectors
from tournaments.models import Board, Event, Result

from .conftest import PASSWORD, entry_payload, play_all, running_event, three_hand_payload


def signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def page_fields(payload: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "outcome": payload["outcome"],
        "declarer": payload["declarer"],
        "bid": payload["bid"],
        "trump": payload["trump"] or "",
        "buried": payload.get("buried", 0),
    }
    for seat, value in enumerate(payload["meld"]):
        fields[f"meld_{seat}"] = value
    for seat, value in enumerate(payload["taken"]):
        fields[f"taken_{seat}"] = value
    return fields


def test_a_three_hand_table_checks_and_saves_its_board_on_the_page(alice: Player) -> None:
    players = [
        arena_services.player_register(
            username=f"cut{i}", password=PASSWORD, display_name=f"Cut {i}"
        )
        for i in range(15)
    ]
    event = running_event(
        alice, players, variant="cutthroat3", kind="individual", movement="individual"
    )
    section = event.sections.get()
    seating = next(
        s
        for s in selectors.section_movement(event=event, section=section).seatings
        if (s.round, s.table) == (1, 1)
    )
    seated = {e.number: e.players.get() for e in section.entries.all()}[seating.sides[0]]
    number = selectors.board_numbers(event=event, board_set=seating.board_set)[0]
    board = Board.objects.get(event=event, number=number)
    payload = three_hand_payload(board.seed, board.dealer, 5)
    client = signed_in(seated)
    url = f"/tournaments/{event.pk}/tables/A/1/1/?board={number}"
    checked = client.post(url, dict(page_fields(payload), action="check"))
    assert checked.status_code == 200
    body = checked.content.decode()
    for name, score in zip(("North", "East", "West"), payload["scores"], strict=True):
        assert f"<strong>{name}</strong> {score}" in body
    assert not Result.objects.exists()  # a check stores nothing
    saved = client.post(url, dict(page_fields(payload), action="save"))
    assert saved.status_code == 302
    assert Result.objects.get().seat_scores == payload["scores"]


def test_a_double_deck_table_may_report_no_marriage(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field, variant="double4")
    page = signed_in(field[0]).get(f"/tournaments/{event.pk}/tables/A/1/1/").content.decode()
    assert 'value="no_marriage"' in page and 'value="thrown_in"' in page


def test_the_director_calls_and_closes_rounds_from_the_event_page(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    director = signed_in(alice)
    base = f"/tournaments/{event.pk}"
    assert "Call round 2" in director.get(f"{base}/").content.decode()
    assert signed_in(field[0]).post(f"{base}/rounds/next/").status_code == 403
    director.post(f"{base}/rounds/next/")
    event.refresh_from_db()
    assert event.current_round == 2
    page = director.get(f"{base}/").content.decode()
    assert "Close round 1" in page
    director.post(f"{base}/rounds/close/", {"round": "1"})
    event.refresh_from_db()
    assert event.closed_round == 1
    # A player of round 1 now finds its table closed to her.
    closed = signed_in(field[0]).get(f"{base}/tables/A/1/1/").content.decode()
    assert "Round 1 is closed" in closed and "Check scores" not in closed
    play_all(event)
    finished = Event.objects.get(pk=event.pk)
    assert finished.current_round == 3


def test_a_board_saved_meanwhile_by_the_partner_is_not_saved_again_as_the_next_one(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    board = Board.objects.get(event=event, number=1)
    payload = entry_payload("single4", board.seed, board.dealer, 1)
    fields = page_fields(dict(payload, taken=payload["taken"][:1]))
    url = f"/tournaments/{event.pk}/tables/A/1/1/?board=1"
    # North and South both have board 1 open; North saves it first.
    assert signed_in(field[0]).post(url, dict(fields, action="save")).status_code == 302
    late = signed_in(field[1]).post(url, dict(fields, action="save"), follow=True)
    assert "board 1 is already entered at this table" in late.content.decode()
    assert list(Result.objects.values_list("board__number", flat=True)) == [1]


def test_more_counters_than_are_in_play_are_refused_naming_what_was_typed(
    alice: Player, field: list[Player]
) -> None:
    """RULES.md section 4: 25 counters are in play in single4. The page asks for
    North-South's counters only (East-West took the rest): 40 typed is refused as 40, not
    as East-West's negative rest, and nothing is stored."""
    event = running_event(alice, field)
    url = f"/tournaments/{event.pk}/tables/A/1/1/?board=1"
    fields = {"outcome": "played", "declarer": 0, "bid": 20, "trump": "S"}
    fields |= {"meld_0": 0, "meld_1": 0, "taken_0": 40}
    for action in ("check", "save"):
        refused = signed_in(field[0]).post(url, dict(fields, action=action))
        assert refused.status_code == 400
        text = refused.content.decode()
        assert "40 counters entered for North-South, but only 25 are in play in single4" in text
        assert "negative" not in text
    assert not Result.objects.exists()
