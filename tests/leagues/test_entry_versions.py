"""Which version plays: fixed versions, disabled versions, entries following the latest."""

from __future__ import annotations

import pytest
from django.db.models import Q

from arena import services as arena_services
from arena.errors import InvalidInput
from arena.models import BotVersion, Player
from leagues import selectors, services
from leagues.models import Fixture, League, Season
from tests.leagues.conftest import end_match, ready_version


@pytest.fixture
def league(organiser: Player) -> League:
    return services.league_create(
        organiser=organiser,
        name="Versions",
        variant="auction4",
        format=League.Format.ROUND_ROBIN,
        boards_per_match=1,
        allow_follow_latest=True,
    )


def _fixture_of(season: Season, number: int, version: BotVersion) -> Fixture:
    return Fixture.objects.get(
        Q(entry_x__bot=version.bot) | Q(entry_y__bot=version.bot),
        round__season=season,
        round__number=number,
    )


def _end_round(season: Season, number: int) -> None:
    for match_id in Fixture.objects.filter(
        round__season=season, round__number=number, match__isnull=False
    ).values_list("match_id", flat=True):
        end_match(match_id, score_x=25)


def test_a_version_disabled_mid_season_forfeits_its_remaining_fixtures(
    league: League, alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    season = services.season_create(league=league)
    versions = [
        ready_version(player, name)
        for player, name in ((alice, "a"), (bob, "b"), (carol, "c"), (dave, "d"))
    ]
    for version in versions:
        services.entry_create(season=season, bot=version.bot, version=version)
    services.round_schedule(season=season, number=1)
    _end_round(season, 1)
    # The arena disables alice's version for faults between rounds 1 and 2.
    BotVersion.objects.filter(pk=versions[0].pk).update(status=BotVersion.Status.DISABLED)

    # Berger round 2 of four: 4-3, 1-2. Alice (1) has no active version: Bob wins.
    services.round_schedule(season=season, number=2)
    fixture = _fixture_of(season, 2, versions[0])
    assert (fixture.entry_x.bot_id, fixture.entry_y.bot_id) == (
        versions[0].bot_id,
        versions[1].bot_id,
    )
    assert (fixture.walkover, fixture.match, fixture.version_x) == ("x_forfeited", None, None)
    _end_round(season, 2)

    table = {
        line.entry.bot.name: line.row for line in selectors.season_standings(season=season)[0].rows
    }
    # Round 1 (1-4, 2-3) was won by X both times; round 2's 4-3 by X too.
    assert {name: (row.points, row.played, row.won, row.lost) for name, row in table.items()} == {
        "a": (2, 1, 1, 1),
        "b": (4, 1, 2, 0),
        "c": (0, 2, 0, 2),
        "d": (2, 2, 1, 1),
    }


def test_an_entry_following_the_latest_plays_the_newest_active_version(
    league: League, alice: Player, bob: Player, carol: Player
) -> None:
    season = services.season_create(league=league)
    follower = ready_version(alice, "follower")
    services.entry_create(season=season, bot=follower.bot, follows_latest=True)
    for player, name in ((bob, "b"), (carol, "c")):
        version = ready_version(player, name)
        services.entry_create(season=season, bot=version.bot, version=version)

    services.round_schedule(season=season, number=1)
    _end_round(season, 1)
    newer = arena_services.bot_version_submit(
        bot=follower.bot,
        data=b"def act(observation, legal):\n    return legal[-1]\n",
        filename="bot.py",
    )
    BotVersion.objects.filter(pk=newer.pk).update(status=BotVersion.Status.ACTIVE)
    pending = arena_services.bot_version_submit(
        bot=follower.bot,
        data=b"def act(observation, legal):\n    return legal[0]\n",
        filename="bot.py",
    )
    assert pending.status == BotVersion.Status.PENDING

    played = {}
    for number in (2, 3):
        services.round_schedule(season=season, number=number)
        fixture = _fixture_of(season, number, follower)
        if fixture.walkover != "bye":
            side = (
                fixture.version_x
                if fixture.entry_x.bot_id == follower.bot_id
                else fixture.version_y
            )
            played[number] = side
        _end_round(season, number)
    # Version 2 is the latest active one; version 3 is still pending validation.
    assert {version.number for version in played.values()} == {2}


def test_an_entry_with_no_active_version_is_refused(league: League, alice: Player) -> None:
    season = services.season_create(league=league)
    bot = arena_services.bot_create(owner=alice, name="pending", variant="auction4")
    arena_services.bot_version_submit(
        bot=bot, data=b"def act(o, legal):\n    return legal[0]\n", filename="bot.py"
    )
    with pytest.raises(InvalidInput, match="has no active version"):
        services.entry_create(season=season, bot=bot)
