"""The tournament pages hide from a player exactly what the API hides: no hand, result or
par of a board she has not played, and score entry refusals that name no card."""

from __future__ import annotations

import re

from django.test import Client

from arena.models import Player
from tournaments import selectors, services
from tournaments.hands import PLAYER_CARDS_MESSAGE
from tournaments.models import Event, Result

from .conftest import play_all, running_event


def signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def hand_lines(event: Event, number: int) -> list[list[str]]:
    """Each seat's four suit lines as the pages print them."""
    record = next(
        r for r in selectors.hand_records(event=event, with_results=False) if r["board"] == number
    )
    return [[hand["suits"][suit] for suit in "SHDC"] for hand in record["hands"]]


def shows_a_hand(body: str, hands: list[list[str]]) -> bool:
    return any(all(f"</span></span> {line}" in body for line in lines) for lines in hands)


def shows_scores(body: str, text: str) -> bool:
    """``text`` printed as a number pair of its own: "40 / 20" is not in "140 / 200" nor
    "0 / 2" in "1.0 / 2" (the deals are random, so a bare substring fails now and then)."""
    return re.search(rf"(?<![\d.-]){re.escape(text)}(?![\d.])", body) is not None


def test_a_player_sees_no_board_she_has_not_played(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field)
    # Round 1 is over at every table; pair 1 (North-South at table 1) has played boards 1-2.
    play_all(event, skip={(r, t, b) for r in (2, 3) for t in (1, 2, 3) for b in range(1, 7)})
    event.refresh_from_db()
    assert event.current_round == 2
    unplayed = {number: hand_lines(event, number) for number in (3, 4, 5, 6)}
    # Other tables' results on those boards, as a table page or a scorecard prints them.
    results = Result.objects.filter(section__event=event)
    own = {(r.score_ns, r.score_ew) for r in results.filter(table=1)}
    scores_elsewhere = {
        text
        for r in results.exclude(table=1)
        if (r.score_ns, r.score_ew) not in own
        for text in (f"NS {r.score_ns}, EW {r.score_ew}", f"{r.score_ns} / {r.score_ew}")
    }
    player = signed_in(field[0])
    base = f"/tournaments/{event.pk}"
    pages = {
        "/tournaments/": 200,
        f"{base}/": 200,
        f"{base}/standings/": 200,
        f"{base}/standings/live/": 200,
        f"{base}/verification/": 200,
        f"{base}/scorecards/A/1/": 200,
        f"{base}/scorecards/A/2/": 403,
        f"{base}/tables/A/1/1/": 200,
        f"{base}/tables/A/2/1/": 200,
        f"{base}/tables/A/3/1/": 200,
        f"{base}/tables/A/1/2/": 403,
        **{f"{base}/boards/{number}/": 403 for number in range(1, 7)},
    }
    for url, expected in pages.items():
        response = player.get(url)
        assert response.status_code == expected, url
        body = response.content.decode()
        for number, hands in unplayed.items():
            assert not shows_a_hand(body, hands), (url, number)
        assert not any(shows_scores(body, scores) for scores in scores_elsewhere), url
    # The director sees every board; so does everyone once the event is published.
    director = signed_in(alice)
    assert shows_a_hand(director.get(f"{base}/boards/3/").content.decode(), unplayed[3])
    services.event_finish(event=event, by=alice)
    assert shows_a_hand(Client().get(f"{base}/boards/3/").content.decode(), unplayed[3])


def test_a_refused_entry_on_the_page_says_what_the_api_says_beside_the_field(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    url = f"/tournaments/{event.pk}/tables/A/1/1/?board=1"
    wrong = {
        "outcome": "played",
        "declarer": "0",
        "bid": "20",
        "trump": "S",
        "meld_0": "999",
        "meld_1": "999",
        "taken_0": "12",
        "action": "check",
    }
    response = signed_in(field[0]).post(url, wrong)
    assert response.status_code == 400
    body = response.content.decode()
    message = f"cards: {PLAYER_CARDS_MESSAGE}".replace("'", "&#x27;")
    # Beside the meld, inside its field's block.
    field_block = body.split('for="id_meld_0"')[1].split("</div>\n</div>")[0]
    assert message in field_block
    assert not Result.objects.exists()
    for _ in range(services.ENTRY_REJECTIONS_ALLOWED - 1):
        assert signed_in(field[0]).post(url, wrong).status_code == 400
    throttled = signed_in(field[0]).post(url, wrong)
    assert throttled.status_code == 429
    assert "too many refused entries" in throttled.content.decode()
