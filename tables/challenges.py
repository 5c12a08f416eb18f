"""A human challenges a bot to a short duplicate match: writes and reads.

The human plays every board once, at one table, the challenged bot in every other seat, the
human's seat rotating over the boards (``challenge_boards.human_seat``). Once the human's table of a
board is over, the same board is played with the bot in every seat (``bot_table``): the
board result is the human side's margin at the human's table minus its margin at the
bot-only table (``challenge_boards.board_result``). The two tables differ only in who plays the
human's seat, so the luck of the cards cancels and a few boards say something.

Fair play: the human never sees a deal twice. Each board is its own deal, and the only other
table of a board is the bot-only one, played after the human's table of that board is over
and never shown to the human before then. The boards are dealt from a server secret
committed to when the challenge is created (``arena.seeding``: the same derivation as an
arena match's), so the human can check every deal once the match is over; until then the
finished tables keep their seeds sealed (``selectors.deal_sealed``), since one board's seed
would give away the match seed and so every later board.

Every challenge started counts: one not finished by ``expires`` (``PLAY_CHALLENGE_EXPIRES_S``
after it was created) is closed, its open table and its boards not yet dealt scored as the
human's forfeits (the same forfeit as leaving a table, ``services.table_expire``), and it is
rated like any other. The expiry is applied whenever the challenge is read and by the
periodic ``play.challenges_expire`` job. Results are rated in a pool of their own
(``challenge_ratings``), fitted from the boards of finished challenges only: never mixed
with the bot leaderboard's matches.

Challenges started before the bot-only table (``Challenge.Format.TWO_TABLES``: the human at
every table of a board, in another seat at each) keep their tables and results. One still in
play deals no further table, since its next table would deal a board the human has seen
from another seat: it is scored once its dealt tables are over, each table not dealt counted
as the human's forfeit.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import timedelta
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from arena.elo import Estimate, Tally, fit_ratings
from arena.seeding import board_seed, commitment, match_seed, new_secret
from bots.duplicate import summarize
from engine.registry import load_game
from tables import bot_table, challenge_boards, services
from tables.errors import BadTable, TableNotFound
from tables.models import Challenge, ChallengeTable, PlayTable
from tables.referee import HUMAN, SeatSpecError, parse_seat

logger = logging.getLogger(__name__)

HUMAN_TABLE = "A"
"""The name of the human's table of a board (the bot-only table has no row of its own)."""

COMPARISON_RESEND_S = 600
"""A bot-only table's task not answered after this long is sent again (a broker that was
down, a worker lost mid-board); a second delivery is harmless (``challenge_compare``)."""


def challenge_create(
    *, owner: User, variant: str, opponent: Mapping[str, Any], boards: int
) -> Challenge:
    """Create the match, committed to a fresh server secret, and deal its first table."""
    services.game_of(variant)
    if isinstance(boards, bool) or not isinstance(boards, int):
        raise BadTable(f"boards is a whole number, not {boards!r}")
    if not 1 <= boards <= challenge_boards.MAX_BOARDS:
        raise BadTable(f"a challenge has 1 to {challenge_boards.MAX_BOARDS} boards, not {boards}")
    try:
        bot = parse_seat(opponent, variant)
    except SeatSpecError as error:
        raise BadTable(str(error)) from None
    if not bot.is_bot:
        raise BadTable("the opponent of a challenge is a bot")
    secret = new_secret()
    with transaction.atomic():
        challenge = Challenge.objects.create(
            owner=owner,
            variant=variant,
            opponent=bot.to_json(),
            boards=boards,
            seed_commitment=commitment(secret),
            seed_secret=secret.hex(),
            expires=timezone.now() + timedelta(seconds=settings.PLAY_CHALLENGE_EXPIRES_S),
        )
        _deal(challenge, number=1)
    return challenge


def challenge_settle(*, challenge_id: int) -> Challenge:
    """Bring the challenge up to date: expire it if its time is up, play the bot-only table
    of every board whose human table is over, deal the next board once the dealt one is
    over, and score the match once every board has both its tables.

    Safe to call at any time, as often as wanted: the challenge page calls it on every view.
    """
    with transaction.atomic():
        # Locked so that two readers at once deal the next table, or score the match, once.
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        if challenge.is_over:
            return challenge
        if timezone.now() >= challenge.expires:
            _expire(challenge)
        if challenge.format == Challenge.Format.TWO_TABLES:
            _settle_two_tables(challenge)
            return challenge
        rows = challenge_tables(challenge)
        for row in rows:
            if row.play_table.is_over and row.comparison is None:
                _compare_or_send(challenge, row)
        if any(not row.play_table.is_over for row in rows):
            return challenge
        if len(rows) < challenge.boards:
            _deal(challenge, number=len(rows) + 1)
            return challenge
        if all(row.comparison is not None for row in rows):
            _finish(challenge, [row_result(challenge, row) for row in rows])
    return challenge


def row_result(challenge: Challenge, row: ChallengeTable) -> int | None:
    """A board's result once both its tables are over (None before)."""
    table = row.play_table
    if table.result is None or row.comparison is None:
        return None
    return challenge_boards.board_result(
        table.result["side_scores"],
        row.comparison["side_scores"],
        seat=table.human_seat,
        variant=challenge.variant,
    )


def challenge_compare(*, row_id: int) -> bool:
    """Play a board's bot-only table, once the human's table of it is over; then settle.

    The slow part (a searching bot, or an arena version in the sandbox) runs outside any
    lock; the result is kept only if no other delivery stored one first. True if stored.
    """
    row = ChallengeTable.objects.select_related("challenge", "play_table").get(pk=row_id)
    if row.comparison is not None or not row.play_table.is_over:
        return False
    played = _bot_table(row.challenge, row)
    stored = bool(
        ChallengeTable.objects.filter(pk=row_id, comparison__isnull=True).update(comparison=played)
    )
    challenge_settle(challenge_id=row.challenge_id)
    return stored


def challenges_expire() -> int:
    """Settle every challenge in play whose time is up or whose bot-only table is overdue
    (the periodic job); the number settled."""
    now = timezone.now()
    overdue = Q(expires__lte=now) | Q(
        tables__comparison__isnull=True,
        tables__play_table__status__in=[PlayTable.Status.FINISHED, PlayTable.Status.ABANDONED],
        format=Challenge.Format.BOT_TABLE,
    )
    due = (
        Challenge.objects.filter(status=Challenge.Status.PLAYING)
        .filter(overdue)
        .values_list("pk", flat=True)
        .distinct()
    )
    settled = 0
    for challenge_id in list(due):
        challenge_settle(challenge_id=challenge_id)
        settled += 1
    return settled


def _deal(challenge: Challenge, *, number: int) -> ChallengeTable:
    """Deal board ``number`` to the human, the bot at every other seat."""
    seed, dealer = board_deal(challenge, number)
    players = load_game(challenge.variant).players
    table = services.table_start(
        owner=challenge.owner,
        variant=challenge.variant,
        seed=seed,
        dealer=dealer,
        human_seat=challenge_boards.human_seat(number, challenge.variant),
        bots=[challenge.opponent] * (players - 1),
        return_url=reverse("tables:challenge", args=[challenge.pk]),
    )
    return ChallengeTable.objects.create(
        challenge=challenge, board=number, table=HUMAN_TABLE, order=number - 1, play_table=table
    )


def board_deal(challenge: Challenge, number: int) -> tuple[int, int]:
    """Board ``number``'s seed and dealer, from the challenge's secret (``arena.seeding``)."""
    seed = match_seed(bytes.fromhex(challenge.seed_secret))
    return board_seed(seed, number), load_game(challenge.variant).board_dealer(number)


def _forfeit(challenge: Challenge, *, number: int, name: str, human_seat: int, order: int) -> None:
    """A table the human never got to: recorded as the human's forfeit."""
    seed, dealer = board_deal(challenge, number)
    seats: list[Mapping[str, Any] | str] = [
        challenge.opponent for _ in range(load_game(challenge.variant).players)
    ]
    seats[human_seat] = HUMAN
    table = services.table_forfeited(
        owner=challenge.owner,
        variant=challenge.variant,
        seed=seed,
        dealer=dealer,
        human_seat=human_seat,
        seats=seats,
        return_url=reverse("tables:challenge", args=[challenge.pk]),
    )
    ChallengeTable.objects.create(
        challenge=challenge, board=number, table=name, order=order, play_table=table
    )


def _expire(challenge: Challenge) -> None:
    """The challenge's time is up: its open table and every table not dealt are forfeits."""
    rows = challenge_tables(challenge)
    for row in rows:
        if not row.play_table.is_over:
            services.table_expire(table_id=row.play_table_id)
    if challenge.format == Challenge.Format.TWO_TABLES:
        _forfeit_two_tables(challenge, rows)
        return
    for number in range(len(rows) + 1, challenge.boards + 1):
        seat = challenge_boards.human_seat(number, challenge.variant)
        _forfeit(challenge, number=number, name=HUMAN_TABLE, human_seat=seat, order=number - 1)


def _compare_or_send(challenge: Challenge, row: ChallengeTable) -> None:
    """Play the board's bot-only table here if it is cheap, else send its task."""
    bot = parse_seat(challenge.opponent, challenge.variant)
    if bot_table.played_inline(bot):
        row.comparison = _bot_table(challenge, row)
        row.save(update_fields=["comparison"])
        return
    now = timezone.now()
    if row.comparison_sent is not None and (now - row.comparison_sent).total_seconds() < (
        COMPARISON_RESEND_S
    ):
        return
    row.comparison_sent = now
    row.save(update_fields=["comparison_sent"])
    row_id = row.pk
    transaction.on_commit(lambda: _send_compare(row_id))


def _send_compare(row_id: int) -> None:
    from tables.tasks import challenge_par_task

    try:
        challenge_par_task.delay(row_id)
    except KombuOperationalError as error:
        # The periodic job sends it again (challenges_expire, after COMPARISON_RESEND_S).
        logger.warning("challenge table %s: the broker is unreachable: %s", row_id, error)


def _bot_table(challenge: Challenge, row: ChallengeTable) -> dict[str, Any]:
    table = row.play_table
    return bot_table.play(
        variant=challenge.variant,
        rules=table.rules,
        seed=table.seed,
        dealer=table.dealer,
        bot=parse_seat(challenge.opponent, challenge.variant),
    )


def _finish(challenge: Challenge, results: list[int | None]) -> None:
    assert all(result is not None for result in results)
    scored = [int(result) for result in results if result is not None]
    challenge.board_results = scored
    challenge.summary = summarize(scored).to_json()
    challenge.status = Challenge.Status.FINISHED
    challenge.finished = timezone.now()
    challenge.save()
    # The match is over: its deals and replays may now be seen by anyone.
    PlayTable.objects.filter(challenge_table__challenge=challenge).update(
        public_after=challenge.finished
    )


def _settle_two_tables(challenge: Challenge) -> None:
    """A challenge of the earlier format: no table is dealt any more (see the module)."""
    rows = challenge_tables(challenge)
    if any(not row.play_table.is_over for row in rows):
        return
    _forfeit_two_tables(challenge, rows)
    by_board: dict[int, dict[str, list[int]]] = {}
    for row in challenge_tables(challenge):
        assert row.play_table.result is not None
        by_board.setdefault(row.board, {})[row.table] = row.play_table.result["side_scores"]
    _finish(
        challenge,
        [
            challenge_boards.two_table_result(by_board[number], challenge.variant)
            for number in sorted(by_board)
        ],
    )


def _forfeit_two_tables(challenge: Challenge, rows: list[ChallengeTable]) -> None:
    dealt = {(row.board, row.table) for row in rows}
    order = len(rows)
    for name in challenge_boards.two_tables(challenge.variant):
        for number in range(1, challenge.boards + 1):
            if (number, name) not in dealt:
                seat = challenge_boards.two_table_seat(name, challenge.variant)
                _forfeit(challenge, number=number, name=name, human_seat=seat, order=order)
                order += 1


def challenge_for(*, challenge_id: int, viewer: AbstractBaseUser | AnonymousUser) -> Challenge:
    """The owner sees a challenge at any time; others once it is over."""
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    owner = challenge is not None and viewer.is_authenticated and viewer.pk == challenge.owner_id
    if challenge is None or not (owner or challenge.status == Challenge.Status.FINISHED):
        raise TableNotFound(f"there is no challenge {challenge_id} you may see")
    return challenge


def challenge_tables(challenge: Challenge) -> list[ChallengeTable]:
    return list(challenge.tables.select_related("play_table"))


def tables_total(challenge: Challenge) -> int:
    """The human's tables in the whole match: one a board (every table of a board in the
    earlier format)."""
    if challenge.format == Challenge.Format.TWO_TABLES:
        return challenge.boards * len(challenge_boards.two_tables(challenge.variant))
    return challenge.boards


def board_rows(challenge: Challenge) -> list[dict[str, Any]]:
    """Every board of a bot-table challenge as its page and API show it, dealt or not:
    the human's seat and table, the bot-only table's score per side once played (never its
    moves, which show every hand) and the board's result once both tables are over."""
    game = load_game(challenge.variant)
    dealt = {row.board: row for row in challenge_tables(challenge)}
    shown = []
    for number in range(1, challenge.boards + 1):
        row = dealt.get(number)
        table = None if row is None else row.play_table
        comparison = None if row is None else row.comparison
        fault = None if table is None or table.result is None else table.result.get("fault")
        sides = challenge_boards.lineup(
            challenge_boards.human_seat(number, challenge.variant), challenge.variant
        )
        shown.append(
            {
                "board": number,
                "human_seat": challenge_boards.human_seat(number, challenge.variant),
                "dealer": game.board_dealer(number),
                "play_table": table,
                "status": "not dealt" if table is None else table.status,
                "side_scores": None
                if table is None or table.result is None
                else table.result["side_scores"],
                "fault": None if fault is None else fault["kind"],
                "margin": None
                if table is None or table.result is None
                else _shown(
                    challenge_boards.margin(table.result["side_scores"], sides, challenge.variant)
                ),
                "comparison": None
                if comparison is None
                else {
                    "side_scores": comparison["side_scores"],
                    "margin": _shown(
                        challenge_boards.margin(comparison["side_scores"], sides, challenge.variant)
                    ),
                    "fault": None
                    if comparison.get("fault") is None
                    else {
                        "seat": comparison["fault"]["seat"],
                        "kind": comparison["fault"]["kind"],
                    },
                },
                "result": None if row is None else row_result(challenge, row),
            }
        )
    return shown


def _shown(value: Fraction) -> int | float:
    """A margin as a page shows it: whole when it is, else to a tenth."""
    return int(value) if value.denominator == 1 else round(float(value), 1)


def next_table(challenge: Challenge) -> PlayTable | None:
    """The first table, in playing order, whose hand is not over."""
    for row in challenge_tables(challenge):
        if not row.play_table.is_over:
            return row.play_table
    return None


def challenges_of(*, viewer: AbstractBaseUser | AnonymousUser) -> QuerySet[Challenge]:
    if not viewer.is_authenticated:
        return Challenge.objects.none()
    return Challenge.objects.filter(owner_id=viewer.pk)


def opponent_key(opponent: Mapping[str, Any]) -> str:
    if opponent.get("kind") == "arena":
        return f"arena bot version {opponent.get('version')}"
    return f"{opponent.get('name')} (reference bot)"


def challenge_ratings(*, variant: str) -> list[dict[str, Any]]:
    """The human-vs-bot pool of a variant: humans and bots fitted from challenge boards only.

    The same board-by-board fit as the bot leaderboard (``arena.elo.fit_ratings``),
    over a pool that holds nothing else: a bot's rating here says nothing of its arena one.
    Every started challenge enters it once finished, an expired one with its forfeits.
    """
    tallies: dict[tuple[str, str], Tally] = {}
    finished = Challenge.objects.filter(variant=variant, status=Challenge.Status.FINISHED)
    for challenge in finished.select_related("owner"):
        key = (f"human {challenge.owner.get_username()}", opponent_key(challenge.opponent))
        tallies[key] = tallies.get(key, Tally()) + Tally.of(challenge.board_results)
    if not tallies:
        return []
    fit = fit_ratings(tallies)
    boards: dict[str, int] = {}
    for (human, bot), tally in tallies.items():
        boards[human] = boards.get(human, 0) + tally.boards
        boards[bot] = boards.get(bot, 0) + tally.boards
    rows = [_rating_row(name, estimate, boards[name]) for name, estimate in fit.ratings.items()]
    return sorted(rows, key=lambda row: (-row["rating"], row["name"]))


def _rating_row(name: str, estimate: Estimate, boards: int) -> dict[str, Any]:
    return {
        "name": name,
        "rating": round(estimate.rating, 1),
        "low": round(estimate.low, 1),
        "high": round(estimate.high, 1),
        "boards": boards,
    }
