"""Two organiser requests for the same round at once: one creates it, the other finds it."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from arena.models import Match, Player
from leagues import services
from leagues.models import Fixture, Round, Season
from tests.conftest import skip_or_fail
from tests.leagues.conftest import ready_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_concurrent_requests_for_a_round_create_it_once(
    organiser: Player, alice: Player, bob: Player
) -> None:
    if connection.vendor != "postgresql":
        skip_or_fail("row locks need PostgreSQL (DATABASE_URL)")
    league = services.league_create(
        organiser=organiser, name="Race", variant="auction4", format="round_robin"
    )
    season = services.season_create(league=league)
    for player in (alice, bob):
        version = ready_version(player, "racer")
        services.entry_create(season=season, bot=version.bot, version=version)

    start = threading.Barrier(2)
    created: list[bool] = []

    def request() -> None:
        try:
            start.wait()
            created.append(services.round_schedule(season=season, number=1)[1])
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(created) == [False, True]
    assert (Round.objects.count(), Fixture.objects.count(), Match.objects.count()) == (1, 1, 1)
    assert Season.objects.get().status == "running"
