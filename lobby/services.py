"""Every write to a card table: open it, sit, leave, give a seat to a bot, act, talk.

Each service is one transaction under the table's row lock, so that two requests never
interleave: of two submits answering the same ply, the second waits for the first and then
finds the ply moved on. The engine referees every action (``lobby.game_state``). After the
commit the sockets watching the table are told (``lobby.live.publish``), and when a bot (or
the substitute of a person who left) is to act next, a Celery task plays it
(``lobby.turns``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from arena.models import BotVersion
from arena.seeding import seed_commitment
from bots.reference import reference_bots
from engine.errors import EngineError, IllegalActionError
from engine.interface import AnyGame
from engine.registry import load_game, variant_names
from lobby import live
from lobby.errors import (
    BadTable,
    IllegalAction,
    NotHost,
    NotSeated,
    NotYourTurn,
    SeatTaken,
    StalePly,
    TableNotFound,
    TooManyTables,
)
from lobby.game_state import GameReplay, rebuild, target_rules
from lobby.models import GameSeat, GameTable, TalkMessage
from lobby.words import WORDS
from tables.referee import ARENA, REFERENCE, SeatSpecError, parse_seat

logger = logging.getLogger(__name__)

Reader = User | AbstractBaseUser | AnonymousUser

MAX_SEED = 2**63 - 1
MAX_TARGET_HANDS = 50
LEGAL_SHOWN = 12
"""How many legal actions an illegal action's refusal names (a pass has hundreds)."""


# ---------------------------------------------------------------- reading a table


def replay_of(table: GameTable) -> GameReplay:
    """The table's game, rebuilt by the engine from its seed and its log."""
    return rebuild(
        table_id=table.pk,
        variant=table.variant,
        rules=table.rules,
        target=table.target,
        seed=table.seed,
        dealer=table.dealer,
        actions=table.actions,
    )


def seats_of(table: GameTable) -> list[GameSeat]:
    return list(GameSeat.objects.filter(table=table).select_related("user").order_by("seat"))


def player_of(seat: GameSeat, table: GameTable) -> dict[str, Any] | None:
    """Who decides for ``seat`` now: None for a person who is there (their own decision),
    else the bot spec that plays it (its own bot, or the substitute of a person who left)."""
    if seat.user_id is not None and not seat.left:
        return None
    if seat.bot is not None:
        return dict(seat.bot)
    return {"kind": REFERENCE, "name": table.substitute}


def _locked(table_id: int) -> GameTable:
    # The host comes along (a frame names them), unlocked: only the table's row is locked.
    table = (
        GameTable.objects.select_related("host")
        .select_for_update(of=("self",))
        .filter(pk=table_id)
        .first()
    )
    if table is None:
        raise TableNotFound(f"there is no table {table_id}")
    return table


def _signed_in(user: Reader) -> User:
    if not user.is_authenticated:
        raise NotSeated("sign in to sit at a table")
    assert isinstance(user, User)
    return user


TABLE_CHANGES = [
    "actions",
    "status",
    "result",
    "started",
    "finished",
    "turn_started",
    "deadline",
    "talk_count",
    "revision",
    "updated",
]
"""The fields of a table that a change may set: stored together, in one UPDATE."""


def _store(table: GameTable) -> None:
    """Store a change to the table as its next revision, in one UPDATE of the fields a
    change may set, and tell the table's sockets once it is committed."""
    table.revision += 1
    table.save(update_fields=TABLE_CHANGES)
    table_id, ply, revision = table.pk, table.ply, table.revision
    transaction.on_commit(lambda: live.publish(table_id, ply, revision))


# ---------------------------------------------------------------- opening a table


def game_of(variant: object) -> AnyGame:
    known = variant_names()
    if not isinstance(variant, str) or variant not in known:
        raise BadTable(f"unknown variant {variant!r} (known: {', '.join(known)})")
    game = load_game(variant)
    if game.target_game is None:
        raise BadTable(f"{variant} is played one hand at a time: it has no game to a target")
    return game


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadTable(f"{name} is a whole number from {low} to {high}, not {value!r}")
    return value


def check_target(game: AnyGame, target: object) -> dict[str, Any]:
    if target is None:
        return {"kind": "score", "value": int(game.rules.target)}
    if not isinstance(target, Mapping) or target.get("kind") not in ("score", "hands"):
        raise BadTable(
            'target is {"kind": "score", "value": points} or {"kind": "hands", "value": count}, '
            f"not {target!r}"
        )
    if target["kind"] == "score":
        return {"kind": "score", "value": _whole(target.get("value"), "the target score", 1, 10**6)}
    count = _whole(target.get("value"), "the number of hands", 1, MAX_TARGET_HANDS)
    return {"kind": "hands", "value": count}


def check_clock(clock: object) -> dict[str, int]:
    if clock is None:
        return {"decision_s": settings.LOBBY_DECISION_S, "bank_s": settings.LOBBY_BANK_S}
    if not isinstance(clock, Mapping) or set(clock) - {"decision_s", "bank_s"}:
        raise BadTable(f'clock is {{"decision_s": seconds, "bank_s": seconds}}, not {clock!r}')
    decision = clock.get("decision_s", settings.LOBBY_DECISION_S)
    bank = clock.get("bank_s", settings.LOBBY_BANK_S)
    return {
        "decision_s": _whole(decision, "decision_s", 5, 600),
        "bank_s": _whole(bank, "bank_s", 0, 3600),
    }


def check_bot(game: AnyGame, spec: object) -> dict[str, Any]:
    """A bot seat's spec: a reference bot of the variant, or an active arena version of it."""
    try:
        seat = parse_seat(spec, game.variant)
    except SeatSpecError as error:
        raise BadTable(str(error)) from None
    if seat.kind == REFERENCE:
        return {"kind": REFERENCE, "name": seat.name}
    if seat.kind != ARENA:
        raise BadTable(f'a bot is {{"kind": "reference"|"arena", ...}}, not {spec!r}')
    version = BotVersion.objects.select_related("bot").filter(pk=seat.version).first()
    if version is None:
        raise BadTable(f"there is no bot version {seat.version}")
    if version.status != BotVersion.Status.ACTIVE:
        raise BadTable(f"bot version {seat.version} is {version.status}, not active")
    if version.bot.variant != game.variant:
        raise BadTable(
            f"bot version {seat.version} plays {version.bot.variant}, not {game.variant}"
        )
    return {"kind": ARENA, "version": seat.version}


def table_open(
    *,
    host: User,
    variant: str,
    rules: Mapping[str, Any] | None = None,
    target: Mapping[str, Any] | None = None,
    rated: bool = False,
    clock: Mapping[str, Any] | None = None,
    seats: Sequence[Mapping[str, Any]],
    substitute: str = "greedy",
) -> GameTable:
    """Open a table; the game starts by itself as soon as every seat is filled.

    ``rules``: changes to the variant's preset (as a league's overrides). ``rated``: a
    game of people only (no bot seat; see the README's "Rated games")."""
    host = _signed_in(host)
    game = game_of(variant)
    if rules is not None and not isinstance(rules, Mapping):
        raise BadTable(f"rules are an object of the preset's changes, not {rules!r}")
    checked_target = check_target(game, target)
    try:
        table_rules = target_rules(game, checked_target, rules)
    except EngineError as error:
        raise BadTable(str(error)) from None
    if not isinstance(rated, bool):
        raise BadTable(f"rated is true or false, not {rated!r}")
    checked_clock = check_clock(clock)
    bots = reference_bots(game)
    if substitute not in bots:
        raise BadTable(
            f"the substitute is a reference bot of {variant} ({', '.join(sorted(bots))}), "
            f"not {substitute!r}"
        )
    if not isinstance(seats, Sequence) or len(seats) != game.players:
        raise BadTable(f"{variant} has {game.players} seats: give one spec a seat, in order")
    kinds = [spec.get("kind") if isinstance(spec, Mapping) else None for spec in seats]
    if kinds.count("host") != 1:
        raise BadTable(f'exactly one seat is {{"kind": "host"}}, not {kinds.count("host")}')
    rows: list[GameSeat] = []
    for number, (spec, kind) in enumerate(zip(seats, kinds, strict=True)):
        row = GameSeat(seat=number, bank_s=float(checked_clock["bank_s"]))
        if kind == "host":
            row.user = host
        elif kind == "invite":
            row.invited = True
        elif kind == "bot":
            if rated:
                raise BadTable("a rated game is played by people only: no seat may be a bot")
            row.bot = check_bot(game, spec.get("bot"))
        elif kind != "open":
            raise BadTable(
                f'seat {number} is {{"kind": "host"|"open"|"invite"|"bot"}}, not {spec!r}'
            )
        rows.append(row)
    seed = secrets.randbelow(MAX_SEED + 1)
    with transaction.atomic():
        _check_room(host)
        table = GameTable.objects.create(
            host=host,
            variant=variant,
            rules=table_rules.to_json(),
            target=checked_target,
            rated=rated,
            clock=checked_clock,
            substitute=substitute,
            seed=seed,
            commitment=seed_commitment(seed),
            dealer=secrets.randbelow(game.players),
            invite_token=secrets.token_urlsafe(32),
        )
        for row in rows:
            row.table = table
        GameSeat.objects.bulk_create(rows)
        _start_if_full(table)
        _store(table)
    return table


def _check_room(host: User) -> None:
    """Refuse a table beyond the host's limit, in the caller's transaction."""
    # The host's row is locked so that tables opened at once are counted one after another.
    User.objects.select_for_update().filter(pk=host.pk).first()
    limit = settings.LOBBY_OPEN_TABLES_MAX
    open_ids = list(
        GameTable.objects.filter(host=host)
        .exclude(status=GameTable.Status.FINISHED)
        .order_by("created")
        .values_list("pk", flat=True)[:limit]
    )
    if len(open_ids) >= limit:
        raise TooManyTables(
            f"you host {limit} open tables ({', '.join(map(str, open_ids))}), the most one may "
            f"(LOBBY_OPEN_TABLES_MAX={limit}): finish one, or leave one still waiting"
        )


def _start_if_full(table: GameTable) -> None:
    """Start the game (in the caller's change) when no seat is empty."""
    seats = seats_of(table)
    if table.status != GameTable.Status.WAITING or any(s.kind in ("open", "invite") for s in seats):
        return
    table.status = GameTable.Status.PLAYING
    table.started = timezone.now()
    next_turn(table, replay_of(table), seats)


# ---------------------------------------------------------------- turns and the clock


def next_turn(
    table: GameTable,
    replay: GameReplay,
    seats: Sequence[GameSeat],
    *,
    now: datetime | None = None,
    send_bots: bool = True,
) -> None:
    """Ask the seat to act for its decision (or finish the game), in the caller's change
    (stored by the caller: ``_store``).

    A person there gets a deadline: the decision's seconds plus their bank. A bot, or the
    substitute of a person who left, is played by a task sent once the change is committed
    (``send_bots=False``: the caller, a bot task, plays on itself)."""
    from lobby import turns

    now = now or timezone.now()
    if replay.state.is_terminal():
        finish(table, replay)
        return
    current = replay.current
    assert current is not None
    seat = seats[current]
    table.turn_started = now
    if player_of(seat, table) is None:
        table.deadline = now + timedelta(seconds=table.decision_s + seat.bank_s)
    else:
        table.deadline = None
        if send_bots:
            turns.send_bot_move(table.pk, table.ply)


def charge_clock(table: GameTable, seat: GameSeat, now: datetime) -> None:
    """Take from the seat's bank what its decision used beyond the decision's seconds."""
    if table.turn_started is None:
        return
    used = (now - table.turn_started).total_seconds()
    over = max(0.0, used - table.decision_s)
    if over:
        seat.bank_s = max(0.0, seat.bank_s - over)
        seat.save(update_fields=["bank_s"])


def finish(table: GameTable, replay: GameReplay) -> None:
    """The game reached its end: the engine's result, in the caller's change (stored by
    the caller: ``_store``); a rated game's ratings move."""
    from lobby import ratings

    result = replay.state.result()
    table.status = GameTable.Status.FINISHED
    table.result = {
        "winner": result.winner,
        "scores": [int(score) for score in result.scores],
        "hands": [hand.to_json() for hand in result.hands],
    }
    table.finished = timezone.now()
    table.deadline = None
    ratings.apply_once(table)


def apply_move(
    table: GameTable,
    replay: GameReplay,
    text: str,
    *,
    seats: Sequence[GameSeat],
    send_bots: bool = True,
) -> str:
    """Referee ``text`` for the seat to act and store it (IllegalAction naming the rule and
    the legal choices if the engine refuses it; nothing changes then)."""
    try:
        canonical = replay.apply(text)
    except IllegalActionError as error:
        # The engine refuses before it changes anything: the choices are still those of now.
        # (Listed only on a refusal: a pass has hundreds, too many to list for every move.)
        legal = [str(action) for action in replay.state.legal_actions]
        raise IllegalAction(refusal_text(error, replay.game, legal), error.rule) from None
    except EngineError as error:
        legal = [str(action) for action in replay.state.legal_actions]
        raise IllegalAction(f"{error}; {legal_text(legal)}") from None
    table.actions = list(replay.actions)
    next_turn(table, replay, seats, send_bots=send_bots)
    _store(table)
    return canonical


def legal_text(legal: Sequence[str]) -> str:
    shown = ", ".join(legal[:LEGAL_SHOWN])
    more = f" and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
    return f"legal now: {shown}{more}"


def refusal_text(error: IllegalActionError, game: AnyGame, legal: Sequence[str]) -> str:
    """The engine's refusal as a player is told it: the rule as the game says it
    (``Game.rule_summaries``), the engine's reason, and the legal choices."""
    summary = game.rule_summaries.get(error.rule)
    reason = f"{error.reason} (rule: {error.rule}); {legal_text(legal)}"
    return f"{summary}: {reason}" if summary else reason


# ---------------------------------------------------------------- people's requests


def table_act(*, table_id: int, user: Reader, action: str, ply: int) -> GameTable:
    """Apply the person's ``action`` answering ``ply`` (the whole game's action count)."""
    return table_act_state(table_id=table_id, user=user, action=action, ply=ply)[0]


def table_act_state(
    *, table_id: int, user: Reader, action: str, ply: int
) -> tuple[GameTable, list[GameSeat], GameReplay]:
    """``table_act``, with the table's seats and game as the committed move left them, so
    that the process that played it need not read them back."""
    with transaction.atomic():
        table = _locked(table_id)
        seats = seats_of(table)
        seat = _seat_among(seats, table, user)
        if table.status != GameTable.Status.PLAYING:
            raise NotYourTurn(f"the game at table {table.pk} is {table.status}: no action now")
        if isinstance(ply, bool) or not isinstance(ply, int) or ply != table.ply:
            raise StalePly(
                f"this action answers ply {ply!r}, but the table is at ply {table.ply}: "
                "reload to see the moves since"
            )
        if not isinstance(action, str) or not action.strip():
            raise IllegalAction(f"an action is text such as 'bid 250', not {action!r}")
        if seat.left:
            raise NotYourTurn("you left this game: sit again at your seat to play on")
        replay = replay_of(table)
        if replay.current != seat.seat:
            waited = replay.game.seat_name(replay.current) if replay.current is not None else ""
            raise NotYourTurn(f"it is {waited}'s turn, not yours")
        # Charged before the move asks the next seat (a refused move rolls it back).
        charge_clock(table, seat, timezone.now())
        apply_move(table, replay, action.strip(), seats=seats)
    return table, seats, replay


def _seat_among(seats: Sequence[GameSeat], table: GameTable, user: Reader) -> GameSeat:
    """The user's seat among the table's ``seats`` (read already: no query)."""
    seat = (
        next((row for row in seats if row.user_id == user.pk), None)
        if user.is_authenticated
        else None
    )
    if seat is None:
        raise NotSeated(f"you do not sit at table {table.pk}")
    return seat


def _seat_of(table: GameTable, user: Reader) -> GameSeat:
    seat = (
        GameSeat.objects.filter(table=table, user_id=int(user.pk)).first()
        if user.is_authenticated
        else None
    )
    if seat is None:
        raise NotSeated(f"you do not sit at table {table.pk}")
    return seat


def table_sit(*, table_id: int, user: Reader, seat: int, token: str | None = None) -> GameTable:
    """Sit at an empty seat before the start (an invited seat needs the table's invitation
    token), or come back to one's own seat during play (the substitute stops)."""
    person = _signed_in(user)
    with transaction.atomic():
        table = _locked(table_id)
        seats = seats_of(table)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise BadTable(f"table {table.pk} has seats 0 to {len(seats) - 1}, not {seat!r}")
        wanted = seats[seat]
        mine = next((row for row in seats if row.user_id == person.pk), None)
        if table.status == GameTable.Status.FINISHED:
            raise SeatTaken(f"the game at table {table.pk} is over")
        if mine is not None:
            if mine.seat != seat:
                raise SeatTaken(f"you already sit at table {table.pk}, in seat {mine.seat}")
            if mine.left:
                mine.left = False
                mine.save(update_fields=["left"])
                _back_in_turn(table, seats, mine.seat)
            _store(table)
            return table
        if table.status != GameTable.Status.WAITING or wanted.kind not in ("open", "invite"):
            raise SeatTaken(f"seat {seat} of table {table.pk} is taken")
        if wanted.invited and not (
            isinstance(token, str) and secrets.compare_digest(token, table.invite_token)
        ):
            raise NotSeated(f"seat {seat} of table {table.pk} is kept for an invited person")
        wanted.user = person
        wanted.save(update_fields=["user"])
        _start_if_full(table)
        _store(table)
    return table


def _back_in_turn(table: GameTable, seats: Sequence[GameSeat], seat: int) -> None:
    """A person back at their seat on their own turn gets the decision (and its clock) back
    from the substitute; on another seat's turn nothing changes."""
    if table.status == GameTable.Status.PLAYING:
        replay = replay_of(table)
        if replay.current == seat:
            next_turn(table, replay, seats)


def table_leave(*, table_id: int, user: Reader) -> GameTable:
    """Before the start: free the seat (the host's leaving closes the table). During play:
    the substitute bot plays the seat until the person sits again; their side is scored as
    it is played, so leaving never pays."""
    with transaction.atomic():
        table = _locked(table_id)
        seat = _seat_of(table, user)
        if table.status == GameTable.Status.FINISHED:
            raise NotYourTurn(f"the game at table {table.pk} is over")
        if table.status == GameTable.Status.WAITING:
            if table.host_id == seat.user_id:
                table.status = GameTable.Status.FINISHED
                table.result = {"cancelled": "the host closed the table before the start"}
                table.finished = timezone.now()
            else:
                seat.user = None
                seat.connected = False
                seat.save(update_fields=["user", "connected"])
        elif not seat.left:
            seat.left = True
            seat.save(update_fields=["left"])
            seats = seats_of(table)
            replay = replay_of(table)
            if replay.current == seat.seat:
                next_turn(table, replay, seats)
        _store(table)
    return table


def table_fill(*, table_id: int, user: Reader, seat: int, bot: Mapping[str, Any]) -> GameTable:
    """The host gives an empty seat to a bot before the start (not at a rated table)."""
    with transaction.atomic():
        table = _locked(table_id)
        if not user.is_authenticated or user.pk != table.host_id:
            raise NotHost(f"only the host of table {table.pk} gives a seat to a bot")
        if table.status != GameTable.Status.WAITING:
            raise SeatTaken(f"the game at table {table.pk} has started: every seat is taken")
        if table.rated:
            raise BadTable("a rated game is played by people only: no seat may be a bot")
        seats = seats_of(table)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise BadTable(f"table {table.pk} has seats 0 to {len(seats) - 1}, not {seat!r}")
        row = seats[seat]
        if row.kind not in ("open", "invite"):
            raise SeatTaken(f"seat {seat} of table {table.pk} is taken")
        row.bot = check_bot(load_game(table.variant), bot)
        row.invited = False
        row.save(update_fields=["bot", "invited"])
        _start_if_full(table)
        _store(table)
    return table


TALK_KEPT = 20
"""How many of a table's latest phrases a frame shows."""


def table_talk(*, table_id: int, user: Reader, key: str) -> TalkMessage:
    """A seated person says one of the fixed phrases (``lobby.words``)."""
    if key not in WORDS:
        raise BadTable(f"say one of {', '.join(WORDS)}, not {key!r}")
    with transaction.atomic():
        table = _locked(table_id)
        seat = _seat_of(table, user)
        message = TalkMessage.objects.create(
            table=table, user_id=seat.user_id, seat=seat.seat, key=key
        )
        table.talk_count += 1
        _store(table)
    return message


def presence(*, table_id: int, user: Reader, connected: bool) -> None:
    """A seated person's socket opened or closed (a spectator's changes nothing)."""
    if not user.is_authenticated:
        return
    with transaction.atomic():
        table = _locked(table_id)
        updated = (
            GameSeat.objects.filter(table=table, user_id=user.pk)
            .exclude(connected=connected)
            .update(connected=connected)
        )
        if updated:
            _store(table)
