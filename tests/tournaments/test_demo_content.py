"""The demo creates a finished pairs night and a team match in play, once."""

from __future__ import annotations

from typing import Any

from tournaments import demo, selectors
from tournaments.models import Event


def test_the_demo_tournaments_are_created_once(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        demo.seed(say=lambda _: None)
    pairs = Event.objects.get(name="Tuesday club pairs")
    teams = Event.objects.get(name="Team of four: Autumn cup")
    assert pairs.status == Event.Status.FINISHED
    assert teams.status == Event.Status.RUNNING
    assert selectors.deal_verification(event=pairs)["verified"] is True
    team_rows = selectors.event_standings(event=teams)[0]["teams"]
    assert sorted(row["team"] for row in team_rows) == [1, 2, 3]
    # Round 1 is one match (the third team has a bye); each of its boards is played in two
    # rooms with a top of 2, so the two teams share 4 matchpoints a board.
    assert sum(row["matchpoints"] for row in team_rows) == 4 * teams.boards_per_round

    demo.seed(say=lambda _: None)
    assert Event.objects.count() == 2
