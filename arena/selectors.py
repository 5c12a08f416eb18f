"""Reads used by the API and by other services."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Q, QuerySet

from arena import seeding
from arena.errors import InvalidInput
from arena.models import Bot, BotVersion, Game, Match, Player, Rating, RatingChange
from bots.games import game_for


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").annotate(bot_count=Count("bots")).order_by("id")


def bot_list() -> QuerySet[Bot]:
    return (
        Bot.objects.select_related("owner__user")
        .annotate(version_count=Count("versions"), latest_version=Max("versions__number"))
        .order_by("id")
    )


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    # The source can be large and is only for the owner's source endpoint.
    return bot.versions.defer("source").order_by("number")


def match_list() -> QuerySet[Match]:
    return Match.objects.select_related(
        "version_x__bot__owner__user", "version_y__bot__owner__user", "requested_by__user"
    ).order_by("-id")


def match_games(
    *, match: Match, board: int | None = None, table: str | None = None
) -> QuerySet[Game]:
    games = Game.objects.filter(match=match).select_related("replay").order_by("number", "table")
    if board is not None:
        games = games.filter(number=board)
    if table is not None:
        games = games.filter(table=table)
    return games


def leaderboard(*, variant: str | None) -> QuerySet[Rating]:
    ratings = Rating.objects.select_related("version__bot__owner__user").order_by("-elo", "id")
    if variant:
        ratings = ratings.filter(variant=variant)
    return ratings


def rating_history(*, version: BotVersion) -> QuerySet[RatingChange]:
    return (
        RatingChange.objects.filter(rating__version=version)
        .select_related("rating", "match")
        .order_by("match__completion_seq")
    )


def head_to_head(*, version_a: int, version_b: int, variant: str) -> tuple[int, int, int]:
    """Wins, draws and losses of A over their duplicate boards against B (each board once)."""
    wins = draws = losses = 0
    matches = Match.objects.filter(status=Match.Status.DONE, variant=variant).filter(
        Q(version_x_id=version_a, version_y_id=version_b)
        | Q(version_x_id=version_b, version_y_id=version_a)
    )
    for version_x, results in matches.values_list("version_x_id", "board_results"):
        sign = 1 if version_x == version_a else -1
        for result in results:
            value = sign * result
            wins += value > 0
            draws += value == 0
            losses += value < 0
    return wins, draws, losses


def match_verification(*, match: Match) -> dict[str, Any]:
    """The commitment; once the match is done, the secret and every board re-derived from it.

    Each board's seed and dealer, as stored and as replayed at every table, and the cards a
    replay records (the games whose replays carry their deal) are checked against what the
    revealed secret (or the chosen seed) deals.
    """
    out: dict[str, Any] = {
        "match": match.pk,
        "status": match.status,
        "rated": match.rated,
        "seed_chosen": match.seed_chosen,
        "committed": bool(match.seed_commitment),
        "commitment": match.seed_commitment or None,
        "scheme": seeding.SCHEME,
    }
    if match.status != Match.Status.DONE:
        out["detail"] = "the secret and the boards are published when the match is done"
        return out
    game = game_for(match.variant)
    rules = game.rules_from_json(match.rules)
    played: dict[int, tuple[int, int]] = {}
    problems: list[str] = []
    for row in match_games(match=match).select_related("board"):
        hand = row.replay.document["hand"]
        for seed, dealer in ((row.board.seed, row.board.dealer), (hand["seed"], hand["dealer"])):
            if played.setdefault(row.number, (seed, dealer)) != (seed, dealer):
                problems.append(f"board {row.number}: table {row.table} was not the same deal")
        dealt = game.replay_from_state(
            game.new_state(rules, seed=hand["seed"], dealer=hand["dealer"])
        )
        if dealt.to_json()["deal"] != hand["deal"]:
            problems.append(f"board {row.number}: the cards of table {row.table} are not the deal")
    if sorted(played) != list(range(1, match.board_count + 1)):
        problems.append(f"the match has {len(played)} of its {match.board_count} boards")
    if match.seed_secret:
        secret = match.seed_secret
        problems += seeding.deal_problems(
            secret, match.seed_commitment, played, players=game.players
        )
    else:
        secret = None
        problems += _chosen_seed_problems(match, played, players=game.players)
    out.update(
        secret=secret,
        match_seed=match.seed,
        boards=[
            {"board": number, "seed": seed, "dealer": dealer}
            for number, (seed, dealer) in sorted(played.items())
        ],
        verified=not problems,
        problems=problems,
    )
    return out


def _chosen_seed_problems(
    match: Match, played: dict[int, tuple[int, int]], *, players: int
) -> list[str]:
    if match.seed is None:
        return ["the match has neither a committed secret nor a chosen seed"]
    problems = []
    for number, (seed, dealer) in sorted(played.items()):
        expected = (seeding.board_seed(match.seed, number), seeding.board_dealer(number, players))
        if (seed, dealer) != expected:
            problems.append(f"board {number}: dealt {seed}/{dealer}, the seed gives {expected}")
    return problems


def bot_version_named(
    *, version_id: int | None, bot_id: int | None, number: int | None
) -> BotVersion:
    """A version by id, by bot and number, or a bot's latest active version.

    Raises InvalidInput naming what does not exist.
    """
    versions = BotVersion.objects.select_related("bot__owner__user").defer("source")
    if version_id is not None:
        found = versions.filter(pk=version_id).first()
        if found is None:
            raise InvalidInput(f"there is no bot version {version_id}")
        return found
    if not Bot.objects.filter(pk=bot_id).exists():
        raise InvalidInput(f"there is no bot {bot_id}")
    if number is not None:
        found = versions.filter(bot_id=bot_id, number=number).first()
        if found is None:
            raise InvalidInput(f"bot {bot_id} has no version {number}")
        return found
    found = (
        versions.filter(bot_id=bot_id, status=BotVersion.Status.ACTIVE).order_by("-number").first()
    )
    if found is None:
        raise InvalidInput(f"bot {bot_id} has no active version yet")
    return found
