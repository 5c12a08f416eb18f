"""The director's tools and the table's confirmation, in the pages: a player of the other
side confirms or rejects on the table page, the director sees the round in play, what
waits and the audit trail, edits the event before the start, and prints hand records
(which show a player only the boards she has played) and table guide cards."""

from __future__ import annotations

from django.test import Client

from arena.models import Player
from tournaments import selectors, services
from tournaments.models import Event, Result, Review

from .conftest import entry_payload, play_all, running_event


def signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def page_fields(event: Event, number: int, table: int) -> dict[str, str]:
    board = event.boards.get(number=number)
    payload = entry_payload(event.variant, board.seed, board.dealer, table)
    return {
        "outcome": payload["outcome"],
        "declarer": str(payload["declarer"]),
        "bid": str(payload["bid"]),
        "trump": payload["trump"] or "",
        "meld_0": str(payload["meld"][0]),
        "meld_1": str(payload["meld"][1]),
        "taken_0": str(payload["taken"][0]),
        "action": "save",
    }


def card_lines(event: Event, number: int) -> list[str]:
    """Each seat's four suit lines of a board, as a hand record prints them."""
    record = next(
        r for r in selectors.hand_records(event=event, with_results=False) if r["board"] == number
    )
    return ["|".join(hand["suits"][suit] for suit in "SHDC") for hand in record["hands"]]


def shows_board(body: str, event: Event, number: int) -> bool:
    """Whether a page prints any whole hand of the board (all four suit lines in order)."""
    flat = "|".join(
        line.split("</span></span> ", 1)[1].split("</p>")[0].strip()
        for line in body.splitlines()
        if "</span></span> " in line
    )
    return any(hand in flat for hand in card_lines(event, number))


def test_the_other_side_confirms_or_rejects_on_the_table_page(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    carol, dave, judy = field[0], field[1], field[7]
    table = f"/tournaments/{event.pk}/tables/A/1/1/"
    saved = signed_in(carol).post(f"{table}?board=1", page_fields(event, 1, 1))
    assert saved.status_code == 302
    result = Result.objects.get()
    assert result.status == Result.Status.PENDING
    confirm = f"/tournaments/{event.pk}/results/{result.pk}/confirm/"
    # Carol's partner waits; Judy, of the other side, is asked.
    partner = signed_in(dave).get(table).content.decode()
    assert "waiting for confirmation" in partner and confirm not in partner
    opponent = signed_in(judy).get(table).content.decode()
    assert confirm in opponent
    assert "board 1" in signed_in(judy).get(f"/tournaments/{event.pk}/").content.decode()
    assert signed_in(dave).post(confirm).status_code == 403

    reject = f"/tournaments/{event.pk}/results/{result.pk}/reject/"
    assert signed_in(judy).post(reject, {"reason": ""}).status_code == 302
    assert Result.objects.filter(pk=result.pk).exists()
    signed_in(judy).post(reject, {"reason": "we took 30 counters"})
    assert not Result.objects.exists()
    assert Review.objects.get().reason == "we took 30 counters"

    signed_in(carol).post(f"{table}?board=1", page_fields(event, 1, 1))
    again = Result.objects.get()
    assert signed_in(judy).post(f"/tournaments/{event.pk}/results/{again.pk}/confirm/")
    again.refresh_from_db()
    assert (again.status, again.confirmed_by) == (Result.Status.CONFIRMED, judy)


def test_the_director_sees_the_round_what_waits_and_the_audit_trail(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    play_all(event, skip={(1, 2, 3)})
    # Round 1, table 2: pair 2 (Erin, Frank) enters board 3; the director confirms it.
    services.result_enter(
        event=event,
        by=field[2],
        section_name="A",
        round=1,
        table=2,
        board_number=3,
        entry=services.score_entry_from(
            entry_payload(
                "single4", *event.boards.filter(number=3).values_list("seed", "dealer")[0], 2
            )
        ),
    )
    event.refresh_from_db()
    director = signed_in(alice)
    base = f"/tournaments/{event.pk}"
    page = director.get(f"{base}/").content.decode()
    assert f"Round {event.current_round} now" in page
    assert "Waiting for the other side" in page
    finish = director.post(f"{base}/finish/")
    assert "round 1 table 2 board 3" in finish.content.decode()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING

    pending = Result.objects.get(status=Result.Status.PENDING)
    director.post(f"{base}/results/{pending.pk}/confirm/", {"back": "event"})
    assert Review.objects.get().on_behalf is True
    services.result_correct(
        event=event,
        result=pending,
        by=alice,
        entry=services.score_entry_from(
            entry_payload("single4", pending.board.seed, pending.board.dealer, 77)
        ),
        reason="declarer miscounted",
    )
    page = director.get(f"{base}/").content.decode()
    assert "declarer miscounted" in page and "confirmed for the table" in page
    # Players see no audit trail of the running event.
    assert "declarer miscounted" not in signed_in(field[0]).get(f"{base}/").content.decode()
    assert director.post(f"{base}/finish/").status_code == 302


def test_the_director_edits_the_event_before_the_start_only(
    alice: Player, field: list[Player]
) -> None:
    event = services.event_create(director=alice, name="Club", variant="single4", par_bot="")
    edit = f"/tournaments/{event.pk}/edit/"
    form = {"name": "Club night", "boards_per_round": "4", "scale": "2-1", "par_bot": ""}
    assert signed_in(field[0]).get(edit).status_code == 403
    assert signed_in(alice).post(edit, form).status_code == 302
    event.refresh_from_db()
    assert (event.name, event.boards_per_round) == ("Club night", 4)
    for start in range(0, 8, 2):
        services.entry_add(
            event=event, by=alice, section_name="A", players=field[start : start + 2]
        )
    services.event_start(event=event, by=alice)
    refused = signed_in(alice).post(edit, dict(form, name="Renamed"))
    assert refused.status_code == 400
    assert "the event is running" in refused.content.decode()
    assert Event.objects.get(pk=event.pk).name == "Club night"


def test_hand_records_show_a_player_only_the_boards_she_has_played(
    alice: Player, bob: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    # Round 1 is over everywhere: pair 1 (Carol) played boards 1-2 at table 1.
    play_all(event, skip={(r, t, b) for r in (2, 3) for t in (1, 2, 3) for b in range(1, 7)})
    url = f"/tournaments/{event.pk}/hand-records/"
    body = signed_in(field[0]).get(url).content.decode()
    assert shows_board(body, event, 1) and shows_board(body, event, 2)
    for number in (3, 4, 5, 6):
        assert not shows_board(body, event, number), number
    # The same search finds every board on the director's copy, and everyone's at the end.
    director = signed_in(alice).get(url).content.decode()
    assert all(shows_board(director, event, number) for number in range(1, 7))
    assert Client().get(url).status_code == 403
    assert signed_in(bob).get(url).status_code == 403
    play_all(event, skip={(1, t, b) for t in (1, 2, 3) for b in range(1, 7)})
    services.event_finish(event=event, by=alice)
    public = Client().get(url).content.decode()
    assert all(shows_board(public, event, number) for number in range(1, 7))


def test_guide_cards_show_every_table_round_by_round(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field)
    body = Client().get(f"/tournaments/{event.pk}/guide-cards/").content.decode()
    for table in (1, 2, 3):
        assert f"section A, table {table}" in body
    assert body.count('class="guide-card"') == 3
    assert "Carol &amp; Dave" in body
