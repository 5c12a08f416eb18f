"""Rated games: people only, and their ratings move once, when the game ends."""

from __future__ import annotations

import pytest

from lobby import ratings, services
from lobby.errors import BadTable
from lobby.models import GameTable, LiveRating, LiveRatingChange
from tests.lobby.conftest import bot, person, play_on

pytestmark = pytest.mark.django_db


def test_a_rated_game_moves_its_peoples_ratings_exactly_once() -> None:
    ann, ben = person("ann"), person("ben")
    table = services.table_open(
        host=ann,
        variant="twohand",
        rated=True,
        target={"kind": "hands", "value": 1},
        seats=[{"kind": "host"}, {"kind": "open"}],
    )
    services.table_sit(table_id=table.pk, user=ben, seat=1)
    table = play_on(table, {0: ann, 1: ben})
    assert table.status == GameTable.Status.FINISHED and table.rating_applied
    assert table.result is not None
    changes = {c.user_id: c.after - c.before for c in LiveRatingChange.objects.filter(table=table)}
    assert set(changes) == {ann.pk, ben.pk}
    winner = table.result["winner"]
    if winner is None:
        assert changes[ann.pk] == changes[ben.pk] == 0
    else:
        gainer = (ann, ben)[winner]
        assert changes[gainer.pk] == 16.0 and sum(changes.values()) == 0
    # Finishing again (a second delivery, a retry) changes nothing.
    assert ratings.apply_once(table) is False
    assert LiveRatingChange.objects.filter(table=table).count() == 2
    assert all(r.games == 1 for r in LiveRating.objects.all())


def test_a_rated_table_seats_no_bot() -> None:
    ann = person("ann")
    with pytest.raises(BadTable, match="people only"):
        services.table_open(
            host=ann, variant="twohand", rated=True, seats=[{"kind": "host"}, bot()]
        )
    table = services.table_open(
        host=ann, variant="twohand", rated=True, seats=[{"kind": "host"}, {"kind": "open"}]
    )
    with pytest.raises(BadTable, match="people only"):
        services.table_fill(
            table_id=table.pk, user=ann, seat=1, bot={"kind": "reference", "name": "greedy"}
        )


def test_an_unrated_game_moves_no_rating() -> None:
    ann = person("ann")
    table = services.table_open(
        host=ann,
        variant="twohand",
        target={"kind": "hands", "value": 1},
        seats=[{"kind": "host"}, bot()],
    )
    play_on(table, {0: ann})
    assert not LiveRating.objects.exists()


def test_three_sides_each_meet_the_other_two() -> None:
    moved = ratings.changes([[1500.0], [1500.0], [1500.0]], 0, [500, 200, 200])
    assert moved == [16.0, -8.0, -8.0]
