"""Score entry tells a player nothing about cards they may not know.

The entry rules check meld, trump and "no marriage" against the dealt cards (RULES.md
section 3 for meld, section 5 for no marriage and throw-in). A refusal that named what the
cards hold would be an oracle: a player could loop over wrong entries before playing a
board and learn every side's meld. A player is not known to the server by seat (a pair
decides at the table who sits North), so the strongest promise is the one tested here:
for any input refused under two deals, the message is the same, whichever deal it was.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Sequence
from math import gcd
from typing import Any

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.models import Player
from engine import Card, Suit, rules_for
from engine.registry import load_game
from tests.engine.helpers import dealt_parts
from tournaments import services
from tournaments.hands import (
    PLAYER_CARDS_MESSAGE,
    EntryOutcome,
    EntryRejected,
    ScoreEntry,
    deal,
    public_rejection,
)
from tournaments.models import Board, Result

from .conftest import client_for, entry_payload, paper_deal, play_all, running_event

FOUR_HAND = ("single4", "auction4", "double4")


def rearranged(hands: Sequence[Sequence[Card]], known: int, shuffle: random.Random) -> list[Any]:
    """The same deal for seat ``known``; every other hand (and a widow) dealt anew."""
    hidden = [card for seat, hand in enumerate(hands) if seat != known for card in hand]
    shuffle.shuffle(hidden)
    out: list[Any] = []
    for seat, hand in enumerate(hands):
        if seat == known:
            out.append(list(hand))
        else:
            out.append(hidden[: len(hand)])
            hidden = hidden[len(hand) :]
    return out


def entries(variant: str) -> st.SearchStrategy[ScoreEntry]:
    """Any entry, and many that pass every check not about the cards, to reach those."""
    rules = rules_for(variant)
    seats = rules.players
    sides = seats if seats == 3 else 2
    total = rules.total_in_tricks
    step = gcd(rules.counter_value, rules.last_trick_bonus)
    meld = st.one_of(
        st.integers(0, 400), st.sampled_from([0, 20, 40, 60, 80, 100, 150, 200, 240, 400])
    )
    anything = st.builds(
        ScoreEntry,
        outcome=st.sampled_from(list(EntryOutcome)),
        declarer=st.integers(0, seats - 1),
        bid=st.integers(0, rules.bid_max + 10),
        trump=st.one_of(st.none(), st.sampled_from(list(Suit))),
        meld=st.tuples(*(meld,) * sides),
        taken=st.tuples(*(st.integers(0, total),) * sides),
        buried=st.just(0) if seats == 4 else st.integers(0, 40),
    )

    def split(draw: Any) -> tuple[tuple[int, ...], int]:
        if seats == 4:
            ns = draw(st.integers(0, total // step)) * step
            return (ns, total - ns), 0
        buried = draw(st.sampled_from([0, 10, 20, 30]))
        first = draw(st.integers(0, (total - buried) // 10)) * 10
        second = draw(st.integers(0, (total - buried - first) // 10)) * 10
        return (first, second, total - buried - first - second), buried

    @st.composite
    def plausible(draw: Any) -> ScoreEntry:
        outcome = draw(st.sampled_from(list(EntryOutcome)))
        taken, buried = split(draw) if outcome is EntryOutcome.PLAYED else ((0,) * sides, 0)
        return ScoreEntry(
            outcome=outcome,
            declarer=draw(st.integers(0, seats - 1)),
            bid=draw(st.sampled_from(rules.bids[:10])),
            trump=None if outcome is EntryOutcome.NO_MARRIAGE else draw(st.sampled_from(Suit)),
            meld=(0,) * sides
            if outcome is EntryOutcome.NO_MARRIAGE
            else draw(st.tuples(*(meld,) * sides)),
            taken=taken,
            buried=buried,
        )

    return st.one_of(anything, plausible(), plausible(), plausible())


def refusal(variant: str, hands: Sequence[Sequence[Card]], entry: ScoreEntry) -> str | None:
    """What a player is told when the entry is refused; None when it is accepted."""
    rules = rules_for(variant)
    try:
        seats = rules.players
        widow = hands[seats] if len(hands) > seats else ()
        load_game(variant).score_entry(paper_deal(hands[:seats], widow), entry)
    except EntryRejected as rejected:
        return str(public_rejection(rejected))
    return None


@pytest.mark.parametrize("variant", [*FOUR_HAND, "cutthroat3"])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_refusal_depends_on_cards_the_player_may_not_know(variant: str, data: Any) -> None:
    seats = rules_for(variant).players
    board_seed = data.draw(st.integers(0, 2**32), label="board seed")
    state = deal(variant, board_seed, board_seed % seats)
    hands = [dealt_parts(state)[seat] for seat in range(seats)]
    if seats == 3:
        hands.append(list(dealt_parts(state)[3]))  # the widow, which nobody sees before the bid
    known = data.draw(st.integers(0, seats - 1), label="the player's seat")
    other = rearranged(hands, known, random.Random(data.draw(st.integers(0, 2**32))))
    entry = data.draw(entries(variant), label="entry")
    told, told_other = refusal(variant, hands, entry), refusal(variant, other, entry)
    if told is not None and told_other is not None:
        assert told == told_other


def test_a_refusal_against_the_cards_names_no_rule_and_no_number() -> None:
    # RULES.md section 3: meld is what the cards show; 999 is beyond any single-deck hand.
    state = deal("single4", 7, 0)
    hands = [dealt_parts(state)[seat] for seat in range(4)]
    entry = ScoreEntry(EntryOutcome.PLAYED, 0, 20, Suit.S, (999, 999), (12, 13))
    with pytest.raises(EntryRejected) as refused:
        load_game("single4").score_entry(paper_deal(hands), entry)
    assert "999" in str(refused.value)  # the director's message says what the cards show
    assert str(public_rejection(refused.value)) == f"cards: {PLAYER_CARDS_MESSAGE}"


def test_a_player_learns_nothing_from_wrong_meld_entered_over_the_api(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    ns_player = field[0]  # pair 1 sits North-South at table 1 in round 1, boards 1 and 2
    told = {}
    for number in (1, 2):
        for trump in "SHDC":
            payload = {
                "round": 1,
                "table": 1,
                "board": number,
                "outcome": "played",
                "declarer": 0,
                "bid": 20,
                "trump": trump,
                "meld": [999, 999],
                "taken": [12, 13],
            }
            response = client_for(ns_player).post(
                f"/api/tournaments/{event.pk}/results/", payload, format="json"
            )
            assert response.status_code == 400
            told[number, trump] = response.json()
    assert len({str(body) for body in told.values()}) == 1, told
    assert told[1, "S"] == {
        "detail": f"cards: {PLAYER_CARDS_MESSAGE}",
        "meld": [f"cards: {PLAYER_CARDS_MESSAGE}"],
    }
    assert not Result.objects.exists()


def test_a_player_enters_only_the_current_round_until_the_director_closes_it(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"
    ns_player = field[0]

    def payload(round_: int, table: int, number: int) -> dict[str, Any]:
        board = Board.objects.get(event=event, number=number)
        body = entry_payload("single4", board.seed, board.dealer, 3)
        body.update(round=round_, table=table, board=number)
        return body

    # Round 2: pair 1 stays at table 1 and gets the boards of table 2 (boards 3 and 4).
    response = client_for(ns_player).post(f"{base}/results/", payload(2, 1, 3), format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "round 2 has not started: the current round is 1"
    assert not Result.objects.exists()

    # The director calls the next round: round 1's slow tables may still enter theirs.
    assert client_for(ns_player).post(f"{base}/rounds/next/").status_code == 403
    moved = client_for(alice).post(f"{base}/rounds/next/")
    assert moved.status_code == 200 and moved.json()["current_round"] == 2
    for late in (payload(2, 1, 3), payload(1, 1, 1)):
        response = client_for(ns_player).post(f"{base}/results/", late, format="json")
        assert response.status_code == 201, response.json()

    # Once the director closes round 1, only the director enters what is missing of it.
    closed = client_for(alice).post(f"{base}/rounds/close/", {"round": 1}, format="json")
    assert closed.status_code == 200 and closed.json()["closed_round"] == 1
    response = client_for(ns_player).post(f"{base}/results/", payload(1, 1, 2), format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "round 1 is closed: the director enters its results"
    response = client_for(alice).post(f"{base}/results/", payload(1, 1, 2), format="json")
    assert response.status_code == 201
    refused = client_for(alice).post(f"{base}/rounds/close/", {"round": 2}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == "only a past round can be closed: the current round is 2"


def test_the_round_moves_on_by_itself_once_every_table_has_entered_it(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    for table in (1, 2, 3):
        for number in (2 * table - 1, 2 * table):
            board = Board.objects.get(event=event, number=number)
            services.result_enter(
                event=event,
                by=alice,
                section_name="A",
                round=1,
                table=table,
                board_number=number,
                entry=services.score_entry_from(
                    entry_payload("single4", board.seed, board.dealer, table)
                ),
            )
        event.refresh_from_db()
        assert event.current_round == (2 if table == 3 else 1)


def test_refused_entries_are_limited_per_player_and_the_limit_tells_nothing(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"
    board = Board.objects.get(event=event, number=1)
    good = entry_payload("single4", board.seed, board.dealer, 1)
    good.update(round=1, table=1, board=1)
    wrong = dict(good, meld=[999, 999])
    player = client_for(field[0])
    for _ in range(services.ENTRY_REJECTIONS_ALLOWED):
        assert player.post(f"{base}/results/", wrong, format="json").status_code == 400
    # Past the limit even a right entry waits: an answer now would be one more oracle bit.
    throttled = player.post(f"{base}/results/", good, format="json")
    assert throttled.status_code == 429
    assert "too many refused entries" in throttled.json()["detail"]
    assert int(throttled["Retry-After"]) == services.ENTRY_REJECTION_WINDOW_S
    assert not Result.objects.exists()
    # The limit is the player's: her partner still enters, and so does the director.
    assert client_for(field[1]).post(f"{base}/results/", good, format="json").status_code == 201
    second = Board.objects.get(event=event, number=2)
    other = entry_payload("single4", second.seed, second.dealer, 1)
    other.update(round=1, table=1, board=2)
    for _ in range(services.ENTRY_REJECTIONS_ALLOWED + 1):
        refused = client_for(alice).post(
            f"{base}/results/", dict(other, meld=[999, 999]), format="json"
        )
        assert refused.status_code == 400
    assert client_for(alice).post(f"{base}/results/", other, format="json").status_code == 201


def test_accepted_entries_do_not_use_up_the_allowance(alice: Player, field: list[Player]) -> None:
    event = running_event(alice, field, boards_per_round=12)
    player = client_for(field[0])
    for number in range(1, 13):
        board = Board.objects.get(event=event, number=number)
        body = entry_payload("single4", board.seed, board.dealer, number)
        body.update(round=1, table=1, board=number)
        response = player.post(f"/api/tournaments/{event.pk}/results/", body, format="json")
        assert response.status_code == 201, response.json()


def test_rounds_the_director_has_entered_ahead_are_passed_over(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field)
    # The director enters round 2 first, then round 1: the event moves on to round 3.
    play_all(event, skip={(r, t, b) for r in (1, 3) for t in (1, 2, 3) for b in range(1, 7)})
    event.refresh_from_db()
    assert event.current_round == 1
    play_all(event, skip={(r, t, b) for r in (2, 3) for t in (1, 2, 3) for b in range(1, 7)})
    event.refresh_from_db()
    assert event.current_round == 3


def test_the_allowance_is_counted_with_the_caches_redis_unreachable(
    alice: Player, field: list[Player]
) -> None:
    """The refused entries are counted in the database: a Redis outage neither opens the
    oracle nor refuses a table's results with a server error."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    unreachable = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{port}/0",
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"
    board = Board.objects.get(event=event, number=1)
    good = entry_payload("single4", board.seed, board.dealer, 1)
    good.update(round=1, table=1, board=1)
    player = client_for(field[0])
    with override_settings(CACHES={"default": unreachable, "responses": unreachable}):
        for _ in range(services.ENTRY_REJECTIONS_ALLOWED):
            refused = player.post(f"{base}/results/", dict(good, meld=[999, 999]), format="json")
            assert refused.status_code == 400
        assert player.post(f"{base}/results/", good, format="json").status_code == 429
        assert client_for(field[1]).post(f"{base}/results/", good, format="json").status_code == 201
