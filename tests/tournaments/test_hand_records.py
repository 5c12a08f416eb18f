"""Hand records show each board exactly as the committed secret deals it."""

from __future__ import annotations

from collections import Counter

import engine
from arena.models import Player
from engine.registry import load_game
from tests.engine.helpers import dealt_parts
from tournaments import selectors
from tournaments.hands import board_seed

from .conftest import client_for, running_event


def test_every_hand_is_the_deal_of_the_boards_seed(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field, variant="double4")
    secret = bytes.fromhex(event.secret)
    records = selectors.hand_records(event=event, with_results=False)
    assert [r["board"] for r in records] == list(range(1, 7))
    for record in records:
        number = record["board"]
        state = engine.new_hand(
            "double4",
            seed=board_seed(secret, number),
            dealer=load_game("double4").board_dealer(number),
        )
        assert (
            record["dealer"]
            == ("North", "East", "South", "West")[load_game("double4").board_dealer(number)]
        )
        shown = [hand["cards"] for hand in record["hands"]]
        assert shown == [engine.format_cards(dealt_parts(state)[seat]) for seat in range(4)]
        # The four hands are the whole double deck: four of each card, no nines.
        pack = Counter(card for hand in shown for card in hand.split())
        assert sum(pack.values()) == 80 and set(pack.values()) == {4}


def test_the_director_prints_the_boards_before_play_without_results(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    page = client_for(alice).get(f"/api/tournaments/{event.pk}/hand-records/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="board"') == 6
    assert "<table>" not in html  # no results before the event is over
    assert event.secret not in html
