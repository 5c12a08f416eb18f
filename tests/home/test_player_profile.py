"""A player's page shows her human games: the tables she played, each finished one linked to
its replay once its deal may be seen, and her human ratings with their interval and a dated
chart. Fair play: a hand in play, or one whose deal is sealed, gives no other viewer a link
to its replay or its seed (tables/README.md, "Fair play across tables")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena import services as arena_services
from arena.models import Player
from home import selectors
from tables.models import PlayTable
from tests.arena.conftest import PASSWORD
from tests.home.worlds import finished_table, rated_events, sealed_table
from tests.tables.conftest import greedy_table
from tournaments.models import HumanRating


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db: None) -> Player:
    return arena_services.player_register(username="alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> Player:
    return arena_services.player_register(username="bob", password=PASSWORD)


def _page(viewer: Player | None, username: str = "alice") -> str:
    client = Client()
    if viewer is not None:
        client.force_login(viewer.user)
    answer = client.get(f"/players/{username}/")
    assert answer.status_code == 200
    return str(answer.content.decode())


def _replay(table: PlayTable) -> str:
    return f"/play/tables/{table.pk}/replay/"


def test_her_finished_table_links_its_replay_for_her(alice: Player) -> None:
    table = finished_table(alice.user)
    page = _page(alice)
    assert _replay(table) in page
    assert "single4" in page and " against " in page
    # A casual hand is hers alone: other viewers are not shown it at all.
    assert f"/play/tables/{table.pk}/" not in _page(None)


def test_a_public_finished_table_links_its_replay_for_everyone(alice: Player, bob: Player) -> None:
    table = finished_table(alice.user, public=True)
    for viewer in (None, bob):
        assert _replay(table) in _page(viewer)
    assert Client().get(_replay(table)).status_code == 200


def test_a_hand_in_play_shows_no_replay_and_no_other_viewer_sees_it(
    alice: Player, bob: Player
) -> None:
    table = greedy_table(alice.user)
    assert not table.is_over
    # Even one whose event would open it later is not shown before the hand is over.
    PlayTable.objects.filter(pk=table.pk).update(public_after=table.created)
    own = _page(alice)
    assert f'href="/play/tables/{table.pk}/"' in own and _replay(table) not in own
    assert "in play" in own
    for viewer in (None, bob):
        assert f"/play/tables/{table.pk}/" not in _page(viewer)


def test_a_sealed_table_shows_no_replay_and_no_seed_to_anyone(alice: Player, bob: Player) -> None:
    table, _challenge = sealed_table(alice.user)
    # The replay itself is refused while sealed: the page must not link it either.
    assert Client().get(_replay(table)).status_code == 404
    for viewer in (None, bob, alice):
        page = _page(viewer)
        assert _replay(table) not in page
        assert "frames.json" not in page
        assert str(table.seed) not in page
        assert "sealed for now" in page


def test_her_tables_are_capped_newest_first_with_their_count(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [finished_table(alice.user, public=True, seed=seed) for seed in range(3)]
    shown = selectors.player_page(username="alice", viewer_id=bob.user_id)
    assert [row.table.pk for row in shown.tables] == [table.pk for table in reversed(tables)]
    assert shown.table_count == 3
    monkeypatch.setattr(selectors, "TABLES_SHOWN", 2)
    capped = selectors.player_page(username="alice", viewer_id=bob.user_id)
    assert [row.table.pk for row in capped.tables] == [tables[2].pk, tables[1].pk]
    assert capped.table_count == 3
    assert "The 2 newest of 3 tables" in _page(bob)


def test_her_human_rating_shows_its_interval_and_a_dated_chart(alice: Player) -> None:
    events = rated_events(alice)
    rating = HumanRating.objects.get(player=alice, variant="single4")
    assert rating.events == 2
    page = _page(None)
    assert f"single4: {rating.value:.0f}" in page
    assert f"95% interval {rating.low:.0f}\u2013{rating.high:.0f}" in page
    assert 'class="rating-chart dated"' in page
    for event in events:
        event.refresh_from_db()
    # The dates axis runs from the first event's start to the last one's end.
    assert events[0].started is not None and events[-1].finished is not None
    assert 'class="x-label"' in page and 'class="y-label"' in page
    assert events[0].started.date().isoformat() in page
    assert events[-1].finished.date().isoformat() in page
    assert "over 2 finished events" in page


def test_no_rating_yet_says_where_ratings_come_from(alice: Player) -> None:
    assert "No human rating yet" in _page(None)
