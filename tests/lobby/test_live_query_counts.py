"""What a move and a frame cost the database: the number of queries, pinned.

A live table's server time goes mostly to queries, so their number is the measure (no
timing here): a move is the row lock, the seats and one UPDATE; a frame read is one query
for the table, its host and its seats (and one for the talk once anything was said); the
sockets of one process share one read of each revision of the table, each still sent only
its own viewer's frame. In a test the service's transaction is a savepoint inside the
test's: two queries more than in production (BEGIN and COMMIT there, SAVEPOINT and RELEASE
here).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from lobby import selectors, services
from lobby.models import GameTable
from tests.lobby.conftest import person

pytestmark = pytest.mark.django_db

SAVEPOINT = 2
"""SAVEPOINT and RELEASE SAVEPOINT: a service's transaction inside the test's."""


def four_people() -> tuple[GameTable, list[User]]:
    people = [person(name) for name in ("north", "east", "south", "west")]
    table = services.table_open(
        host=people[0], variant="auction4", seats=[{"kind": "host"}] + [{"kind": "open"}] * 3
    )
    for seat in (1, 2, 3):
        services.table_sit(table_id=table.pk, user=people[seat], seat=seat)
    table.refresh_from_db()
    return table, people


def to_act(table: GameTable, people: list[User]) -> tuple[User, dict[str, Any]]:
    seat = selectors.frame_for(table_id=table.pk, viewer=people[0])["to_act"]
    return people[seat], selectors.frame_for(table_id=table.pk, viewer=people[seat])


def test_a_move_is_the_lock_the_seats_and_one_update(django_assert_num_queries: Any) -> None:
    table, people = four_people()
    for _ in range(3):  # RULES.md section 2.2: the auction's first bids and passes
        mover, frame = to_act(table, people)
        action = frame["legal"][0]["action"]
        with django_assert_num_queries(3 + SAVEPOINT):
            services.table_act(table_id=table.pk, user=mover, action=action, ply=frame["ply"])
    table.refresh_from_db()
    assert table.ply == 3


def test_a_frame_reads_the_table_with_its_seats_and_the_talk_once_there_is_some(
    django_assert_num_queries: Any,
) -> None:
    table, people = four_people()
    selectors.frame_for(table_id=table.pk, viewer=people[1])  # the game is rebuilt once
    with django_assert_num_queries(1):
        selectors.frame_for(table_id=table.pk, viewer=people[1])
    services.table_talk(table_id=table.pk, user=people[2], key="good_luck")
    with django_assert_num_queries(2):
        frame = selectors.frame_for(table_id=table.pk, viewer=people[1])
    assert [said["key"] for said in frame["talk"]] == ["good_luck"]


def test_the_sockets_of_one_process_share_one_read_of_a_revision_each_its_own_frame(
    django_assert_num_queries: Any,
) -> None:
    table, people = four_people()
    mover, frame = to_act(table, people)
    services.table_act(
        table_id=table.pk, user=mover, action=frame["legal"][0]["action"], ply=frame["ply"]
    )
    table.refresh_from_db()
    viewers = [*people, AnonymousUser()]
    with django_assert_num_queries(1):
        shared = [
            selectors.shared_frame(table_id=table.pk, viewer=viewer, revision=table.revision)
            for viewer in viewers
        ]
    # Each socket gets what its own viewer may see: the same frame as read alone.
    for viewer, (revision, seen) in zip(viewers, shared, strict=True):
        assert revision == table.revision
        assert seen == selectors.frame_for(table_id=table.pk, viewer=viewer)
    hands = [seen["view"]["hand"] for _, seen in shared[:4]]
    assert all(hands) and len({tuple(hand) for hand in hands}) == 4
    assert "hand" not in shared[4][1]["view"]
    # The next change (another revision) is read again, once.
    services.presence(table_id=table.pk, user=people[1], connected=True)
    with django_assert_num_queries(1):
        for viewer in viewers:
            revision, seen = selectors.shared_frame(
                table_id=table.pk, viewer=viewer, revision=table.revision + 1
            )
            assert revision == table.revision + 1 and seen["seats"][1]["connected"]


def test_the_process_that_played_a_move_keeps_the_table_as_it_left_it(
    django_assert_num_queries: Any,
) -> None:
    table, people = four_people()
    for _ in range(3):  # RULES.md section 2.2: the auction's first bids and passes
        mover, frame = to_act(table, people)
        selectors.act_shared(
            table_id=table.pk, user=mover, action=frame["legal"][0]["action"], ply=frame["ply"]
        )
        table.refresh_from_db()
        viewers = [*people, AnonymousUser()]
        with django_assert_num_queries(0):
            shared = [
                selectors.shared_frame(table_id=table.pk, viewer=viewer, revision=table.revision)
                for viewer in viewers
            ]
        # What was kept is what the database says: each viewer's frame as read afresh.
        for viewer, (revision, seen) in zip(viewers, shared, strict=True):
            assert revision == table.revision
            assert seen == selectors.frame_for(table_id=table.pk, viewer=viewer)
