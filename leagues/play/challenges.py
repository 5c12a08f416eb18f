"""A human challenges a bot to a short duplicate match: writes and reads.

The boards are dealt from a server secret committed to when the challenge is created
(``arena.seeding``: the same derivation as an arena match's), so the human can check every
deal once the match is over. Every table is an ordinary ``PlayTable`` whose "Continue"
leads back to the challenge. The human plays table A of every board before any table B
(``scoring.plan``), and a table is dealt only once every earlier one is over: at table B
the human holds the cards the bot held at table A, so the two must never be open at once.

Results are rated in a pool of their own (``challenge_ratings``), fitted from the boards of
finished challenges only: never mixed with the bot leaderboard's matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from arena.newcomers import rated_play_refusal
from arena.ratings import Estimate, Tally, fit_ratings
from arena.seeding import board_dealer, board_seed, commitment, match_seed, new_secret
from bots.duplicate import summarize
from bots.games import game_for
from leagues.play import scoring, services
from leagues.play.errors import AccountTooNew, BadTable, TableNotFound
from leagues.play.models import Challenge, ChallengeTable, PlayTable
from leagues.play.referee import SeatSpecError, parse_seat


def challenge_create(
    *, owner: User, variant: str, opponent: Mapping[str, Any], boards: int
) -> Challenge:
    """Create the match, committed to a fresh server secret, and deal its first table."""
    refusal = rated_play_refusal(owner)
    if refusal is not None:
        raise AccountTooNew(refusal)
    services.game_of(variant)
    if isinstance(boards, bool) or not isinstance(boards, int):
        raise BadTable(f"boards is a whole number, not {boards!r}")
    if not 1 <= boards <= scoring.MAX_BOARDS:
        raise BadTable(f"a challenge has 1 to {scoring.MAX_BOARDS} boards, not {boards}")
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
        )
        _deal_next(challenge, order=0)
    return challenge


def challenge_settle(*, challenge_id: int) -> Challenge:
    """Deal the next table once every dealt one is over; score the challenge after the last.

    Safe to call at any time, as often as wanted: the challenge page calls it on every view.
    """
    with transaction.atomic():
        # Locked so that two readers at once deal the next table, or score the match, once.
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        if challenge.status == Challenge.Status.FINISHED:
            return challenge
        rows = list(challenge.tables.select_related("play_table"))
        if any(not row.play_table.is_over for row in rows):
            return challenge
        if len(rows) < len(scoring.plan(challenge.variant, challenge.boards)):
            _deal_next(challenge, order=len(rows))
            return challenge
        by_board: dict[int, dict[str, list[int]]] = {}
        for row in rows:
            assert row.play_table.result is not None
            by_board.setdefault(row.board, {})[row.table] = row.play_table.result["side_scores"]
        results = [
            scoring.board_result(by_board[number], challenge.variant) for number in sorted(by_board)
        ]
        challenge.board_results = results
        challenge.summary = summarize(results).to_json()
        challenge.status = Challenge.Status.FINISHED
        challenge.finished = timezone.now()
        challenge.save()
        # The match is over: its deals and replays may now be seen by anyone.
        PlayTable.objects.filter(challenge_table__challenge=challenge).update(
            public_after=challenge.finished
        )
    return challenge


def _deal_next(challenge: Challenge, *, order: int) -> ChallengeTable:
    """Deal the challenge's table number ``order`` (in playing order) and seat its bots."""
    game = game_for(challenge.variant)
    number, name = scoring.plan(challenge.variant, challenge.boards)[order]
    seed = match_seed(bytes.fromhex(challenge.seed_secret))
    table = services.table_start(
        owner=challenge.owner,
        variant=challenge.variant,
        seed=board_seed(seed, number),
        dealer=board_dealer(number, game.players),
        human_seat=scoring.human_seat_at(name, challenge.variant),
        bots=[challenge.opponent] * (game.players - 1),
        return_url=reverse("play-challenge", args=[challenge.pk]),
    )
    return ChallengeTable.objects.create(
        challenge=challenge, board=number, table=name, order=order, play_table=table
    )


def challenge_for(*, challenge_id: int, viewer: AbstractBaseUser | AnonymousUser) -> Challenge:
    """The owner sees a challenge at any time; others once it is over."""
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    owner = challenge is not None and viewer.is_authenticated and viewer.pk == challenge.owner_id
    if challenge is None or not (owner or challenge.status == Challenge.Status.FINISHED):
        raise TableNotFound(f"there is no challenge {challenge_id} you may see")
    return challenge


def challenge_tables(challenge: Challenge) -> list[ChallengeTable]:
    return list(challenge.tables.select_related("play_table"))


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

    The same board-by-board fit as the bot leaderboard (``arena.ratings.fit_ratings``),
    over a pool that holds nothing else: a bot's rating here says nothing of its arena one.
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
