"""The moves nobody at the table types: bots, substitutes and clocks that ran out.

A bot's seat (or the seat of a person who left, played by the table's substitute, a
reference bot) is played by the Celery task ``lobby.bot_move`` on the interactive queue,
sent when the change that made it the bot's turn is committed. The decision is computed
outside any lock (a reference bot in the worker, an arena version in the sandbox, as at the
play tables: ``tables.arena_seat``) and stored only if the table is still at the ply it
answered, so a task delivered twice, or late, changes nothing.

A person's decision has a deadline (``GameTable.deadline``: the decision's seconds plus
their bank). The periodic sweep (``lobby.clocks_sweep``) plays the substitute's move for
every decision past its deadline, and sends again the task of a bot's turn left waiting
(a message lost with the broker).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from arena.models import BotVersion
from arena.sandbox import BotFault
from bots.table import SeatFault
from lobby.game_state import GameReplay
from lobby.models import GameTable
from lobby.services import _locked, apply_move, player_of, replay_of, seats_of
from tables import referee
from tables.referee import ARENA

logger = logging.getLogger(__name__)

BOT_TURNS_PER_TASK = 64
"""Bot moves one task plays in a row before it sends itself again: a task never runs long."""

BOT_NUDGE_S = 30
"""A bot's turn waiting this long has lost its task: the sweep sends it again."""


def send_bot_move(table_id: int, ply: int) -> None:
    """Send the bot task once the current transaction commits (at once outside one)."""

    def send() -> None:
        from lobby.tasks import bot_move_task

        try:
            bot_move_task.delay(table_id, ply)
        except KombuOperationalError:
            # The change stands; the sweep sends the task again once the broker is back.
            logger.warning("table %s: the bot's move could not be sent", table_id)

    transaction.on_commit(send)


def decide(replay: GameReplay, seat: int, spec: dict[str, object], variant: str) -> str:
    """The move the bot ``spec`` makes at ``seat``: hearing the current hand from its deal."""
    hand = replay.hand_for_bots()
    if spec["kind"] == ARENA:
        from tables.arena_seat import arena_move

        version = BotVersion.objects.get(pk=int(str(spec["version"])))
        return arena_move(hand, seat, version=version, variant=variant)
    return referee.reference_move(hand, seat, name=str(spec["name"]), variant=variant)


def substitute_move(replay: GameReplay, seat: int, name: str, variant: str) -> str:
    return referee.reference_move(replay.hand_for_bots(), seat, name=name, variant=variant)


def bot_move(*, table_id: int, ply: int) -> int:
    """Play the bots' turns from ``ply`` on, until a person's turn or the end; the moves made.

    Nothing happens if the table has moved past ``ply`` (the task came twice or late)."""
    made = 0
    for _ in range(BOT_TURNS_PER_TASK):
        table = GameTable.objects.filter(pk=table_id).first()
        if table is None or table.status != GameTable.Status.PLAYING or table.ply != ply:
            return made
        seats = seats_of(table)
        replay = replay_of(table)
        current = replay.current
        if current is None:
            return made
        spec = player_of(seats[current], table)
        if spec is None:
            return made
        try:
            # The slow part, outside any lock.
            text = decide(replay, current, spec, table.variant)
        except (BotFault, SeatFault) as error:
            # An arena bot that fails at a people's table does not end their game: the
            # substitute makes this decision instead.
            logger.warning("table %s: bot at seat %s failed (%s)", table_id, current, error)
            text = substitute_move(replay, current, table.substitute, table.variant)
        with transaction.atomic():
            locked = _locked(table_id)
            if locked.status != GameTable.Status.PLAYING or locked.ply != ply:
                return made
            seats = seats_of(locked)
            if player_of(seats[current], locked) is None:
                return made  # the person came back to their seat meanwhile
            apply_move(locked, replay, text, seats=seats, send_bots=False)
        made += 1
        ply += 1
    send_bot_move(table_id, ply)
    return made


def time_out(*, table_id: int, now: datetime | None = None) -> bool:
    """The person to act ran out of time: the substitute plays this decision and the bank
    is spent. False if the decision was made (or the clock changed) meanwhile."""
    now = now or timezone.now()
    table = GameTable.objects.filter(pk=table_id).first()
    if table is None or table.status != GameTable.Status.PLAYING:
        return False
    if table.deadline is None or table.deadline > now:
        return False
    ply = table.ply
    replay = replay_of(table)
    current = replay.current
    if current is None:
        return False
    text = substitute_move(replay, current, table.substitute, table.variant)
    with transaction.atomic():
        locked = _locked(table_id)
        if (
            locked.status != GameTable.Status.PLAYING
            or locked.ply != ply
            or locked.deadline is None
            or locked.deadline > now
        ):
            return False
        seats = seats_of(locked)
        seats[current].bank_s = 0.0
        seats[current].save(update_fields=["bank_s"])
        apply_move(locked, replay, text, seats=seats)
    return True


def clocks_sweep(*, now: datetime | None = None) -> int:
    """The periodic job: every decision past its deadline is played by the substitute, and
    the task of a bot's turn left waiting is sent again. The number of timed-out decisions."""
    now = now or timezone.now()
    played = 0
    due = GameTable.objects.filter(status=GameTable.Status.PLAYING, deadline__lte=now)
    for table_id in due.values_list("pk", flat=True):
        played += time_out(table_id=table_id, now=now)
    stalled = GameTable.objects.filter(
        status=GameTable.Status.PLAYING,
        deadline__isnull=True,
        turn_started__lte=now - timedelta(seconds=BOT_NUDGE_S),
    )
    for table_id, actions in stalled.values_list("pk", "actions"):
        send_bot_move(table_id, len(actions))
    return played
