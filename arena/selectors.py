"""Reads used by the API and by other services."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, F, Max, Q, QuerySet, Sum
from rest_framework.authtoken.models import Token

from arena import seeding
from arena.elo import ModelCheck, SprtPath, Tally, fit_ratings, sprt_path
from arena.errors import InvalidInput, NotAllowed
from arena.http.caching import LEADERBOARD_TTL, cached, rating_check_key
from arena.models import Bot, BotVersion, Game, Match, Player, Rating, RatingChange
from arena.variants import variant_names
from engine.interface import AnyGame
from engine.registry import load_game


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").annotate(bot_count=Count("bots")).order_by("id")


def bot_list() -> QuerySet[Bot]:
    return (
        Bot.objects.select_related("owner__user")
        .annotate(version_count=Count("versions"), latest_version=Max("versions__number"))
        .order_by("id")
    )


def bot_get(*, bot_id: int) -> Bot | None:
    return Bot.objects.select_related("owner__user").filter(pk=bot_id).first()


def is_bot_owner(*, bot: Bot, viewer: Player | None) -> bool:
    """Whether ``viewer`` owns ``bot``: only the owner sees build logs, refusal reasons,
    stderr and the uploaded source."""
    return viewer is not None and bot.owner_id == viewer.pk


def bot_version_source(*, version: BotVersion, viewer: Player) -> BotVersion:
    """A version whose uploaded file ``viewer`` may download: their own bot's only."""
    if not is_bot_owner(bot=version.bot, viewer=viewer):
        raise NotAllowed("only the bot's owner can read its source")
    return version


def match_own_stderr(*, match: Match, viewer: Player | None) -> dict[str, dict[str, str]]:
    """The stderr of the seats ``viewer``'s versions sat in; nobody else's."""
    seatings = load_game(match.variant).seatings
    versions = (match.version_x, match.version_y)
    own = {i for i, v in enumerate(versions) if is_bot_owner(bot=v.bot, viewer=viewer)}
    shown: dict[str, dict[str, str]] = {}
    for table, seats in (match.stderr or {}).items():
        for seat, text in seats.items():
            if seatings[table][int(seat)] in own:
                shown.setdefault(table, {})[seat] = text
    return shown


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


def leaderboard(*, variant: str | None, disabled: bool = True) -> QuerySet[Rating]:
    """Ratings, best first; ``disabled=False`` leaves out the versions disabled for faults."""
    ratings = Rating.objects.select_related("version__bot__owner__user").order_by("-elo", "id")
    if variant:
        ratings = ratings.filter(variant=variant)
    if not disabled:
        ratings = ratings.exclude(version__status=BotVersion.Status.DISABLED)
    return ratings


def rated_tallies(*, variant: str) -> dict[tuple[int, int], Tally]:
    """The variant's rated boards, pair by pair, from the X side of each match's history."""
    rows = (
        RatingChange.objects.filter(
            rating__variant=variant, rating__version_id=F("match__version_x_id")
        )
        .values("match__version_x_id", "match__version_y_id")
        .annotate(wins=Sum("wins"), draws=Sum("draws"), losses=Sum("losses"))
    )
    tallies: dict[tuple[int, int], Tally] = {}
    for row in rows:
        key = (row["match__version_x_id"], row["match__version_y_id"])
        tallies[key] = Tally(row["wins"], row["draws"], row["losses"])
    return tallies


@dataclass(frozen=True)
class RatingCheck:
    """Whether a variant's ratings describe its boards, with the versions it names."""

    check: ModelCheck[int]
    versions: dict[int, BotVersion]


def rating_check(*, variant: str) -> RatingCheck | None:
    """The model check of the variant's ratings (None before its first rated board): the
    same fit the ratings are stored from, refitted on the stored tallies."""
    check = cached(
        rating_check_key(variant=variant), lambda: _fitted_check(variant), LEADERBOARD_TTL
    )
    if check is None:
        return None
    named = {version for item in check.disagreements for version in (item.first, item.second)}
    versions = (
        BotVersion.objects.select_related("bot__owner__user")
        .defer("source", "build_log", "status_reason")
        .in_bulk(named)
    )
    return RatingCheck(check, versions)


def _fitted_check(variant: str) -> ModelCheck[int] | None:
    tallies = rated_tallies(variant=variant)
    return fit_ratings(tallies).check if tallies else None


def rating_history(*, version: BotVersion) -> QuerySet[RatingChange]:
    return (
        RatingChange.objects.filter(rating__version=version)
        .select_related("rating", "match")
        .order_by("match__completion_seq")
    )


def head_to_head(*, version_a: int, version_b: int, variant: str) -> list[int]:
    """A's board results against B, seen from A, in the order they were played: every
    finished match between the two, whether rated or not, each board once."""
    matches = (
        Match.objects.filter(status=Match.Status.DONE, variant=variant)
        .filter(
            Q(version_x_id=version_a, version_y_id=version_b)
            | Q(version_x_id=version_b, version_y_id=version_a)
        )
        .order_by("completion_seq", "id")
    )
    results: list[int] = []
    for version_x, boards in matches.values_list("version_x_id", "board_results"):
        sign = 1 if version_x == version_a else -1
        results.extend(sign * result for result in boards)
    return results


def match_rating_changes(*, match: Match) -> QuerySet[RatingChange]:
    """The rating changes a match caused (one per side once it is rated)."""
    return RatingChange.objects.filter(match=match).select_related("rating__version__bot")


@dataclass(frozen=True)
class SprtReport:
    a: BotVersion
    b: BotVersion
    variant: str
    path: SprtPath


def sprt_between(
    *, a: BotVersion, b: BotVersion, elo0: float, elo1: float, alpha: float, beta: float
) -> SprtReport:
    """The SPRT of A against B over their boards so far, with its LLR path."""
    variant = a.bot.variant
    boards = head_to_head(version_a=a.pk, version_b=b.pk, variant=variant)
    path = sprt_path(boards, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    return SprtReport(a, b, variant, path)


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
    game = load_game(match.variant)
    rules = game.rules_from_json(match.rules)
    played: dict[int, tuple[int, int]] = {}
    problems: list[str] = []
    for row in match_games(match=match).select_related("board"):
        hand = row.replay.document["hand"]
        for seed, dealer in ((row.board.seed, row.board.dealer), (hand["seed"], hand["dealer"])):
            if played.setdefault(row.number, (seed, dealer)) != (seed, dealer):
                problems.append(f"board {row.number}: table {row.table} was not the same deal")
        dealt = game.with_rules(rules).new_initial_state(seed=hand["seed"], dealer=hand["dealer"])
        recorded = game.read_replay(hand).initial_state()
        if game.initial_deal(dealt) != game.initial_deal(recorded):
            problems.append(f"board {row.number}: the cards of table {row.table} are not the deal")
    if sorted(played) != list(range(1, match.board_count + 1)):
        problems.append(f"the match has {len(played)} of its {match.board_count} boards")
    if match.seed_secret:
        secret = match.seed_secret
        problems += seeding.deal_problems(secret, match.seed_commitment, played, game=game)
    else:
        secret = None
        problems += _chosen_seed_problems(match, played, game=game)
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
    match: Match, played: dict[int, tuple[int, int]], *, game: AnyGame
) -> list[str]:
    if match.seed is None:
        return ["the match has neither a committed secret nor a chosen seed"]
    problems = []
    for number, (seed, dealer) in sorted(played.items()):
        expected = (seeding.board_seed(match.seed, number), game.board_dealer(number))
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
    if bot_id is None or not Bot.objects.filter(pk=bot_id).exists():
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


# --- Reads for the web pages: one call per page, returning everything that page shows. ---

PAGE_SIZE = 50
RECENT_MATCHES = 20

LEADERBOARD_SORTS: dict[str, tuple[Any, ...]] = {
    "rating": ("-elo", "id"),
    "matches": ("-matches", "-elo", "id"),
    "boards": ("-boards", "-elo", "id"),
    "last_played": (F("last_match").desc(nulls_last=True), "-elo", "id"),
}
"""The leaderboard page's orders (``?sort=``); ties fall back to the rating."""

# What no page reads of a match's two versions: their uploaded source and their build logs.
_LABEL_DEFERRED = (
    "version_x__source",
    "version_y__source",
    "version_x__build_log",
    "version_y__build_log",
)


@dataclass(frozen=True)
class LeaderboardPage:
    variant: str
    sort: str
    page: Page[Rating]


def leaderboard_page(*, variant: str, sort: str, page_number: int) -> LeaderboardPage:
    """One page of a variant's leaderboard in the order ``sort`` (a LEADERBOARD_SORTS key).

    Raises ``EmptyPage`` for a page past the end."""
    ids = Rating.objects.filter(variant=variant).order_by(*LEADERBOARD_SORTS[sort])
    rows = Rating.objects.select_related("version__bot__owner__user").defer(
        "version__source", "version__build_log", "version__status_reason"
    )
    return LeaderboardPage(variant=variant, sort=sort, page=_page_of(ids, rows, page_number))


def _page_of(ids: QuerySet[Any], rows: QuerySet[Any], page_number: int) -> Page[Any]:
    """Page ``ids`` (the filtered, ordered rows, joined to nothing), then read that page's
    rows in full from ``rows``: the database orders and skips narrow rows of one table,
    and joins only the page's. Raises ``EmptyPage`` for a page past the end."""
    page = Paginator(ids.values_list("pk", flat=True), PAGE_SIZE).page(page_number)
    keys = list(page.object_list)
    found = rows.in_bulk(keys)
    page.object_list = [found[key] for key in keys]
    return page


@dataclass(frozen=True)
class VersionOnPage:
    """A version as its bot's page shows it; the owner-only fields are None for others."""

    version: BotVersion
    rating: Rating | None
    history: list[RatingChange]
    status_reason: str | None
    build_log: str | None


@dataclass(frozen=True)
class StderrOnPage:
    match_id: int
    table: str
    seat: int
    version_number: int
    text: str


@dataclass(frozen=True)
class BotPage:
    bot: Bot
    is_owner: bool
    versions: list[VersionOnPage]
    recent_matches: list[Match]
    faults_by_kind: dict[str, int]
    stderr: list[StderrOnPage]
    """The stderr the bot's seats wrote in its recent matches (owner only, else empty)."""


def bot_page(*, bot_id: int, viewer_id: int | None) -> BotPage:
    """Everything the page of bot ``bot_id`` shows to the user ``viewer_id`` (None: anonymous).

    Raises ``Bot.DoesNotExist``. Build logs, the reasons a version was refused or disabled,
    and stderr are read for the bot's owner only, so no other reader's page can hold them.
    """
    bot = Bot.objects.select_related("owner__user").get(pk=bot_id)
    is_owner = viewer_id is not None and bot.owner.user_id == viewer_id
    hidden = () if is_owner else ("build_log", "status_reason")
    versions = list(bot.versions.defer("source", *hidden).order_by("number"))
    ids = [version.pk for version in versions]
    ratings = {
        rating.version_id: rating
        for rating in Rating.objects.filter(version_id__in=ids, variant=bot.variant)
    }
    history: dict[int, list[RatingChange]] = {}
    for change in (
        RatingChange.objects.filter(rating__version_id__in=ids, rating__variant=bot.variant)
        .select_related("rating")
        .order_by("match__completion_seq")
    ):
        history.setdefault(change.rating.version_id, []).append(change)
    matches = Match.objects.filter(Q(version_x_id__in=ids) | Q(version_y_id__in=ids))
    recent = list(
        matches.select_related("version_x__bot__owner__user", "version_y__bot__owner__user")
        .defer(*_LABEL_DEFERRED, *(() if is_owner else ("stderr",)))
        .order_by("-id")[:RECENT_MATCHES]
    )
    return BotPage(
        bot=bot,
        is_owner=is_owner,
        versions=[
            VersionOnPage(
                version=version,
                rating=ratings.get(version.pk),
                history=history.get(version.pk, []),
                status_reason=version.status_reason if is_owner else None,
                build_log=version.build_log if is_owner else None,
            )
            for version in versions
        ],
        recent_matches=recent,
        faults_by_kind=_faults_by_kind(matches, set(ids)),
        stderr=_bot_stderr(recent, bot) if is_owner else [],
    )


def challenger_versions(*, user_id: int, variant: str) -> list[BotVersion]:
    """The active versions the user ``user_id`` may challenge with in ``variant``: those of
    her own bots that play it, by bot name and newest first (one query)."""
    return list(
        BotVersion.objects.filter(
            bot__owner__user_id=user_id, bot__variant=variant, status=BotVersion.Status.ACTIVE
        )
        .select_related("bot")
        .only("id", "number", "status", "bot__id", "bot__name", "bot__variant")
        .order_by("bot__name", "-number")
    )


def _faults_by_kind(matches: QuerySet[Match], version_ids: set[int]) -> dict[str, int]:
    """Faults of the bot's seats, by kind (a game's fault names the faulting seat)."""
    counts: dict[str, int] = {}
    games = Game.objects.filter(match__in=matches.values("id"), fault__isnull=False)
    for fault, seat_versions in games.values_list("fault", "seat_versions"):
        if fault is not None and seat_versions[fault["seat"]] in version_ids:
            counts[fault["kind"]] = counts.get(fault["kind"], 0) + 1
    return dict(sorted(counts.items()))


def _bot_stderr(matches: list[Match], bot: Bot) -> list[StderrOnPage]:
    shown = []
    for match in matches:
        seatings = load_game(match.variant).seatings
        sides = (match.version_x, match.version_y)
        for table, seats in sorted((match.stderr or {}).items()):
            for seat, text in sorted(seats.items()):
                version = sides[seatings[table][int(seat)]]
                if version.bot_id == bot.pk and text:
                    shown.append(StderrOnPage(match.pk, table, int(seat), version.number, text))
    return shown


@dataclass(frozen=True)
class TableOnPage:
    table: str
    team_scores: list[int]
    x_minus_y: float
    """X's mean seat score minus Y's at this table (bots.duplicate.table_result)."""
    fault: dict[str, Any] | None


@dataclass(frozen=True)
class BoardOnPage:
    number: int
    tables: list[TableOnPage]
    result_x: int | None


@dataclass(frozen=True)
class MatchPage:
    match: Match
    boards: list[BoardOnPage]
    seatings: dict[str, tuple[int, ...]]
    rating_changes: list[RatingChange]
    """The two sides' ratings before and after the match entered the fit, X's first."""


def match_status(*, match_id: int) -> str | None:
    """A match's status; None if there is no such match."""
    status: str | None = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    return status


def newest_match() -> tuple[int | None, int | None]:
    """The newest match's id and the newest completion's number (two index lookups)."""
    newest = Match.objects.aggregate(id=Max("id"), seq=Max("completion_seq"))
    return newest["id"], newest["seq"]


def match_page(*, match_id: int) -> MatchPage:
    """A match with each board's tables: scores, X's margin at each table, faults.

    Raises ``Match.DoesNotExist``."""
    match = (
        Match.objects.select_related(
            "version_x__bot__owner__user", "version_y__bot__owner__user", "requested_by__user"
        )
        .defer(*_LABEL_DEFERRED, "stderr")
        .get(pk=match_id)
    )
    game = load_game(match.variant)
    seatings = game.seatings
    boards: dict[int, list[TableOnPage]] = {}
    for number, table, team_scores, fault in (
        Game.objects.filter(match=match)
        .order_by("number", "table")
        .values_list("number", "table", "team_scores", "fault")
    ):
        seating = seatings[table]
        scores = [team_scores[game.side_of(seat)] for seat in range(game.players)]
        x = [scores[seat] for seat in range(game.players) if seating[seat] == 0]
        y = [scores[seat] for seat in range(game.players) if seating[seat] == 1]
        boards.setdefault(number, []).append(
            TableOnPage(table, team_scores, sum(x) / len(x) - sum(y) / len(y), fault)
        )
    results = match.board_results or []
    return MatchPage(
        match=match,
        boards=[
            BoardOnPage(
                number=number,
                tables=tables,
                result_x=results[number - 1] if number <= len(results) else None,
            )
            for number, tables in sorted(boards.items())
        ],
        seatings=seatings,
        rating_changes=sorted(
            RatingChange.objects.filter(match=match).select_related("rating"),
            key=lambda change: change.rating.version_id != match.version_x_id,
        ),
    )


def match_list_page(
    *, variant: str | None, bot_id: int | None, status: str | None, page_number: int
) -> Page[Match]:
    """One page of matches, newest first, filtered by variant, bot (either side) and status.

    Raises ``EmptyPage`` for a page past the end."""
    matches = Match.objects.all()
    if variant:
        matches = matches.filter(variant=variant)
    if status:
        matches = matches.filter(status=status)
    if bot_id is not None:
        # The bot's version ids as values, so that the planner finds each side through its
        # foreign key's index rather than scanning every match newest first.
        versions = list(BotVersion.objects.filter(bot_id=bot_id).values_list("id", flat=True))
        matches = matches.filter(Q(version_x_id__in=versions) | Q(version_y_id__in=versions))
    rows = Match.objects.select_related(
        "version_x__bot__owner__user", "version_y__bot__owner__user"
    ).defer(*_LABEL_DEFERRED, "stderr", "board_results", "rules")
    return _page_of(matches.order_by("-id"), rows, page_number)


def leaderboard_tops(*, per_variant: int) -> dict[str, list[Rating]]:
    """The best ``per_variant`` ratings of every variant that has any, in one query."""
    # One short walk down the (variant, -elo) index per variant, in one query; only the
    # winners are then joined to their bots.
    heads = [
        Rating.objects.filter(variant=variant)
        .order_by("-elo", "id")
        .values_list("pk", flat=True)[:per_variant]
        for variant in variant_names()
    ]
    if connection.features.supports_slicing_ordering_in_compound:
        ranked = list(heads[0].union(*heads[1:], all=True))
    else:  # SQLite (the embedded mode) cannot limit the parts of a UNION: one query each
        ranked = [key for head in heads for key in head]
    found = (
        Rating.objects.select_related("version__bot__owner__user")
        .defer("version__source", "version__build_log", "version__status_reason")
        .in_bulk(ranked)
    )
    tops: dict[str, list[Rating]] = {}
    for rating in sorted(found.values(), key=lambda rating: (-rating.elo, rating.pk)):
        tops.setdefault(rating.variant, []).append(rating)
    return {variant: tops[variant] for variant in variant_names() if variant in tops}


def recent_matches(*, count: int) -> list[Match]:
    return list(
        Match.objects.select_related("version_x__bot__owner__user", "version_y__bot__owner__user")
        .defer(*_LABEL_DEFERRED, "stderr", "board_results", "rules")
        .order_by("-id")[:count]
    )


@dataclass(frozen=True)
class ArenaCounts:
    players: int
    bots: int
    active_versions: int
    matches_done: int


def arena_counts() -> ArenaCounts:
    return ArenaCounts(
        players=Player.objects.count(),
        bots=Bot.objects.count(),
        active_versions=BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).count(),
        # Every match that ends done takes the next completion number, once (services.
        # matches), so the highest number counts them through its unique index.
        matches_done=Match.objects.aggregate(done=Max("completion_seq"))["done"] or 0,
    )


@dataclass(frozen=True)
class PlayerBots:
    player: Player
    bots: list[Bot]
    token: str | None
    """The player's API token: read only when the reader is the player herself."""


def player_bots(*, username: str, viewer_id: int | None) -> PlayerBots:
    """A player, her bots (with their version counts) and, for herself only, her API token.

    Raises ``Player.DoesNotExist``."""
    player = Player.objects.select_related("user").get(user__username=username)
    token = None
    if viewer_id is not None and viewer_id == player.user_id:
        token = Token.objects.filter(user_id=player.user_id).values_list("key", flat=True).first()
    bots: list[Bot] = list(
        bot_list()
        .filter(owner=player)
        .annotate(
            active_versions=Count("versions", filter=Q(versions__status=BotVersion.Status.ACTIVE))
        )
    )
    return PlayerBots(player=player, bots=bots, token=token)
