"""Every write to a human's table: start it, act at it, let arena bots move, abandon or close it.

The engine referees every action (``tables.referee``). A human's action names the
ply it answers and is applied under the table's row lock, so two submits of the same move
(a double click, a second tab) cannot both land: the second finds the ply moved on and is
refused with nothing changed. Reference bots answer inside the same transaction (a few
milliseconds of bounded work each); an arena bot's decision runs in a sandboxed process
from a Celery task, outside any lock, and is applied only if the table is still at the ply
it answered.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from arena.models import BotVersion
from arena.sandbox import BotFault
from arena.seeding import seed_commitment
from bots.table import SeatFault
from engine.errors import EngineError, IllegalActionError
from engine.interface import AnyGame
from engine.registry import load_game, variant_names
from tables import referee
from tables.errors import (
    BadTable,
    IllegalAction,
    NotYourTurn,
    StalePly,
    TableNotFound,
    TooManyTables,
)
from tables.models import PlayTable
from tables.pending import advance_mark_done, advance_mark_sent
from tables.referee import ARENA, Hand, Seat, SeatSpecError

logger = logging.getLogger(__name__)

MAX_SEED = 2**63 - 1
ARENA_TURNS_PER_TASK = 64
"""More arena-bot turns than any hand has in a row: a task never loops forever."""

Reader = User | AbstractBaseUser | AnonymousUser
"""Whoever makes a request: a table answers its owner and refuses anyone else."""


@dataclass(frozen=True)
class TableUpdate:
    """What one accepted action led to: the moves since it, as the human heard them."""

    table: PlayTable
    moves: list[dict[str, Any]] = field(default_factory=list)
    """``{"ply", "seat", "action"}`` for the human's action and every bot move after it."""


def hand_of(table: PlayTable) -> Hand:
    """The table's hand, rebuilt by the engine from its seed and its log."""
    return referee.rebuild(
        table.variant,
        rules=table.rules,
        seed=table.seed,
        dealer=table.dealer,
        actions=table.actions,
    )


def game_of(variant: str) -> AnyGame:
    """The variant's game if the engine knows the variant now; BadTable names the known ones."""
    known = variant_names()
    if variant not in known:
        raise BadTable(f"unknown variant {variant!r} (known: {', '.join(known)})")
    return load_game(variant)


def seats_of(table: PlayTable) -> list[Seat]:
    return referee.parse_seats(table.seats, table.variant)


def table_start(
    *,
    owner: User,
    variant: str,
    seed: int,
    dealer: int,
    human_seat: int,
    bots: Sequence[Mapping[str, Any]],
    return_url: str = "",
    public_after: datetime | None = None,
    rules: Mapping[str, Any] | None = None,
    casual: bool = False,
    plays_until: datetime | None = None,
) -> PlayTable:
    """Seat the human and the bots (``bots``: one spec per other seat, in seat order), deal,
    and let the bots move up to the human's first turn.

    ``casual``: the owner starts the table on their own (the play page, the API), not a
    challenge or an event; refused with TooManyTables (409) while the owner has
    ``PLAY_OPEN_TABLES_MAX`` casual tables open. From ``plays_until`` on (if given) the
    table refuses every action; the app that set it then ends the hand (``table_close``)."""
    game = game_of(variant)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BadTable(f"seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
    for name, value in (("dealer", dealer), ("human_seat", human_seat)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < game.players:
            raise BadTable(f"{name} is a seat from 0 to {game.players - 1}, not {value!r}")
    if len(bots) != game.players - 1:
        raise BadTable(
            f"{variant} needs {game.players - 1} bots, one per other seat, not {len(bots)}"
        )
    raw_seats: list[object] = list(bots)
    raw_seats.insert(human_seat, referee.HUMAN)
    try:
        seats = referee.parse_seats(raw_seats, variant)
        rules_json = referee.rules_of(variant, rules).to_json()
    except (SeatSpecError, EngineError) as error:
        raise BadTable(str(error)) from None
    _check_arena_versions(seats, variant)
    with transaction.atomic():
        if casual:
            _check_room_for_a_casual_table(owner)
        table = PlayTable.objects.create(
            owner=owner,
            variant=variant,
            rules=rules_json,
            seed=seed,
            dealer=dealer,
            human_seat=human_seat,
            seats=[seat.to_json() for seat in seats],
            return_url=return_url,
            public_after=public_after,
            casual=casual,
            plays_until=plays_until,
        )
        # A number the database hands out again (a database made anew) starts with no
        # message waiting, whatever an earlier table of that number left in the cache.
        advance_mark_done(table_id=table.pk)
        hand = hand_of(table)
        referee.reference_turns(hand, seats, variant=variant)
        _store(table, hand, seats)
    return table


def _check_room_for_a_casual_table(owner: User) -> None:
    """Refuse a casual table beyond the owner's limit; in the caller's transaction."""
    # The owner's row is locked so that tables started at once are counted one after the
    # other: two requests racing for the last place cannot both have it.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    limit = settings.PLAY_OPEN_TABLES_MAX
    open_ids = list(
        PlayTable.objects.filter(owner=owner, casual=True, status=PlayTable.Status.PLAYING)
        .order_by("created")
        .values_list("pk", flat=True)[:limit]
    )
    if len(open_ids) < limit:
        return
    hours = settings.PLAY_TABLE_IDLE_S / 3600
    raise TooManyTables(
        f"you have {limit} open tables ({', '.join(map(str, open_ids))}), the most a player "
        f"may have (PLAY_OPEN_TABLES_MAX={limit}): finish or leave one before starting "
        'another (the table page\'s "Leave the hand", or POST '
        "/api/play/tables/<id>/abandon/); a table left untouched for "
        f"{hours:g} hours is ended as abandoned"
    )


def _check_arena_versions(seats: Sequence[Seat], variant: str) -> None:
    wanted = {seat.version for seat in seats if seat.kind == ARENA}
    if not wanted:
        return
    found = BotVersion.objects.select_related("bot").in_bulk(wanted)
    for version_id in sorted(wanted):
        version = found.get(version_id)
        if version is None:
            raise BadTable(f"there is no bot version {version_id}")
        if version.status != BotVersion.Status.ACTIVE:
            raise BadTable(f"bot version {version_id} is {version.status}, not active")
        if version.bot.variant != variant:
            raise BadTable(f"bot version {version_id} plays {version.bot.variant}, not {variant}")


def _own_table_locked(table_id: int, user: Reader) -> PlayTable:
    """The user's table, locked for the caller's transaction (404 for anyone else's)."""
    table = (
        PlayTable.objects.select_for_update()
        .filter(pk=table_id, owner_id=getattr(user, "pk", None))
        .first()
    )
    if table is None:
        raise TableNotFound(f"there is no table {table_id} of yours")
    return table


def table_act(*, table_id: int, user: Reader, action: str, ply: int) -> TableUpdate:
    """Apply the human's ``action`` answering ``ply``, then let the reference bots move."""
    with transaction.atomic():
        # The row lock makes check-ply-then-append one step: of two submits answering the
        # same ply, the second waits here and then finds the ply moved on.
        table = _own_table_locked(table_id, user)
        if table.is_over:
            raise over_refusal(table)
        if table.out_of_time():
            # Checked under the lock, as the close that ends the hand locks the row: an
            # action lands before the time is up, or not at all.
            assert table.plays_until is not None
            raise NotYourTurn(
                f"the time to play at table {table.pk} ran out at "
                f"{table.plays_until.isoformat(timespec='seconds')}: it takes no more actions"
            )
        if isinstance(ply, bool) or not isinstance(ply, int) or ply != table.ply:
            raise StalePly(
                f"this action answers ply {ply!r}, but the table is at ply {table.ply}: "
                "reload to see the moves since"
            )
        hand = hand_of(table)
        if hand.current != table.human_seat:
            waited = "nobody's" if hand.current is None else hand.game.seat_name(hand.current)
            raise NotYourTurn(f"it is {waited}'s turn, not yours")
        try:
            hand.apply(action)
        except IllegalActionError as error:
            raise IllegalAction(refusal_text(error, hand.game), error.rule) from None
        except EngineError as error:
            raise IllegalAction(str(error)) from None
        seats = seats_of(table)
        referee.reference_turns(hand, seats, variant=table.variant)
        _store(table, hand, seats)
    return TableUpdate(table, moves_heard(hand, table.human_seat, since=ply))


def table_advance(*, table_id: int) -> int:
    """Let the table's arena bots move until the human's turn or the end; the moves made.

    Safe to run twice at once or to deliver twice: a move is applied only if the table is
    still at the ply its bot answered.
    """
    from tables.arena_seat import arena_move

    # This run looks at the table from now on: a move stored from here needs a new message.
    advance_mark_done(table_id=table_id)
    made = 0
    for _ in range(ARENA_TURNS_PER_TASK):
        table = PlayTable.objects.filter(pk=table_id).first()
        if table is None or table.is_over:
            return made
        hand = hand_of(table)
        seats = seats_of(table)
        seat = hand.current
        if seat is None or seats[seat].kind != ARENA:
            return made
        version = BotVersion.objects.get(pk=seats[seat].version)
        fault: dict[str, Any] | None = None
        text = ""
        try:
            # The slow part, outside any lock: a sandboxed process deciding.
            text = arena_move(hand, seat, version=version, variant=table.variant)
        except (BotFault, SeatFault) as error:
            fault = {
                "seat": seat,
                "kind": _fault_kind(error),
                "reason": getattr(error, "reason", str(error)),
            }
        with transaction.atomic():
            locked = PlayTable.objects.select_for_update().get(pk=table_id)
            if locked.is_over or locked.ply != hand.ply:
                # Someone else moved (a second delivery of this task): their move stands.
                continue
            if fault is not None:
                _finish_with_fault(locked, hand, fault)
                return made
            hand.apply(text)
            referee.reference_turns(hand, seats, variant=locked.variant)
            _store(locked, hand, seats)
            made += 1
    return made


def table_abandon(*, table_id: int, user: Reader) -> PlayTable:
    """The human leaves the hand: it is over, scored as a forfeit of the human's side."""
    with transaction.atomic():
        table = _own_table_locked(table_id, user)
        if table.is_over:
            raise NotYourTurn(f"the hand at table {table.pk} is already {table.status}")
        hand = hand_of(table)
        fault = {"seat": table.human_seat, "kind": "abandoned", "reason": "the player left"}
        _finish_with_fault(table, hand, fault, status=PlayTable.Status.ABANDONED)
    return table


EXPIRED = {"kind": "expired", "reason": "the challenge expired before the hand was over"}
"""The fault of a human who did not finish a table in time: scored as leaving."""


def table_expire(*, table_id: int) -> PlayTable:
    """The human's time for the hand ran out: it is over, a forfeit of the human's side,
    as if the human had left (``table_abandon``). A hand already over stays as it is."""
    with transaction.atomic():
        table = PlayTable.objects.select_for_update().get(pk=table_id)
        if not table.is_over:
            fault = {"seat": table.human_seat, **EXPIRED}
            _finish_with_fault(table, hand_of(table), fault, status=PlayTable.Status.ABANDONED)
    return table


def table_forfeited(
    *,
    owner: User,
    variant: str,
    seed: int,
    dealer: int,
    human_seat: int,
    seats: Sequence[Mapping[str, Any] | str],
    return_url: str = "",
) -> PlayTable:
    """A hand the human never played (a challenge expired before it was dealt): recorded
    with no move, as a forfeit of the human's side, the same forfeit as leaving it."""
    table = PlayTable.objects.create(
        owner=owner,
        variant=variant,
        rules=referee.rules_of(variant, None).to_json(),
        seed=seed,
        dealer=dealer,
        human_seat=human_seat,
        seats=list(seats),
        return_url=return_url,
    )
    fault = {"seat": human_seat, **EXPIRED}
    _finish_with_fault(table, hand_of(table), fault, status=PlayTable.Status.ABANDONED)
    return table


def table_expire_idle(*, table_id: int, idle_since: datetime) -> bool:
    """End a casual table untouched since before ``idle_since`` as its owner leaving it
    would (``table_abandon``: the forfeit of the human's side); False when it was touched,
    or ended, in the meantime."""
    with transaction.atomic():
        # Checked again under the row lock: a move made since the table was picked keeps it.
        table = (
            PlayTable.objects.select_for_update()
            .select_related("owner")
            .filter(
                pk=table_id,
                casual=True,
                status=PlayTable.Status.PLAYING,
                updated__lt=idle_since,
            )
            .first()
        )
        if table is None:
            return False
        table_abandon(table_id=table.pk, user=table.owner)
    return True


def tables_expire_idle() -> int:
    """End every casual table untouched for ``PLAY_TABLE_IDLE_S``; the number ended."""
    idle_since = timezone.now() - timedelta(seconds=settings.PLAY_TABLE_IDLE_S)
    stale = PlayTable.objects.filter(
        casual=True, status=PlayTable.Status.PLAYING, updated__lt=idle_since
    ).values_list("pk", flat=True)
    return sum(table_expire_idle(table_id=table_id, idle_since=idle_since) for table_id in stale)


CLOSED = "closed"
"""The fault kind of a hand its app ended before it was over (``table_close``)."""


def table_close(*, table_id: int, reason: str) -> PlayTable:
    """The app that dealt the table ends the hand while the human is still to finish it:
    scored as a forfeit of the human's side, exactly as if they had left (``reason`` says
    why, to the human, when they try to act at it again).

    Under the table's row lock, as every action: an action racing with the close either
    lands first (and the close then finds the hand as that action left it) or waits and
    is refused. ``NotYourTurn`` when the hand is over already, nothing changed.
    """
    with transaction.atomic():
        table = PlayTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableNotFound(f"there is no table {table_id}")
        if table.is_over:
            raise NotYourTurn(f"the hand at table {table.pk} is already {table.status}")
        hand = hand_of(table)
        fault = {"seat": table.human_seat, "kind": CLOSED, "reason": reason}
        _finish_with_fault(table, hand, fault)
    return table


def over_refusal(table: PlayTable) -> NotYourTurn:
    """Why a hand that is over takes no action, as the page and the API say it."""
    fault = (table.result or {}).get("fault") or {}
    if fault.get("kind") == CLOSED:
        return NotYourTurn(
            f"table {table.pk} is closed: {fault.get('reason')}; it takes no more actions"
        )
    return NotYourTurn(f"the hand at table {table.pk} is {table.status}")


def side_score(table: PlayTable, *, seat: int) -> int:
    """The finished board's duplicate score of ``seat``'s side at this table.

    The score compared across the tables of a duplicate board (bots/duplicate.py): the
    engine's score of the seat's side, or the forfeit when the hand ended by a fault.
    """
    if table.result is None:
        raise NotYourTurn(f"the hand at table {table.pk} is not over")
    return board_side_score(table.result, variant=table.variant, seat=seat)


def board_side_score(result: Mapping[str, Any], *, variant: str, seat: int) -> int:
    """The same from a stored ``result`` alone: a pure function of the result."""
    game = load_game(variant)
    return int(result["side_scores"][game.side_of(seat)])


def moves_heard(hand: Hand, seat: int, *, since: int) -> list[dict[str, Any]]:
    """The moves from ply ``since`` on, each as ``seat`` heard of it."""
    heard = hand.heard_by(seat)
    return [
        {"ply": ply, "seat": actor, "action": text}
        for ply, (actor, text) in enumerate(heard)
        if ply >= since
    ]


def _store(table: PlayTable, hand: Hand, seats: Sequence[Seat]) -> None:
    table.actions = list(hand.actions)
    if hand.state.is_terminal():
        table.status = PlayTable.Status.FINISHED
        table.result = {
            "side_scores": referee.side_scores(hand),
            "hand": hand.state.result().to_json(),
            "fault": None,
        }
    table.save()
    current = hand.current
    if current is not None and seats[current].kind == ARENA:
        table_id = table.pk
        transaction.on_commit(lambda: table_publish(table_id=table_id))


def _finish_with_fault(
    table: PlayTable,
    hand: Hand,
    fault: dict[str, Any],
    status: str = PlayTable.Status.FINISHED,
) -> None:
    table.actions = list(hand.actions)
    table.status = status
    table.result = {
        "side_scores": referee.forfeit_scores(
            hand.game, hand.rules, int(fault["seat"]), hand.state
        ),
        "hand": None,
        "fault": fault,
    }
    table.save()


def table_publish(*, table_id: int) -> bool:
    """Send the arena-bot task for a table, unless one is waiting for it already (at most
    one a table, tables/pending.py); True when one is waiting. With the broker
    unreachable the table waits and the page's next poll sends it again (``table_nudge``);
    False then."""
    from tables.tasks import table_advance_task

    if not advance_mark_sent(table_id=table_id):
        return True
    try:
        table_advance_task.delay(table_id)
    except KombuOperationalError as error:
        advance_mark_done(table_id=table_id)
        logger.warning("table %s: the broker is unreachable, sent later: %s", table_id, error)
        return False
    return True


def refusal_text(error: IllegalActionError, game: AnyGame) -> str:
    """The engine's refusal as the page and the API say it: the rule as the game says it
    to a player (``Game.rule_summaries``), then the engine's reason."""
    summary = game.rule_summaries.get(error.rule)
    reason = f"{error.reason} (rule: {error.rule})"
    return f"{summary}: {reason}" if summary else reason


def _fault_kind(error: BaseException) -> str:
    """A short name for a bot's fault, as a match records it: timeout, crashed, protocol."""
    if isinstance(error, SeatFault):
        return "protocol"
    return type(error).__name__.removeprefix("Bot").lower()


def table_nudge(*, table_id: int, after_s: float = 30.0) -> bool:
    """Send the arena-bot task again for a table left waiting longer than ``after_s``
    (a broker that was down, a worker lost mid-decision), unless a message still waits for
    it (``table_publish``); True if one waits now."""
    table = PlayTable.objects.filter(pk=table_id, status=PlayTable.Status.PLAYING).first()
    if table is None or (timezone.now() - table.updated).total_seconds() < after_s:
        return False
    hand = hand_of(table)
    current = hand.current
    if current is None or seats_of(table)[current].kind != ARENA:
        return False
    # Touch the row so that a page polling every second sends one task per period, not one
    # a poll; a second delivery is harmless anyway (table_advance checks the ply).
    if not PlayTable.objects.filter(pk=table_id, updated=table.updated).update(
        updated=timezone.now()
    ):
        return False
    return table_publish(table_id=table_id)


def seed_commitment_of(table: PlayTable) -> str:
    return seed_commitment(table.seed)
