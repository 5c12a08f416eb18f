"""A challenge a player asks for: one of her own versions against any active version.

The API (``POST /api/matches/``) and the bot page's challenge form both call
``match_challenge`` with the fields of ``MatchCreateSerializer``, so a challenge is named,
checked and refused the same way wherever it is sent from. The quota on challenges is the
callers' (it counts per request: the player and the address), spent around this call so that
only an accepted challenge is counted.

The page's form is also sent twice by a double click (or a resubmitted form), so the page
calls ``match_challenge_once``: while an identical challenge of the person's is still queued
(the same versions, boards and rating, not yet started), the second is not created; the
person is sent to the one waiting. The API has its own guard against a repeated request,
the ``Idempotency-Key`` header, and a program may queue identical matches on purpose.
"""

from __future__ import annotations

from django.db import transaction

from arena import selectors
from arena.errors import InvalidInput
from arena.models import BotVersion, Match, Player
from arena.services.bots import challenger_version
from arena.services.matches import match_create


def match_challenge(
    *,
    by: Player,
    boards: int,
    version: int | None = None,
    bot: int | None = None,
    number: int | None = None,
    opponent: int | None = None,
    opponent_bot: int | None = None,
    opponent_number: int | None = None,
    seed: int | None = None,
    rated: bool = True,
) -> Match:
    """Queue a challenge of ``by``'s version (named by ``version``, or ``bot`` and
    ``number``, or ``bot`` alone for its latest active version) against the opponent (named
    likewise); refused with the reason when a side does not exist, is not active, or the
    challenger's side is not hers."""
    mine, theirs = _sides(version, bot, number, opponent, opponent_bot, opponent_number)
    return match_create(
        version_x=challenger_version(version=mine, by=by),
        version_y=theirs,
        boards=boards,
        requested_by=by,
        seed=seed,
        rated=rated,
    )


def match_challenge_once(
    *,
    by: Player,
    boards: int,
    version: int | None = None,
    bot: int | None = None,
    number: int | None = None,
    opponent: int | None = None,
    opponent_bot: int | None = None,
    opponent_number: int | None = None,
    seed: int | None = None,
    rated: bool = True,
) -> tuple[Match, bool]:
    """``match_challenge``, unless ``by`` has an identical challenge still queued: that one
    is returned instead, with False for "not created"."""
    with transaction.atomic():
        # Two posts of the same form at once: the second waits here until the first has
        # committed its match, and then finds it queued.
        Player.objects.select_for_update().filter(pk=by.pk).first()
        mine, theirs = _sides(version, bot, number, opponent, opponent_bot, opponent_number)
        waiting = (
            Match.objects.filter(
                kind=Match.Kind.CHALLENGE,
                status=Match.Status.QUEUED,
                requested_by=by,
                version_x=mine,
                version_y=theirs,
                board_count=boards,
                rated=rated,
                seed=seed,
            )
            .order_by("pk")
            .first()
        )
        if waiting is not None:
            return waiting, False
        match = match_challenge(
            by=by, boards=boards, version=mine.pk, opponent=theirs.pk, seed=seed, rated=rated
        )
        return match, True


def _sides(
    version: int | None,
    bot: int | None,
    number: int | None,
    opponent: int | None,
    opponent_bot: int | None,
    opponent_number: int | None,
) -> tuple[BotVersion, BotVersion]:
    """The challenger's and the opponent's versions, each named by id, or bot and number."""
    mine = _named_version(version, bot, number, field="version" if version is not None else "bot")
    theirs = _named_version(
        opponent,
        opponent_bot,
        opponent_number,
        field="opponent" if opponent is not None else "opponent_bot",
    )
    return mine, theirs


def _named_version(
    version_id: int | None, bot_id: int | None, number: int | None, *, field: str
) -> BotVersion:
    try:
        return selectors.bot_version_named(version_id=version_id, bot_id=bot_id, number=number)
    except InvalidInput as error:
        raise InvalidInput(str(error), field=field) from None
