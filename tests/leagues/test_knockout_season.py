"""A knockout season through the real services (README.md, "Leagues", knockout): seeds
from the ratings, byes to the top seeds, each round scheduled once the last is complete
(by hand and by the league's timetable), tie-breaks, and a champion at the end."""

from __future__ import annotations

import pytest

from arena.errors import InvalidInput
from arena.models import BotVersion, Match, Player, Rating
from leagues import knockout, selectors, services
from leagues.models import Entry, Fixture, League, Round, Season
from tests.leagues.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, end_match, play_round, ready_version


def _league(organiser: Player) -> League:
    return services.league_create(
        organiser=organiser,
        name="Cup",
        variant="auction4",
        format=League.Format.KNOCKOUT,
        boards_per_match=1,
    )


def _rate(version: BotVersion, elo: float) -> None:
    Rating.objects.create(
        version=version, variant="auction4", elo=elo, elo_low=elo - 50, elo_high=elo + 50
    )


def _enter(
    season: Season, owner: Player, names_and_ratings: list[tuple[str, float | None]]
) -> None:
    for name, elo in names_and_ratings:
        version = ready_version(owner, name)
        if elo is not None:
            _rate(version, elo)
        services.entry_create(season=season, bot=version.bot, version=version)


def _ties(season: Season, number: int) -> list[tuple[str, str | None]]:
    """Round ``number``'s fixtures in bracket order, by bot name (X first)."""
    return [
        (fixture.entry_x.bot.name, fixture.entry_y.bot.name if fixture.entry_y else None)
        for fixture in Fixture.objects.filter(round__season=season, round__number=number)
        .select_related("entry_x__bot", "entry_y__bot")
        .order_by("id")
    ]


def _end(season: Season, number: int, results: dict[str, tuple[int, list[int]]]) -> None:
    """End round ``number``'s matches: X's total and board results, by X's bot name."""
    for fixture in Fixture.objects.filter(
        round__season=season, round__number=number, match__isnull=False
    ).select_related("entry_x__bot"):
        assert fixture.match_id is not None
        score_x, boards = results[fixture.entry_x.bot.name]
        end_match(fixture.match_id, score_x=score_x)
        Match.objects.filter(pk=fixture.match_id).update(board_results=boards)


def test_five_entrants_are_seeded_by_rating_and_the_three_best_have_byes(
    organiser: Player, alice: Player
) -> None:
    season = services.season_create(league=_league(organiser))
    _enter(season, alice, [("e", None), ("b", 1600), ("d", 1400), ("a", 1700), ("c", 1500)])
    services.round_schedule(season=season, number=1)
    seeds = dict(Entry.objects.values_list("bot__name", "number"))
    assert seeds == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}  # the unrated one last
    assert Season.objects.get().round_count == 3
    # Bracket order of eight places: 1 (bye), 4 v 5, 2 (bye), 3 (bye).
    assert _ties(season, 1) == [("a", None), ("d", "e"), ("b", None), ("c", None)]
    assert Match.objects.get().kind == Match.Kind.LEAGUE


def test_draws_go_to_more_boards_won_then_to_the_better_seed_and_a_failed_match_too(
    organiser: Player, alice: Player
) -> None:
    season = services.season_create(league=_league(organiser))
    _enter(season, alice, [(name, 2000 - 100 * i) for i, name in enumerate("abcdefgh")])
    services.round_schedule(season=season, number=1)
    assert _ties(season, 1) == [("a", "h"), ("d", "e"), ("b", "g"), ("c", "f")]
    # a v h: drawn, h won more boards; d v e: drawn on boards too, d is the better seed;
    # b v g: g wins on the total though b won more boards; c v f: the match failed.
    _end(
        season,
        1,
        {"a": (0, [30, -15, -15]), "d": (0, [10, -10]), "b": (-5, [20, 10, -35]), "c": (0, [])},
    )
    Match.objects.filter(league_fixture__entry_x__bot__name="c").update(
        status=Match.Status.FAILED, score_x=None
    )

    _, created = services.round_schedule(season=season, number=2)
    assert created and Round.objects.get(number=1).status == Round.Status.COMPLETE
    assert _ties(season, 2) == [("d", "h"), ("c", "g")]
    with pytest.raises(InvalidInput, match="round 2 is still being played"):
        services.round_schedule(season=season, number=3)


@pytest.mark.usefixtures("plain_bots")
def test_a_knockout_plays_real_matches_round_by_round_to_a_champion(
    organiser: Player, alice: Player, bob: Player, carol: Player
) -> None:
    league = _league(organiser)
    season = services.season_create(league=league)
    for owner, name, source in (
        (alice, "first", FIRST_LEGAL_BOT),
        (bob, "rnd", RANDOM_BOT),
        (carol, "c", FIRST_LEGAL_BOT),
    ):
        version = ready_version(owner, name, source)
        services.entry_create(season=season, bot=version.bot, version=version)

    round_one, _ = services.round_schedule(season=season, number=1)
    assert _ties(season, 1) == [("first", None), ("rnd", "c")]  # nobody rated: entry order
    play_round(round_one)
    # The periodic close and the league's timetable take it from here.
    assert services.rounds_close_ended() == 1
    assert services.league_advance(league_id=league.pk) == "scheduled round 2"
    semi = Fixture.objects.get(round__number=1, walkover="")
    finalist = _advanced(semi)
    assert _ties(season, 2) == [("first", finalist)]

    play_round(Round.objects.get(number=2))
    assert services.league_advance(league_id=league.pk) == "season finished"
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    champion = _advanced(Fixture.objects.get(round__number=2))
    [bracket] = selectors.bracket_page(league_id=league.pk, number=1).brackets
    assert bracket.champion is not None and bracket.champion.bot.name == champion
    standings = [line.entry.bot.name for line in selectors.season_standings(season=season)[0].rows]
    assert standings[:2] == [champion, ({"first", finalist} - {champion}).pop()]


def _advanced(fixture: Fixture) -> str:
    """Who went through a played tie; never the side that lost on the board total."""
    fixture = Fixture.objects.select_related("match", "entry_x__bot", "entry_y__bot").get(
        pk=fixture.pk
    )
    assert fixture.match is not None and fixture.entry_y is not None
    assert fixture.match.status == Match.Status.DONE
    x, y = fixture.entry_x, fixture.entry_y
    assert x.number is not None and y.number is not None
    seed = knockout.tie_winner(x.number, y.number, selectors.tie_outcome(fixture))
    winner = x if seed == x.number else y
    score = fixture.match.score_x or 0
    assert (score if winner == x else -score) >= 0
    return winner.bot.name


def test_each_division_has_its_own_bracket_and_champion(organiser: Player, alice: Player) -> None:
    season = services.season_create(
        league=_league(organiser), divisions=[{"name": "Gold"}, {"name": "Silver"}]
    )
    gold, silver = season.divisions.order_by("level")
    for division, names in ((gold, "abc"), (silver, "xy")):
        for name in names:
            version = ready_version(alice, name)
            services.entry_create(
                season=season, bot=version.bot, version=version, division=division
            )
    services.round_schedule(season=season, number=1)
    assert Season.objects.get().round_count == 2  # the larger bracket's
    assert _ties(season, 1) == [("a", None), ("b", "c"), ("x", "y")]
    _end(season, 1, {"b": (-10, [-10]), "x": (-10, [-10])})
    services.round_schedule(season=season, number=2)
    assert _ties(season, 2) == [("a", "c")]  # Silver's final was its only round
    _end(season, 2, {"a": (10, [10])})
    assert services.rounds_close_ended() == 1
    brackets = selectors.bracket_page(league_id=season.league_id, number=1).brackets
    assert [(b.division, b.champion and b.champion.bot.name) for b in brackets] == [
        (gold, "a"),
        (silver, "y"),
    ]
