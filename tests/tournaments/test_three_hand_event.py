"""Three-hand (``cutthroat3``) individual events: boards with the widow, score entry for
three players checked against RULES.md 7.2, matchpoints per seat, standings per player."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from arena import services as arena_services
from arena.models import Player
from engine import Suit, rules_for
from engine.registry import load_game
from tests.engine.helpers import dealt_parts
from tournaments import selectors
from tournaments.hands import (
    EntryOutcome,
    EntryRejected,
    ScoreEntry,
    board_seed,
    deal,
)
from tournaments.matchpoints import matchpoints
from tournaments.models import Board, BoardPar, Event, Result
from tournaments.tasks import board_par_task

from .conftest import PASSWORD, client_for, paper_deal, running_event, three_hand_payload


def score_three_hand(rules: Any, hands: list[Any], widow: Any, entry: ScoreEntry) -> Any:
    """The three-hand game's check and score of a table's entry for this deal."""
    return load_game("cutthroat3", rules=rules).score_entry(paper_deal(hands, widow), entry)


RULES = rules_for("cutthroat3")


@pytest.fixture
def trio_field(db: None) -> list[Player]:
    """Fifteen players: five tables of three, the smallest individual field for 3 seats."""
    return [
        arena_services.player_register(
            username=f"cut{i}", password=PASSWORD, display_name=f"Cut {i}"
        )
        for i in range(15)
    ]


def board_entry(seed: int, dealer: int, **changes: Any) -> tuple[list[Any], Any, ScoreEntry]:
    """A board's hands and widow, and a played entry for it (with ``changes`` applied)."""
    payload = next(
        p
        for play_seed in range(100)
        if (p := three_hand_payload(seed, dealer, play_seed))["outcome"] == "played"
    )
    state = deal("cutthroat3", seed, dealer)
    fields = {
        "outcome": EntryOutcome.PLAYED,
        "declarer": payload["declarer"],
        "bid": payload["bid"],
        "trump": Suit.parse(payload["trump"]),
        "meld": tuple(payload["meld"]),
        "taken": tuple(payload["taken"]),
        "buried": payload["buried"],
    }
    fields.update(changes)
    hands = [dealt_parts(state)[seat] for seat in range(3)]
    return hands, dealt_parts(state)[3], ScoreEntry(**fields)


def rejected_rule(seed: int, dealer: int, **changes: Any) -> str:
    hands, widow, entry = board_entry(seed, dealer, **changes)
    with pytest.raises(EntryRejected) as caught:
        score_three_hand(RULES, hands, widow, entry)
    return caught.value.rule


def test_scores_are_the_engines_for_a_played_hand() -> None:
    for seed in range(20):
        payload = three_hand_payload(seed, seed % 3, seed)
        state = deal("cutthroat3", seed, seed % 3)
        entry = ScoreEntry(
            EntryOutcome(payload["outcome"]),
            payload["declarer"],
            payload["bid"],
            Suit.parse(payload["trump"]),
            tuple(payload["meld"]),
            tuple(payload["taken"]),
            payload["buried"],
        )
        hands = [dealt_parts(state)[seat] for seat in range(3)]
        scored = score_three_hand(RULES, hands, dealt_parts(state)[3], entry)
        assert list(scored.scores) == payload["scores"]


def test_each_broken_rule_is_named() -> None:
    hands, widow, entry = board_entry(7, 0)
    declarer, opponent = entry.declarer, (entry.declarer + 1) % 3
    taken = list(entry.taken)
    taken[opponent] += 10
    assert rejected_rule(7, 0, taken=tuple(taken)) == "counters_total"
    assert rejected_rule(7, 0, bid=255) == "bid_ladder"
    assert rejected_rule(7, 0, declarer=3) == "declarer"
    assert rejected_rule(7, 0, meld=entry.meld[:2]) == "seats"
    assert rejected_rule(7, 0, outcome=EntryOutcome.NO_MARRIAGE) == "no_marriage"
    assert rejected_rule(7, 0, trump=None) == "trump"
    # Four buried counters are more than three cards hold (the total still adds up).
    taken = list(entry.taken)
    taken[taken.index(max(taken))] -= 40 - entry.buried
    assert rejected_rule(7, 0, taken=tuple(taken), buried=40) == "buried"
    meld = list(entry.meld)
    meld[opponent] += 10
    assert rejected_rule(7, 0, meld=tuple(meld)) == "meld"
    meld = list(entry.meld)
    meld[declarer] = engine.meld([*hands[declarer], *widow], entry.trump, RULES).total + 10
    assert rejected_rule(7, 0, meld=tuple(meld)) == "meld"
    assert (
        rejected_rule(7, 0, outcome=EntryOutcome.THROWN_IN, taken=(0, 0, 0), buried=10)
        == "throw_in"
    )


def test_a_throw_in_costs_the_declarer_the_bid_and_pays_each_opponent_its_meld() -> None:
    hands, widow, entry = board_entry(3, 1)
    thrown = ScoreEntry(
        EntryOutcome.THROWN_IN, entry.declarer, 300, entry.trump, entry.meld, (0, 0, 0)
    )
    scores = score_three_hand(RULES, hands, widow, thrown).scores
    assert scores[entry.declarer] == -300
    others = [seat for seat in range(3) if seat != entry.declarer]
    assert [scores[seat] for seat in others] == [entry.meld[seat] for seat in others]


def test_boards_rotate_the_dealer_over_three_seats_and_show_the_widow(
    alice: Player, trio_field: list[Player]
) -> None:
    event = running_event(
        alice, trio_field, variant="cutthroat3", kind="individual", movement="individual"
    )
    secret = bytes.fromhex(event.secret)
    # Five tables, five rounds, two boards a round.
    assert event.boards.count() == 10
    assert [b.dealer for b in event.boards.order_by("number")] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    for record in selectors.hand_records(event=event, with_results=False):
        number = record["board"]
        state = engine.cutthroat.new_cutthroat_hand(
            "cutthroat3",
            seed=board_seed(secret, number),
            dealer=load_game("cutthroat3").board_dealer(number),
        )
        assert [h["seat"] for h in record["hands"]] == ["North", "East", "West"]
        assert [h["cards"] for h in record["hands"]] == [
            engine.format_cards(dealt_parts(state)[seat]) for seat in range(3)
        ]
        assert record["widow"]["cards"] == engine.format_cards(dealt_parts(state)[3])
        pack = Counter(
            card for part in [*record["hands"], record["widow"]] for card in part["cards"].split()
        )
        assert sum(pack.values()) == 48 and set(pack.values()) == {2}
    page = client_for(alice).get(f"/api/tournaments/{event.pk}/hand-records/")
    assert page.content.decode().count('class="hand Widow"') == 10
    pdf = client_for(alice).get(f"/api/tournaments/{event.pk}/hand-records.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_a_three_hand_event_from_creation_to_final_standings(
    alice: Player, trio_field: list[Player]
) -> None:
    director = client_for(alice)
    created = director.post(
        "/api/tournaments/",
        {
            "name": "Cutthroat night",
            "variant": "cutthroat3",
            "kind": "individual",
            "movement": "individual",
            "boards_per_round": 1,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    event_id = created.json()["id"]
    url = f"/api/tournaments/{event_id}"
    for player in trio_field:
        response = director.post(f"{url}/entries/", {"players": [player.pk]}, format="json")
        assert response.status_code == 201, response.json()
    assert director.post(f"{url}/start/", {}, format="json").status_code == 200
    assert director.get(f"{url}/movement/").status_code == 200

    event = Event.objects.get(pk=event_id)
    section = event.sections.get()
    movement = selectors.section_movement(event=event, section=section)
    assert (movement.tables, movement.rounds) == (5, 5)
    players = {e.number: e.players.get() for e in section.entries.all()}
    for seating in movement.seatings:
        assert len(seating.sides) == 3
        number = seating.board_set
        board = Board.objects.get(event=event, number=number)
        payload = three_hand_payload(board.seed, board.dealer, seating.table + seating.round)
        scores = payload.pop("scores")
        payload.update(round=seating.round, table=seating.table, board=number)
        # The first table of each round enters its own result; the director the others.
        client = client_for(players[seating.sides[0]]) if seating.table == 1 else director
        response = client.post(f"{url}/results/", payload, format="json")
        assert response.status_code == 201, response.json()
        assert response.json()["scores"] == scores
        if seating.table == 1:
            # Every other player at a three-hand table is an opponent: the next seat confirms.
            confirmer = client_for(players[seating.sides[1]])
            confirmed = confirmer.post(f"{url}/results/{response.json()['id']}/confirm/")
            assert confirmed.status_code == 200, confirmed.json()
    assert Result.objects.filter(section=section).count() == 25

    # A result that breaks a rule is a 400 naming it.
    bad = dict(payload, taken=[0, 0, 0])
    bad.update(round=1, table=1, board=1)
    response = director.post(f"{url}/results/", bad, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("counters_total:")
    assert "taken" in response.json()

    # Every board is played at all five tables; each seat is compared with the same seat.
    comparison = director.get(f"{url}/boards/1/").json()
    assert len(comparison["results"]) == 5
    for seat in range(3):
        assert sorted(row["matchpoints"][seat] for row in comparison["results"]) == sorted(
            matchpoints([row["scores"][seat] for row in comparison["results"]])
        )

    standings = director.get(f"{url}/standings/").json()["sections"][0]["standings"]
    assert len(standings) == 15
    assert [row["rank"] for row in standings] == list(range(1, 16))
    assert all(row["boards"] == 5 and row["top"] == 40 for row in standings)
    # Five boards, three seats, 5 * 4 matchpoints to share out on each seat of each board.
    assert sum(row["matchpoints"] for row in standings) == 5 * 3 * 20
    percentages = [row["percentage"] for row in standings]
    assert percentages == sorted(percentages, reverse=True)

    card = client_for(trio_field[0]).get(f"{url}/scorecard/").json()
    assert len(card["rounds"]) == 5
    assert all(r["seat"] in ("North", "East", "West") for r in card["rounds"])
    assert all(len(r["boards"]) == 1 for r in card["rounds"])

    # The director corrects a result to a throw-in; the scores are derived again.
    first = Result.objects.get(section=section, round=1, table=1)
    fix = {
        "outcome": "thrown_in",
        "declarer": first.declarer,
        "bid": first.bid,
        "trump": first.trump,
        "meld": first.seat_melds,
        "taken": [0, 0, 0],
        "reason": "the declarer threw in",
    }
    corrected = director.patch(f"{url}/results/{first.pk}/", fix, format="json")
    assert corrected.status_code == 200, corrected.json()
    expected = [-first.bid if s == first.declarer else first.seat_melds[s] for s in range(3)]
    assert corrected.json()["scores"] == expected
    trail = director.get(f"{url}/corrections/").json()
    assert trail[0]["after"]["scores"] == expected

    finished = director.post(f"{url}/finish/", {}, format="json")
    assert finished.status_code == 200
    assert director.get(f"{url}/verification/").json()["verified"] is True
    records = client_for(trio_field[3]).get(f"{url}/hand-records/").content.decode()
    assert records.count("<table>") == 5
    pdf = client_for(trio_field[3]).get(f"{url}/hand-records.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    ratings = director.get("/api/tournaments/ratings/?variant=cutthroat3").json()["results"]
    assert len(ratings) == 15
    # openskill's updates are nearly, not exactly, zero-sum; every rating has its interval.
    assert abs(sum(r["rating"] for r in ratings) / 15 - 1500) < 5
    assert all(r["low"] < r["rating"] < r["high"] for r in ratings)


def test_a_three_hand_board_has_the_greedy_bots_par(
    alice: Player, trio_field: list[Player]
) -> None:
    event = running_event(
        alice, trio_field, variant="cutthroat3", kind="individual", movement="individual"
    )
    Event.objects.filter(pk=event.pk).update(par_bot="greedy")
    board = event.boards.order_by("number").first()
    assert board is not None
    board_par_task.apply(args=[board.pk])
    par = BoardPar.objects.get(board=board)
    # RULES.md 7.2: three players each for themselves, one score per seat; 250 in tricks.
    assert par.bot == "greedy"
    assert len(par.result["team_scores"]) == 3
    taken = sum(team["counters"] + team["last_trick"] for team in par.result["teams"])
    assert taken in (0, 250)  # 0 when the declarer threw the hand in
    shown = selectors.board_comparison(event=Event.objects.get(pk=event.pk), number=1)["par"]
    assert shown["scores"] == par.result["team_scores"]
