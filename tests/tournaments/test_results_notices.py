"""An event's published results are noticed by every player of it, once; a table's result
entered by one side is noticed by the other side, who confirms it, and a rejected one by
the side that entered it, with the reason. Each notice links to the page where its reader
acts: the table's page."""

from __future__ import annotations

import html

from django.test import Client

from arena.models import Notice, Player
from tests.people import PASSWORD
from tournaments import services
from tournaments.models import Event, Result

from .conftest import entry_payload, play_all, running_event


def test_finishing_an_event_notices_its_players(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field)
    play_all(event)
    assert not Notice.objects.exists()
    services.event_finish(event=event, by=alice)
    noticed = set(
        Notice.objects.filter(kind=Notice.Kind.RESULTS_PUBLISHED).values_list("user_id", flat=True)
    )
    assert noticed == {player.user_id for player in field}
    assert all(
        notice.url == f"/tournaments/{event.pk}/"
        for notice in Notice.objects.filter(kind=Notice.Kind.RESULTS_PUBLISHED)
    )


def enter(event: Event, by: Player, *, board: int) -> Result:
    played = event.boards.get(number=board)
    data = entry_payload(event.variant, played.seed, played.dealer, 1)
    return services.result_enter(
        event=event,
        by=by,
        section_name="A",
        round=1,
        table=1,
        board_number=board,
        entry=services.score_entry_from(data),
    )


def noticed(kind: str) -> dict[int, Notice]:
    return {notice.user_id: notice for notice in Notice.objects.filter(kind=kind)}


def page_of(player: Player, url: str) -> str:
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_a_result_entered_by_one_side_is_noticed_by_the_other_who_confirms_it_there(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    # Round 1, table 1: pair 1 (Carol, Dave) North-South, pair 4 (Ivan, Judy) East-West.
    carol, ivan, judy = field[0], field[6], field[7]
    result = enter(event, carol, board=1)
    to_confirm = noticed(Notice.Kind.RESULT_TO_CONFIRM)
    assert set(to_confirm) == {ivan.user_id, judy.user_id}
    notice = to_confirm[judy.user_id]
    assert notice.text == (
        "Club night: Carol entered board 1 at table 1 (round 1); confirm it or reject it"
    )
    assert notice.url == f"/tournaments/{event.pk}/tables/A/1/1/"
    page = page_of(judy, notice.url)
    assert f'action="/tournaments/{event.pk}/results/{result.pk}/confirm/"' in page
    assert f'action="/tournaments/{event.pk}/results/{result.pk}/reject/"' in page
    # The director's own entry counts at once: nobody is asked to confirm it.
    enter(event, alice, board=2)
    assert Notice.objects.count() == 2


def test_a_rejected_result_is_noticed_by_the_side_that_entered_it_with_the_reason(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    carol, dave, ivan = field[0], field[1], field[6]
    result = enter(event, ivan, board=2)
    services.result_reject(event=event, result=result, by=carol, reason="we bid 30, not 25")
    rejected = noticed(Notice.Kind.RESULT_REJECTED)
    # Ivan's partner Judy sat at his side: both enter the board again.
    assert set(rejected) == {ivan.user_id, field[7].user_id}
    notice = rejected[ivan.user_id]
    assert notice.text == (
        "Club night: board 2 at table 1 (round 1) was rejected by Carol: we bid 30, not 25. "
        "Enter it again"
    )
    assert notice.url == f"/tournaments/{event.pk}/tables/A/1/1/?board=2"
    # The table's page opens with board 2's entry form.
    assert '<h2 id="entry-title">Board 2</h2>' in page_of(ivan, notice.url)
    assert set(noticed(Notice.Kind.RESULT_TO_CONFIRM)) == {carol.user_id, dave.user_id}
    # Entered again and rejected again by the director: a second notice, not the first again.
    again = enter(event, ivan, board=2)
    services.result_reject(event=event, result=again, by=alice, reason="the bid was 35")
    texts = sorted(n.text for n in Notice.objects.filter(user=ivan.user, kind="result_rejected"))
    assert texts[1].endswith("was rejected by the director: the bid was 35. Enter it again")
