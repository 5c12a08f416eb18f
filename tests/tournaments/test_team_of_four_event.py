"""Team of four: two rooms per match, board-a-match ranking, IMPs beside it."""

from __future__ import annotations

import pytest

from arena import services as arena_services
from arena.models import Player
from tournaments import selectors
from tournaments.imps import MAX_IMPS, imps

from .conftest import PASSWORD, play_all, running_event


def test_the_imp_scale_reads_like_its_table() -> None:
    # auction4 thresholds start 10, 20, ..., 100, then 130, 200, ...; the last is 870.
    assert imps(0, "auction4") == 0
    assert imps(95, "auction4") == 9
    assert imps(100, "auction4") == 10
    assert imps(-130, "auction4") == -11
    assert imps(869, "auction4") == 19
    assert imps(5000, "auction4") == MAX_IMPS


@pytest.mark.parametrize("variant", ["single4", "auction4", "double4"])
def test_imps_are_monotone_symmetric_and_bounded(variant: str) -> None:
    values = [imps(swing, variant) for swing in range(0, 3000)]
    assert values == sorted(values)
    assert values[0] == 0 and values[-1] == MAX_IMPS
    assert all(imps(-s, variant) == -imps(s, variant) for s in range(0, 3000, 7))


def test_a_team_event_ranks_teams_and_counts_imps_per_match(alice: Player) -> None:
    players = [
        arena_services.player_register(username=f"teamplayer{i}", password=PASSWORD)
        for i in range(16)
    ]
    event = running_event(alice, players, movement="teams", variant="auction4")
    play_all(event)
    section = event.sections.get()
    block = selectors.event_standings(event=event)[0]
    assert sorted(row["team"] for row in block["teams"]) == [1, 2, 3, 4]
    # A round robin of four teams: three rounds of two matches.
    assert len(block["matches"]) == 6
    results = {
        (r.round, r.table, r.board.number): r.score_ns - r.score_ew
        for r in section.results.select_related("board")
    }
    movement = selectors.section_movement(event=event, section=section)
    for match in block["matches"]:
        open_room, closed_room = (s for s in movement.seatings if s.match == match["match"])
        swings = [
            imps(
                results[(open_room.round, open_room.table, n)]
                - results[(closed_room.round, closed_room.table, n)],
                "auction4",
            )
            for n in selectors.board_numbers(event=event, board_set=open_room.board_set)
        ]
        assert match["imps_home"] - match["imps_away"] == sum(swings)
        assert match["boards"] == 2
    teams = block["teams"]
    assert sum(t["imps_for"] for t in teams) == sum(t["imps_against"] for t in teams)
    # Board-a-match: 4 matchpoints a board between the two teams of a match.
    assert sum(t["matchpoints"] for t in teams) == pytest.approx(6 * 2 * 4)
