"""Every game of the engine runs in the arena unchanged: validation, duplicate, replays."""

from __future__ import annotations

import pytest

from arena import selectors
from arena.models import Game, Match
from arena.services.matches import match_create
from arena.tasks import match_run_task
from bots.reference import reference_bots
from engine.registry import load_game
from tests.arena.conftest import active_version

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.mark.parametrize("variant", ["twohand", "cutthroat3", "pinnacolo2", "pinnacolo"])
def test_a_match_of_every_game_is_played_scored_and_replayable(
    variant: str,
    alice,
    bob,  # type: ignore[no-untyped-def]
) -> None:
    references = reference_bots(load_game(variant))
    greedy = active_version(alice, "greedy", references["greedy"].read_bytes(), variant=variant)
    rnd = active_version(bob, "random", references["random"].read_bytes(), variant=variant)
    match = match_create(version_x=greedy, version_y=rnd, boards=1, seed=3, rated=False)
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    match.refresh_from_db()
    assert match.faults == 0
    # RULES.md section 9: one table per arrangement of the two bots over the seats.
    tables = load_game(variant).seatings
    games = Game.objects.filter(match=match).select_related("replay")
    assert sorted(g.table for g in games) == sorted(tables)
    for row in games:
        assert [{greedy.pk: 0, rnd.pk: 1}[version] for version in row.seat_versions] == list(
            tables[row.table]
        )
        replay = load_game(variant).read_replay(row.replay.document["hand"])
        assert replay.verify() is None
    assert match.status == Match.Status.DONE
    # Every board re-derives from the seed: its seed, dealer and the cards of each table.
    report = selectors.match_verification(match=match)
    assert (report["verified"], report["problems"]) == (True, [])
