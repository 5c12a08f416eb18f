"""A scheduled league round is noticed by every entrant's owner and the organiser, once."""

from __future__ import annotations

from arena.models import Notice, Player
from leagues import services
from leagues.models import League

from .conftest import ready_version


def test_a_scheduled_round_is_noticed_by_the_entrants_and_the_organiser(
    organiser: Player, alice: Player, bob: Player, carol: Player
) -> None:
    league = services.league_create(
        organiser=organiser,
        name="Tuesday bots",
        variant="auction4",
        format=League.Format.ROUND_ROBIN,
        boards_per_match=1,
    )
    season = services.season_create(league=league)
    for player, name in ((alice, "a"), (bob, "b")):
        version = ready_version(player, name)
        services.entry_create(season=season, bot=version.bot, version=version)
    round_, created = services.round_schedule(season=season, number=1)
    assert created
    noticed = Notice.objects.filter(kind=Notice.Kind.ROUND_SCHEDULED)
    assert sorted(noticed.values_list("user__username", flat=True)) == sorted(
        [alice.user.username, bob.user.username, organiser.user.username]
    )
    assert all("Tuesday bots: round 1" in notice.text for notice in noticed)
    assert not Notice.objects.filter(user=carol.user).exists()
    # Asking for the round again schedules nothing and notices nothing.
    assert services.round_schedule(season=season, number=1) == (round_, False)
    assert noticed.count() == 3
