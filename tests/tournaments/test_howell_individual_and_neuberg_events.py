"""Howell and individual events, and Neuberg when a table's result is missing."""

from __future__ import annotations

import pytest

from arena import services as arena_services
from arena.errors import InvalidInput
from arena.models import Player
from tournaments import selectors, services

from .conftest import PASSWORD, client_for, play_all, running_event


@pytest.fixture
def crowd(db: None) -> list[Player]:
    return [
        arena_services.player_register(username=f"player{i}", password=PASSWORD) for i in range(20)
    ]


def test_a_howell_field_is_one_ranking_where_every_pair_met_every_other(
    alice: Player, crowd: list[Player]
) -> None:
    event = running_event(alice, crowd[:16], movement="howell", boards_per_round=1)
    play_all(event)
    standings = selectors.event_standings(event=event)[0]["standings"]
    assert {row["field"] for row in standings} == {"all"}
    assert [row["rank"] for row in standings] == list(range(1, 9))
    # Seven rounds of one board with a top of 2 * (4 - 1) = 6 for every pair.
    assert all(row["top"] == 42 for row in standings)
    # Matchpoints are shared: the field's total is half the tops.
    assert sum(row["matchpoints"] for row in standings) == pytest.approx(8 * 42 / 2)


def test_an_individual_event_gives_partners_of_the_day_the_same_score(
    alice: Player, crowd: list[Player]
) -> None:
    event = running_event(
        alice, crowd, kind="individual", movement="individual", boards_per_round=1, rounds=2
    )
    section = event.sections.get()
    assert (section.size, section.rounds) == (5, 2)
    play_all(event)
    scored = selectors.section_scores(event=event, section=section)
    points = {
        score.entry.number: score.points
        for score in selectors.section_standings(event=event, section=section)
    }
    # Seats 0 and 2 are partners for the hand and take North-South's matchpoints; seats 1
    # and 3 take East-West's. Each board set is played at 2 tables in 2 rounds: top 2.
    expected: dict[int, float] = dict.fromkeys(points, 0.0)
    for s in scored.values():
        assert s.top == 2
        north, east, south, west = s.result.sides
        for player in (north, south):
            expected[player] += s.ns
        for player in (east, west):
            expected[player] += s.ew
    assert points == expected
    assert sum(points.values()) == pytest.approx(2 * 5 * 2 * 2)

    services.event_finish(event=event, by=alice)
    records = client_for(None).get(f"/api/tournaments/{event.pk}/hand-records/")
    assert records.status_code == 200
    # An individual table lists both partnerships of the day.
    first = next(iter(scored.values())).result.sides
    assert f"<td>{first[0]}, {first[2]}</td><td>{first[1]}, {first[3]}</td>".encode() in (
        records.content
    )
    pdf = client_for(None).get(f"/api/tournaments/{event.pk}/hand-records.pdf")
    assert pdf.content.startswith(b"%PDF")


def test_a_missing_result_makes_the_other_tables_neuberg(
    alice: Player, field: list[Player]
) -> None:
    event = running_event(alice, field, boards_per_round=1)
    # Board 1 is planned at all 3 tables; table 1 plays it in round 1 and reports nothing.
    play_all(event, skip={(1, 1, 1)})
    section = event.sections.get()
    scores = [
        s
        for s in selectors.section_scores(event=event, section=section).values()
        if s.result.board.number == 1
    ]
    assert len(scores) == 2
    for s in scores:
        assert s.top == 4
        # Two results, raw top 2: MP' = (MP + 1) * 3 / 2 - 1 turns 2, 0 and a tie's 1 into
        # 3.5, 0.5 and 2.
        assert s.ns in (3.5, 0.5, 2.0)
        assert s.ns + s.ew == 4
    services.event_finish(event=event, by=alice)
    standings = selectors.event_standings(event=event)[0]["standings"]
    # Pairs 1 and 4 missed board 1; everyone else has 3 boards of top 4.
    tops = {row["entry"]: row["top"] for row in standings}
    assert tops[1] == tops[4] == 8
    assert all(tops[n] == 12 for n in (2, 3, 5, 6))


def test_a_team_event_needs_whole_teams(alice: Player, field: list[Player]) -> None:
    event = services.event_create(
        director=alice, name="Teams", variant="double4", movement="teams", par_bot=""
    )
    for start in range(0, 6, 2):
        services.entry_add(
            event=event, by=alice, section_name="A", players=field[start : start + 2]
        )
    with pytest.raises(InvalidInput, match="even number of pairs"):
        services.event_start(event=event, by=alice)


def test_an_individual_event_needs_full_tables(alice: Player, crowd: list[Player]) -> None:
    event = services.event_create(
        director=alice,
        name="Individual",
        variant="single4",
        kind="individual",
        movement="individual",
        par_bot="",
    )
    for player in crowd[:17]:
        services.entry_add(event=event, by=alice, section_name="A", players=[player])
    with pytest.raises(InvalidInput, match="seats 20, 28, 44, 52 players, not 17"):
        services.event_start(event=event, by=alice)
