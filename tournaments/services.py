"""Every write of the tournaments app, as keyword-only functions named ``<entity>_<action>``.

Authorization that is a rule of the event (only the director starts it; a player enters
results only for a table they sit at) is checked here, so that no caller can skip it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from arena import notices
from arena.errors import InvalidInput, NotAllowed, NotFound, TooManyAttempts
from arena.http.quotas import slots
from arena.models import Player
from engine import Suit
from engine.registry import load_game, variant_names
from tournaments import selectors
from tournaments.hands import (
    EntryOutcome,
    EntryRejected,
    HandScore,
    ScoreEntry,
    board_seed,
    commitment,
    new_secret,
    public_rejection,
    score_board_entry,
)
from tournaments.human_ratings import RatedMeeting, event_skills
from tournaments.models import (
    Board,
    BoardPar,
    Correction,
    Entry,
    Event,
    HumanRating,
    HumanRatingChange,
    Result,
    Review,
    Section,
)
from tournaments.movements import (
    MovementError,
    MovementKind,
    Seating,
    individual_table_counts,
    movement_for,
)
from tournaments.par import board_par, par_bots

PAIR_MOVEMENTS = (MovementKind.MITCHELL, MovementKind.HOWELL, MovementKind.TEAMS)

# Which input field a broken score-entry rule points at, so that a form can mark it.
RULE_FIELDS = {
    "declarer": "declarer",
    "bid_ladder": "bid",
    "trump": "trump",
    "trump_needs_marriage": "trump",
    "no_marriage": "outcome",
    "throw_in": "outcome",
    "counters_total": "taken",
    "counters_step": "taken",
    "counters": "taken",
    "meld": "meld",
    "sides": "meld",
    "seats": "meld",
    "buried": "buried",
    "cards": "meld",
}

# Every refused entry tells a player one bit about cards they may not have seen (the
# entry was not possible), so a player gets few of them: this many per event in a window.
ENTRY_REJECTIONS_ALLOWED = 10
ENTRY_REJECTION_WINDOW_S = 600


class EntryAttemptsExhausted(TooManyAttempts):
    """A player's refused score entries reached the limit; ``wait`` is in seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(
            f"too many refused entries: try again in {wait // 60} minutes, or ask the director",
            wait=wait,
        )


def event_variants() -> tuple[str, ...]:
    """The variants of events for people: those whose games score a table's paper result
    (``Game.has_hand_records``). A game without partnerships is played in individual
    events only."""
    return tuple(name for name in variant_names() if load_game(name).has_hand_records)


def _require_director(event: Event, player: Player) -> None:
    if not selectors.is_director(event=event, player=player):
        raise NotAllowed("only the event's director can do this")


def _require_status(event: Event, *allowed: str) -> None:
    if event.status not in allowed:
        raise InvalidInput(f"the event is {event.status}; this needs it {' or '.join(allowed)}")


def _locked_for_director(event: Event, by: Player, *allowed: str) -> Event:
    """The event locked for the rest of the transaction, once ``by`` is known to direct it
    and it is in one of the ``allowed`` states (read under the lock, so that no concurrent
    change of state slips in between)."""
    _require_director(event, by)
    event = Event.objects.select_for_update().get(pk=event.pk)
    _require_status(event, *allowed)
    return event


def event_create(
    *,
    director: Player,
    name: str,
    variant: str,
    kind: str = Event.Kind.PAIRS,
    movement: str = MovementKind.MITCHELL.value,
    boards_per_round: int = 3,
    scale: str = Event.Scale.TWO_ONE,
    par_bot: str = "strong",
    sections: Sequence[str] = ("A",),
) -> Event:
    """Create an event and publish its commitment: the boards are fixed from this moment."""
    variants = event_variants()
    if variant not in variants:
        raise InvalidInput(
            f"events are run for {', '.join(variants)} today, not {variant}", field="variant"
        )
    movement_kind = MovementKind(movement)
    if not load_game(variant).partnership and kind != Event.Kind.INDIVIDUAL:
        raise InvalidInput(
            f"{variant} is every player for themselves: an individual event", field="kind"
        )
    if kind == Event.Kind.PAIRS and movement_kind not in PAIR_MOVEMENTS:
        raise InvalidInput(
            "a pairs event needs a Mitchell, Howell or teams movement", field="movement"
        )
    if kind == Event.Kind.INDIVIDUAL and movement_kind is not MovementKind.INDIVIDUAL:
        raise InvalidInput("an individual event needs the individual movement", field="movement")
    if par_bot == "strong" and "strong" not in par_bots(variant):
        # A game without a strong bot of its own (Pinnacolo): the next best gives the par.
        par_bot = par_bots(variant)[0]
    _check_par_bot(variant, par_bot)
    if not sections or len(set(sections)) != len(sections):
        raise InvalidInput("sections need distinct names", field="sections")
    secret = new_secret()
    with transaction.atomic():
        event = Event.objects.create(
            name=name,
            variant=variant,
            kind=kind,
            movement=movement_kind.value,
            boards_per_round=boards_per_round,
            scale=scale,
            par_bot=par_bot,
            director=director,
            secret=secret.hex(),
            commitment=commitment(secret),
        )
        for section_name in sections:
            Section.objects.create(event=event, name=section_name)
    return event


@transaction.atomic
def entry_add(
    *, event: Event, by: Player, section_name: str, players: Sequence[Player], name: str = ""
) -> Entry:
    """Enter a pair (or one player in an individual event) in a section, numbered in order."""
    # Locked, so that two entries added at once cannot take the same number.
    event = _locked_for_director(event, by, Event.Status.SETUP)
    needed = 1 if event.kind == Event.Kind.INDIVIDUAL else 2
    if len(players) != needed or len({p.pk for p in players}) != needed:
        raise InvalidInput(
            f"an entry in a {event.kind} event is {needed} different player(s)", field="players"
        )
    if any(p.pk == event.director_id for p in players):
        # The director makes up the boards from the hand records and sees every result:
        # a director at a table would know the boards before playing them.
        raise InvalidInput("the director of an event cannot play in it", field="players")
    section = event.sections.filter(name=section_name).first()
    if section is None:
        raise InvalidInput(f"the event has no section {section_name!r}", field="section")
    taken = Entry.objects.filter(section__event=event, players__in=players).first()
    if taken is not None:
        raise InvalidInput(f"a player is already in entry {taken}", field="players")
    number = section.entries.count() + 1
    entry = Entry.objects.create(section=section, number=number, name=name)
    entry.players.set(players)
    return entry


def event_update(*, event: Event, by: Player, **changes: Any) -> Event:
    """Rename the event or change its boards per round, scale or par bot.

    The matchpoint scale only changes how scores are shown, so it may change at any time;
    the rest is fixed once the boards are laid out at the start.
    """
    _require_director(event, by)
    if set(changes) - {"scale"}:
        _require_status(event, Event.Status.SETUP)
    editable = {"name", "boards_per_round", "par_bot", "scale"}
    unknown = sorted(set(changes) - editable)
    if unknown:
        raise InvalidInput(f"{unknown[0]} cannot be changed; only {', '.join(sorted(editable))}")
    if changes.get("par_bot"):
        _check_par_bot(event.variant, changes["par_bot"])
    for name, value in changes.items():
        setattr(event, name, value)
    event.save(update_fields=[*changes])
    return event


@transaction.atomic
def entry_remove(*, event: Event, by: Player, entry: Entry) -> None:
    """Withdraw an entry before the start; the later entries move up a number."""
    event = _locked_for_director(event, by, Event.Status.SETUP)
    section, number = entry.section, entry.number
    entry.delete()
    # Ascending order keeps the (section, number) constraint satisfied at every step.
    for later in section.entries.filter(number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])


def _section_size(event: Event, entries: int) -> int:
    """Tables (teams for a team event) for a section of ``entries`` entries."""
    kind = MovementKind(event.movement)
    if kind is MovementKind.TEAMS:
        if entries % 2:
            raise InvalidInput("a team event needs an even number of pairs (two per team)")
        return entries // 2
    if kind is MovementKind.INDIVIDUAL:
        # Every table must be full: an empty seat moves each round and would stop a
        # different table every time, so the field is a whole number of allowed tables.
        seats = load_game(event.variant).players
        fields = [n * seats for n in individual_table_counts(seats) if n > 1]
        if entries not in fields:
            allowed = ", ".join(str(n) for n in fields)
            raise InvalidInput(f"an individual movement seats {allowed} players, not {entries}")
        return entries // seats
    return ceil(entries / 2)


@transaction.atomic
def event_start(*, event: Event, by: Player, rounds: int | None = None) -> Event:
    """Build each section's movement from its entries and lay out the boards."""
    _require_director(event, by)
    claimed = Event.objects.filter(pk=event.pk, status=Event.Status.SETUP).update(
        status=Event.Status.RUNNING, started=timezone.now(), current_round=1
    )
    if not claimed:
        raise InvalidInput("the event has already started")
    sets = 0
    for section in event.sections.all():
        count = section.entries.count()
        if count == 0:
            continue
        size = _section_size(event, count)
        try:
            movement = movement_for(
                MovementKind(event.movement),
                size,
                rounds=rounds,
                seats=load_game(event.variant).players,
            )
        except MovementError as error:
            raise InvalidInput(f"section {section.name}: {error}") from None
        section.size, section.rounds = size, movement.rounds
        section.save(update_fields=["size", "rounds"])
        sets = max(sets, movement.board_sets)
    if sets == 0:
        raise InvalidInput("nobody has entered yet")
    secret = bytes.fromhex(event.secret)
    game = load_game(event.variant)
    boards = [
        Board(
            event=event,
            number=number,
            seed=board_seed(secret, number),
            dealer=game.board_dealer(number),
        )
        for number in range(1, sets * event.boards_per_round + 1)
    ]
    Board.objects.bulk_create(boards)
    event.refresh_from_db()
    if event.par_bot:
        # Imported here because the task module imports this one.
        from tournaments.tasks import board_par_task

        for board in event.boards.all():
            # Celery 5.4's delay_on_commit, which celery-types does not know yet.
            board_par_task.delay_on_commit(board.pk)  # type: ignore[attr-defined]
    return event


def _check_par_bot(variant: str, par_bot: str) -> None:
    if par_bot and par_bot not in par_bots(variant):
        choices = " or ".join(par_bots(variant))
        raise InvalidInput(f"the par of {variant} comes from {choices}, or none", field="par_bot")


def board_par_compute(*, board_id: int) -> BoardPar | None:
    """Play the board with the event's par bot and store the result (once)."""
    board = Board.objects.select_related("event").get(pk=board_id)
    if not board.event.par_bot or BoardPar.objects.filter(board=board).exists():
        return None
    result = board_par(
        board.event.variant,
        bot=board.event.par_bot,
        number=board.number,
        seed=board.seed,
        dealer=board.dealer,
    )
    par, _ = BoardPar.objects.get_or_create(
        board=board,
        defaults={
            "bot": board.event.par_bot,
            "result": result.to_json(),
            # North and East; a three-hand par's every seat is in ``result``.
            "score_ns": result.team_scores[0],
            "score_ew": result.team_scores[1],
        },
    )
    return par


def _score(event: Event, board: Board, entry: ScoreEntry, *, sees_cards: bool) -> HandScore:
    """Check and score an entry; refusals name what the cards hold only to ``sees_cards``."""
    try:
        return score_board_entry(load_game(event.variant), board.seed, board.dealer, entry)
    except EntryRejected as rejected:
        told = rejected if sees_cards else public_rejection(rejected)
        raise InvalidInput(str(told), field=RULE_FIELDS.get(told.rule)) from None


def _player_score(event: Event, board: Board, entry: ScoreEntry, by: Player) -> HandScore:
    """A player's entry, within their allowance of refused entries.

    Each attempt holds one of the player's ``ENTRY_REJECTIONS_ALLOWED`` slots of the event
    (arena.http.quotas.slots: rows of the database, so that the allowance holds with the cache's
    Redis down too) while it is checked, and gives it back when it is accepted; a refused
    attempt keeps its slot for the window. A slot is taken by an INSERT that the primary key
    lets only one attempt make, so concurrent attempts cannot all slip under the limit.
    """
    # The commitment names the event uniquely for ever, even across databases.
    holder = f"tournaments:entry-rejections:{event.commitment}:{by.pk}"
    now = time.time()
    slot = next(
        (
            key
            for key in (f"{holder}:{number}" for number in range(ENTRY_REJECTIONS_ALLOWED))
            if slots.take(key, holder=holder, now=now, seconds=ENTRY_REJECTION_WINDOW_S)
        ),
        None,
    )
    if slot is None:
        raise EntryAttemptsExhausted(ENTRY_REJECTION_WINDOW_S)
    scored = _score(event, board, entry, sees_cards=False)
    slots.release([slot])
    return scored


def score_entry_from(data: dict[str, Any]) -> ScoreEntry:
    """A ``ScoreEntry`` from validated input (trump as a suit letter or None)."""
    trump = data.get("trump")
    return ScoreEntry(
        outcome=EntryOutcome(data["outcome"]),
        declarer=data["declarer"],
        bid=data["bid"],
        trump=Suit.parse(trump) if trump else None,
        meld=tuple(data["meld"]),
        taken=tuple(data["taken"]),
        buried=data.get("buried") or 0,
    )


def _result_fields(event: Event, entry: ScoreEntry, scored: HandScore) -> dict[str, Any]:
    """The result row's fields: a partnership game's two sides as North-South and
    East-West, any other game's scores seat by seat."""
    if not load_game(event.variant).partnership:
        return {
            "outcome": entry.outcome.value,
            "declarer": entry.declarer,
            "bid": entry.bid,
            "trump": "" if entry.trump is None else str(entry.trump),
            "meld_ns": 0,
            "meld_ew": 0,
            "taken_ns": 0,
            "taken_ew": 0,
            "hand_outcome": scored.outcome.value,
            "score_ns": 0,
            "score_ew": 0,
            "seat_melds": list(entry.meld),
            "seat_taken": list(entry.taken),
            "seat_scores": list(scored.scores),
            "buried": entry.buried,
        }
    return {
        "outcome": entry.outcome.value,
        "declarer": entry.declarer,
        "bid": entry.bid,
        "trump": "" if entry.trump is None else str(entry.trump),
        "meld_ns": entry.meld[0],
        "meld_ew": entry.meld[1],
        "taken_ns": entry.taken[0],
        "taken_ew": entry.taken[1],
        "hand_outcome": scored.outcome.value,
        "score_ns": scored.scores[0],
        "score_ew": scored.scores[1],
    }


@dataclass(frozen=True)
class CheckedEntry:
    """A table's entry that passed every check, with its derived scores."""

    section: Section
    seating: Seating
    board: Board
    scored: HandScore


def _check_entry(
    *,
    event: Event,
    by: Player,
    section_name: str,
    round: int,
    table: int,
    board_number: int,
    entry: ScoreEntry,
) -> CheckedEntry:
    """Who may enter this table's board now, and whether the entry is possible."""
    _require_status(event, Event.Status.RUNNING)
    section = event.sections.filter(name=section_name).first()
    if section is None or section.size is None:
        raise InvalidInput(f"the event has no playing section {section_name!r}", field="section")
    movement = selectors.section_movement(event=event, section=section)
    seating = next((s for s in movement.seatings if s.round == round and s.table == table), None)
    if seating is None:
        raise InvalidInput(f"section {section.name} has no table {table} in round {round}")
    if board_number not in selectors.board_numbers(event=event, board_set=seating.board_set):
        raise InvalidInput(
            f"table {table} plays boards "
            f"{list(selectors.board_numbers(event=event, board_set=seating.board_set))} "
            f"in round {round}, not board {board_number}",
            field="board",
        )
    entries = selectors.entries_by_number(section=section)
    if not seating.playable(set(entries)):
        raise InvalidInput(f"table {table} sits out in round {round}")
    director = selectors.require_at_table(event=event, player=by, seating=seating, entries=entries)
    if not director:
        if round > event.current_round:
            raise InvalidInput(
                f"round {round} has not started: the current round is {event.current_round}",
                field="round",
            )
        if round <= event.closed_round:
            raise InvalidInput(
                f"round {round} is closed: the director enters its results", field="round"
            )
    board = event.boards.get(number=board_number)
    if director:
        scored = _score(event, board, entry, sees_cards=True)
    else:
        scored = _player_score(event, board, entry, by)
    return CheckedEntry(section, seating, board, scored)


def result_preview(
    *,
    event: Event,
    by: Player,
    section_name: str,
    round: int,
    table: int,
    board_number: int,
    entry: ScoreEntry,
) -> HandScore:
    """The scores an entry would get, checked exactly as ``result_enter`` checks it.

    Nothing is stored, but a refused preview counts against the player's allowance like a
    refused entry: it tells as much.
    """
    return _check_entry(
        event=event,
        by=by,
        section_name=section_name,
        round=round,
        table=table,
        board_number=board_number,
        entry=entry,
    ).scored


def result_enter(
    *,
    event: Event,
    by: Player,
    section_name: str,
    round: int,
    table: int,
    board_number: int,
    entry: ScoreEntry,
) -> Result:
    """Record a table's result; the director or a player seated there may enter it once."""
    checked = _check_entry(
        event=event,
        by=by,
        section_name=section_name,
        round=round,
        table=table,
        board_number=board_number,
        entry=entry,
    )
    # A player's entry waits for the other side's confirmation; the director's counts now.
    director = selectors.is_director(event=event, player=by)
    try:
        with transaction.atomic():
            result = Result.objects.create(
                section=checked.section,
                board=checked.board,
                round=round,
                table=table,
                sides=list(checked.seating.sides),
                entered_by=by,
                status=Result.Status.CONFIRMED if director else Result.Status.PENDING,
                confirmed_by=by if director else None,
                confirmed=timezone.now() if director else None,
                **_result_fields(event, entry, checked.scored),
            )
            if not director:
                _notice_result_to_confirm(result)
    except IntegrityError:
        raise InvalidInput(
            f"board {board_number} at table {table} in round {round} is already entered; "
            "the director can correct it"
        ) from None
    _advance_when_complete(event)
    return result


def _table_url(result: Result) -> str:
    """The table's page, where its players confirm, reject and enter its results."""
    return reverse(
        "tournaments:table",
        args=[result.section.event_id, result.section.name, result.round, result.table],
    )


def _user_ids(player_ids: set[int]) -> list[int]:
    return list(Player.objects.filter(pk__in=player_ids).values_list("user_id", flat=True))


def _notice_result_to_confirm(result: Result) -> None:
    """Tell the other side at the table that a result waits for them (in the transaction
    that stores it: a result that was refused noticed nobody)."""
    notices.notify_many(
        user_ids=_user_ids(selectors.result_opponents(result=result)),
        kind=notices.Kind.RESULT_TO_CONFIRM,
        key=f"result:{result.pk}:to-confirm",
        text=(
            f"{result.section.event.name}: {result.entered_by} entered board "
            f"{result.board.number} at table {result.table} (round {result.round}); "
            "confirm it or reject it"
        ),
        url=_table_url(result),
    )


def _notice_result_rejected(result: Result, review: Review) -> None:
    """Tell the side that entered a result that it was rejected, and why: the board is
    theirs to enter again."""
    by = "the director" if review.on_behalf else str(review.by)
    notices.notify_many(
        user_ids=_user_ids(selectors.result_entering_side(result=result)),
        kind=notices.Kind.RESULT_REJECTED,
        key=f"review:{review.pk}:rejected",
        text=(
            f"{result.section.event.name}: board {result.board.number} at table "
            f"{result.table} (round {result.round}) was rejected by {by}: "
            f"{review.reason}. Enter it again"
        ),
        url=f"{_table_url(result)}?board={result.board.number}",
    )


def _advance_when_complete(event: Event) -> None:
    """Move on past every round in which every table has entered every board.

    A director may have entered a later round already, so this can move more than one
    round. The conditional UPDATE moves each round once even when two last results of it
    arrive at once: the second finds the round moved and stops.
    """
    last = selectors.event_rounds(event=event)
    current = Event.objects.values_list("current_round", flat=True).get(pk=event.pk)
    while current < last and not selectors.round_missing_results(event=event, round=current):
        moved = Event.objects.filter(pk=event.pk, current_round=current).update(
            current_round=current + 1
        )
        if not moved:
            break
        current += 1
    event.refresh_from_db(fields=["current_round"])


@transaction.atomic
def event_round_advance(*, event: Event, by: Player) -> Event:
    """The director calls the next round; slow tables still enter the last one's boards."""
    event = _locked_for_director(event, by, Event.Status.RUNNING)
    last = selectors.event_rounds(event=event)
    if event.current_round >= last:
        raise InvalidInput(f"round {event.current_round} is the last round", field="round")
    event.current_round += 1
    event.save(update_fields=["current_round"])
    return event


@transaction.atomic
def event_round_close(*, event: Event, by: Player, round: int) -> Event:
    """Close the rounds up to ``round`` to players' entries; the director still enters them."""
    event = _locked_for_director(event, by, Event.Status.RUNNING)
    if round >= event.current_round:
        raise InvalidInput(
            f"only a past round can be closed: the current round is {event.current_round}",
            field="round",
        )
    event.closed_round = max(event.closed_round, round)
    event.save(update_fields=["closed_round"])
    return event


def _snapshot(result: Result) -> dict[str, Any]:
    if result.seat_scores:
        return {
            "outcome": result.outcome,
            "declarer": result.declarer,
            "bid": result.bid,
            "trump": result.trump or None,
            "meld": result.seat_melds,
            "taken": result.seat_taken,
            "buried": result.buried,
            "scores": result.seat_scores,
        }
    return {
        "outcome": result.outcome,
        "declarer": result.declarer,
        "bid": result.bid,
        "trump": result.trump or None,
        "meld": [result.meld_ns, result.meld_ew],
        "taken": [result.taken_ns, result.taken_ew],
        "score_ns": result.score_ns,
        "score_ew": result.score_ew,
    }


@transaction.atomic
def result_correct(
    *, event: Event, result: Result, by: Player, entry: ScoreEntry, reason: str = ""
) -> Result:
    """A director's correction, validated like an entry and kept in the audit trail."""
    _require_director(event, by)
    _require_status(event, Event.Status.RUNNING)
    # Lock the row so that two corrections at once each record the true "before".
    result = Result.objects.select_for_update().select_related("board").get(pk=result.pk)
    before = _snapshot(result)
    scored = _score(event, result.board, entry, sees_cards=True)
    for name, value in _result_fields(event, entry, scored).items():
        setattr(result, name, value)
    # The director's word settles the result: a pending one is confirmed by the correction.
    if result.status == Result.Status.PENDING:
        result.status, result.confirmed_by, result.confirmed = (
            Result.Status.CONFIRMED,
            by,
            timezone.now(),
        )
    result.save()
    Correction.objects.create(
        result=result, director=by, reason=reason, before=before, after=_snapshot(result)
    )
    return result


def _reviewable(event: Event, result: Result, by: Player) -> bool:
    """Whether ``by`` may confirm or reject ``result``: an opponent of the side that entered
    it, or the director (for the table); True for the director."""
    director = selectors.is_director(event=event, player=by)
    if not director and by.pk not in selectors.result_opponents(result=result):
        raise NotAllowed(
            "only a player of the other side at the table confirms or rejects this result"
        )
    _require_status(event, Event.Status.RUNNING)
    if result.status != Result.Status.PENDING:
        raise InvalidInput(f"board {result.board.number} at table {result.table} is confirmed")
    return director


def _review(result: Result, by: Player, action: str, *, on_behalf: bool, reason: str) -> Review:
    return Review.objects.create(
        event=result.section.event,
        section=result.section.name,
        round=result.round,
        table=result.table,
        board=result.board.number,
        action=action,
        by=by,
        on_behalf=on_behalf,
        entered_by=result.entered_by,
        reason=reason,
        result=_snapshot(result),
    )


def _locked_result(event: Event, result: Result) -> Result:
    """The result read again under a lock, so that a confirmation and a rejection at once
    cannot both act on it; NotFound when a rejection removed it meanwhile."""
    locked = (
        Result.objects.select_for_update(of=("self",))
        .select_related("board", "section__event", "entered_by")
        .filter(pk=result.pk, section__event=event)
        .first()
    )
    if locked is None:
        raise NotFound("no such result: it may have been rejected and is to be entered again")
    return locked


@transaction.atomic
def result_confirm(*, event: Event, result: Result, by: Player) -> Result:
    """An opponent of the side that entered the result agrees with it, and it counts.

    The director may confirm for the table (a player who left, a phone that died); the
    audit trail says so."""
    result = _locked_result(event, result)
    on_behalf = _reviewable(event, result, by)
    result.status, result.confirmed_by, result.confirmed = (
        Result.Status.CONFIRMED,
        by,
        timezone.now(),
    )
    result.save(update_fields=["status", "confirmed_by", "confirmed"])
    _review(result, by, Review.Action.CONFIRMED, on_behalf=on_behalf, reason="")
    return result


@transaction.atomic
def result_reject(*, event: Event, result: Result, by: Player, reason: str) -> Review:
    """An opponent disagrees: the result is removed, so the table enters the board again,
    and the rejection with its reason stays in the audit trail."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput("say why the result is wrong", field="reason")
    if len(reason) > 200:
        raise InvalidInput("a reason is at most 200 characters", field="reason")
    result = _locked_result(event, result)
    on_behalf = _reviewable(event, result, by)
    review = _review(result, by, Review.Action.REJECTED, on_behalf=on_behalf, reason=reason)
    _notice_result_rejected(result, review)
    result.delete()
    return review


def _rated_meetings(event: Event) -> list[RatedMeeting[int]]:
    """One meeting per table and round: the sides' players and North-South's share."""
    meetings = []
    for section in event.sections.exclude(size=None):
        entries = selectors.entries_by_number(section=section)
        players = {number: tuple(p.pk for p in e.players.all()) for number, e in entries.items()}
        by_table: dict[tuple[int, int], list[selectors.ScoredResult]] = {}
        for scored in selectors.section_scores(event=event, section=section).values():
            key = (scored.result.round, scored.result.table)
            by_table.setdefault(key, []).append(scored)
        for scored_results in by_table.values():
            sides = scored_results[0].result.sides
            if scored_results[0].seats:
                meetings.extend(_per_seat_meetings(scored_results, players))
                continue
            possible = sum(s.top for s in scored_results)
            if possible == 0:
                continue
            share = sum(s.ns for s in scored_results) / possible
            # A pair movement seats North-South then East-West; an individual one, each seat.
            side_of = load_game(event.variant).side_of
            ns_side = tuple(
                p for pos, n in enumerate(sides) if side_of(pos) == 0 for p in players[n]
            )
            ew_side = tuple(
                p for pos, n in enumerate(sides) if side_of(pos) == 1 for p in players[n]
            )
            meetings.append(RatedMeeting((ns_side, ew_side), share))
    return meetings


def _per_seat_meetings(
    scored_results: list[selectors.ScoredResult], players: dict[int, tuple[int, ...]]
) -> list[RatedMeeting[int]]:
    """Every player for themselves: each two players at a table meet head to head.

    A's share against B is 1/2 plus half the difference of their matchpoints over the
    top, over the round's boards: 1 when A tops every board and B gets zero.
    """
    sides = scored_results[0].result.sides
    possible = sum(s.top for s in scored_results)
    if possible == 0:
        return []
    meetings = []
    for a in range(len(sides)):
        for b in range(a + 1, len(sides)):
            difference = sum(s.seats[a] - s.seats[b] for s in scored_results)
            meetings.append(
                RatedMeeting(
                    (players[sides[a]], players[sides[b]]), 0.5 + difference / possible / 2
                )
            )
    return meetings


@transaction.atomic
def event_finish(*, event: Event, by: Player) -> Event:
    """Close the event: publish results and the secret, and rate the players once.

    Every result must be confirmed first: an unconfirmed one would be left out of the
    scores without anybody deciding so."""
    _require_director(event, by)
    pending = selectors.pending_results(event=event)
    if pending:
        boards = "; ".join(
            f"section {r.section.name} round {r.round} table {r.table} board {r.board.number}"
            for r in pending
        )
        raise InvalidInput(
            f"{len(pending)} result(s) wait for the opponents' confirmation: {boards}. "
            "Confirm them for the table, or have them confirmed or rejected"
        )
    claimed = Event.objects.filter(pk=event.pk, status=Event.Status.RUNNING).update(
        status=Event.Status.FINISHED, finished=timezone.now()
    )
    if not claimed:
        raise InvalidInput("only a running event can be finished")
    event.refresh_from_db()
    meetings = _rated_meetings(event)
    human_ratings_apply(event=event, meetings=meetings)
    _notice_results(event)
    return event


def _notice_results(event: Event) -> None:
    """Tell every player of the event that its results are published."""
    players = Entry.objects.filter(section__event=event).values_list("players__user_id", flat=True)
    notices.notify_many(
        user_ids=[user_id for user_id in players if user_id is not None],
        kind=notices.Kind.RESULTS_PUBLISHED,
        key=f"event:{event.pk}:results",
        text=f"The results of {event.name} are published",
        url=reverse("tournaments:event", args=[event.pk]),
    )


def human_ratings_apply(*, event: Event, meetings: list[RatedMeeting[int]]) -> None:
    """Rate the event's players once, from their skills before it (caller's transaction)."""
    player_ids = sorted({p for m in meetings for side in m.sides for p in side})
    for player_id in player_ids:
        HumanRating.objects.get_or_create(player_id=player_id, variant=event.variant)
    # Lock the ratings: two events finishing at once must not both start from the same
    # "before" and lose one update.
    ratings = {
        r.player_id: r
        for r in HumanRating.objects.select_for_update().filter(
            player_id__in=player_ids, variant=event.variant
        )
    }
    skills = event_skills(meetings, {pid: r.skill for pid, r in ratings.items()})
    for player_id, skill in skills.items():
        rating = ratings[player_id]
        HumanRatingChange.objects.create(
            event=event, player_id=player_id, before=rating.rating, after=skill.rating
        )
        rating.rating, rating.mu, rating.sigma = skill.rating, skill.mu, skill.sigma
        rating.events += 1
        rating.save(update_fields=["rating", "mu", "sigma", "events"])
