"""Swiss, ladder and double round robin seasons, and divisions across seasons."""

from __future__ import annotations

import pytest

from arena.errors import InvalidInput
from arena.models import Player
from leagues import selectors, services
from leagues.models import Entry, Fixture, League, Season
from tests.leagues.conftest import end_match, ready_version


def _league(organiser: Player, league_format: str, **fields: object) -> League:
    return services.league_create(
        organiser=organiser,
        name=f"A {league_format}",
        variant="auction4",
        format=league_format,
        boards_per_match=1,
        **fields,  # type: ignore[arg-type]
    )


def _enter_all(season: Season, players: list[Player], division: object = None) -> list[Entry]:
    entries = []
    for player in players:
        version = ready_version(player, f"{player.user.username}-{season.number}")
        entries.append(
            services.entry_create(
                season=season,
                bot=version.bot,
                version=version,
                division=division,  # type: ignore[arg-type]
            )
        )
    return entries


def _end_round(season: Season, number: int, score_x: int = 30) -> None:
    for match_id in Fixture.objects.filter(
        round__season=season, round__number=number, match__isnull=False
    ).values_list("match_id", flat=True):
        end_match(match_id, score_x=score_x)


def _pairs(season: Season, number: int) -> list[tuple[int, int | None]]:
    return [
        (fixture.entry_x.number, fixture.entry_y.number if fixture.entry_y else None)
        for fixture in Fixture.objects.filter(round__season=season, round__number=number)
        .select_related("entry_x", "entry_y")
        .order_by("id")
    ]


@pytest.fixture
def four(alice: Player, bob: Player, carol: Player, dave: Player) -> list[Player]:
    return [alice, bob, carol, dave]


def test_a_swiss_pairs_winners_with_winners_and_never_repeats(
    organiser: Player, four: list[Player]
) -> None:
    season = services.season_create(league=_league(organiser, "swiss"))
    _enter_all(season, four)
    services.round_schedule(season=season, number=1)
    assert _pairs(season, 1) == [(1, 3), (2, 4)]
    _end_round(season, 1)  # X wins: 1 and 2 lead with 2 points
    services.round_schedule(season=season, number=2)
    assert _pairs(season, 2) == [(1, 2), (3, 4)]
    _end_round(season, 2)
    assert services.rounds_close_ended() == 1
    season.refresh_from_db()
    assert (season.round_count, season.status) == (2, "finished")
    table = selectors.season_standings(season=season)[0].rows
    # Points: 1 = 4, 2 = 2, 3 = 2, 4 = 0. Buchholz: 1 = 3's 2 + 2's 2 = 4; 2 = 4's 0 + 1's 4
    # = 4; 3 = 1's 4 + 4's 0 = 4; 4 = 2's 2 + 3's 2 = 4. 2 and 3 also share a board
    # difference of 0 and a Sonneborn-Berger of 0 (each beat only 4): the number decides.
    assert [(line.entry.number, line.row.points, line.row.buchholz) for line in table] == [
        (1, 4, 4),
        (2, 2, 4),
        (3, 2, 4),
        (4, 0, 4),
    ]


def test_a_swiss_cannot_plan_more_rounds_than_its_field_pairs_without_rematches(
    organiser: Player, four: list[Player]
) -> None:
    season = services.season_create(league=_league(organiser, "swiss"), planned_rounds=3)
    _enter_all(season, four)
    with pytest.raises(InvalidInput, match="at most 2 rounds"):
        services.round_schedule(season=season, number=1)


def test_a_swiss_bye_is_a_win_and_comes_once(
    organiser: Player, alice: Player, bob: Player, carol: Player
) -> None:
    season = services.season_create(league=_league(organiser, "swiss"))
    _enter_all(season, [alice, bob, carol])
    services.round_schedule(season=season, number=1)
    assert _pairs(season, 1) == [(1, 2), (3, None)]
    _end_round(season, 1)
    services.round_schedule(season=season, number=2)
    byes = [pair for number in (1, 2) for pair in _pairs(season, number) if pair[1] is None]
    assert len({x for x, _ in byes}) == 2
    table = {
        line.entry.number: line.row for line in selectors.season_standings(season=season)[0].rows
    }
    assert (table[3].points, table[3].byes) == (2, 1)


def test_a_winning_ladder_challenger_takes_the_defenders_rung(
    organiser: Player, alice: Player, bob: Player, carol: Player
) -> None:
    league = _league(organiser, "ladder", ladder_reach=1)
    season = services.season_create(league=league, planned_rounds=2)
    entries = _enter_all(season, [alice, bob, carol])
    services.round_schedule(season=season, number=1)
    # From the bottom: 3 challenges 2; 1 has nobody left within reach.
    assert _pairs(season, 1) == [(3, 2)]
    _end_round(season, 1, score_x=12)
    services.round_schedule(season=season, number=2)
    rungs = {entry.pk: entry.rung for entry in Entry.objects.all()}
    assert [rungs[entry.pk] for entry in entries] == [1, 3, 2]
    assert _pairs(season, 2) == [(2, 3)]  # 2, now at the bottom, challenges 3 back
    table = selectors.season_standings(season=season)[0].rows
    assert [line.entry.number for line in table] == [1, 3, 2]


def test_a_double_round_robin_meets_each_opponent_once_in_each_seat(
    organiser: Player, alice: Player, bob: Player, carol: Player
) -> None:
    season = services.season_create(league=_league(organiser, "double_round_robin"))
    _enter_all(season, [alice, bob, carol])
    seated = []
    for number in range(1, 7):
        services.round_schedule(season=season, number=number)
        seated += [pair for pair in _pairs(season, number) if pair[1] is not None]
        _end_round(season, number)
    assert sorted(seated) == [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]
    with pytest.raises(InvalidInput, match="has 6 rounds"):
        services.round_schedule(season=season, number=7)


def test_divisions_play_apart_and_promotion_and_relegation_apply_next_season(
    organiser: Player, four: list[Player]
) -> None:
    league = _league(organiser, "round_robin")
    season = services.season_create(
        league=league,
        divisions=[
            {"name": "Premier", "relegated": 1},
            {"name": "First", "promoted": 1},
        ],
    )
    premier, first = season.divisions.order_by("level")
    _enter_all(season, four[:2], premier)
    _enter_all(season, four[2:], first)
    services.round_schedule(season=season, number=1)
    assert {f.division_id for f in Fixture.objects.all()} == {premier.pk, first.pk}
    # Y wins: the second-entered entrant of each division. Opening the next season notices
    # that the last round has ended and finishes this one.
    _end_round(season, 1, score_x=-5)

    following = services.season_create(league=league, carry_over=True)
    placed = {
        entry.bot.owner.user.username: entry.division.name
        for entry in following.entries.select_related("division", "bot__owner__user")
    }
    # Premier: bob beat alice, alice goes down; First: dave beat carol, dave goes up.
    assert placed == {"bob": "Premier", "alice": "First", "dave": "Premier", "carol": "First"}


def test_a_season_cannot_open_while_another_runs(organiser: Player, four: list[Player]) -> None:
    league = _league(organiser, "round_robin")
    season = services.season_create(league=league)
    _enter_all(season, four[:2])
    with pytest.raises(InvalidInput, match="season 1 of this league is not finished"):
        services.season_create(league=league)
