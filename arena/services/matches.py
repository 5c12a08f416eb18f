"""Matches: create, claim, run, complete, release; safe under redelivery and worker death.

A match goes queued -> running -> done (or failed). A worker *claims* it with one
conditional UPDATE (queued, or running with a lapsed lease -> running with this worker's
token); zero rows updated means another worker has it. While playing, the worker renews
its short lease every few seconds (a heartbeat between decisions), so the match of a dead
worker is taken over within a minute. The results, the replays, the completion sequence number and
the rating update are written in one transaction that first checks the claim is still this
worker's, so a match completes exactly once whatever is delivered twice. Every game is
replayed through the engine before that transaction opens: the one lock that orders all
completions is held only for the sequence number, the totals and the ratings.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from arena import notices
from arena.errors import InvalidInput
from arena.models import Board, BotVersion, CompletionCounter, Game, Match, Player, Replay
from arena.queues.broker_contents import BrokerContents
from arena.queues.routing import match_queue
from arena.runner import STARTUP_MS, MatchOutcome, MatchPlan, VersionFiles, run_match
from arena.sandbox import InfrastructureFault
from arena.sandbox.deployment import sandbox_config, use_sandbox
from arena.seeding import commitment, match_seed, new_secret
from arena.services.control_value import control_choices
from arena.services.controls import (
    REFERENCE_MIN_BOARDS,
    PlayedControls,
    controls_apply,
    controls_play,
)
from arena.services.pairings import pairing_of
from arena.services.ratings import rating_apply
from arena.services.requeue import resend_due, unread_queue_wait
from arena.variants import variant_names
from bots.controls import random_side
from bots.duplicate import side_scores
from engine.registry import load_game

logger = logging.getLogger(__name__)

MAX_BOARDS = 1000
REPLAY_FORMAT = "pinochle-arena/game-replay"
REPLAY_VERSION = 1
FAULTS_TO_DISABLE = 5
"""A version is disabled once it has caused this many faults ..."""
FAULT_RATE_TO_DISABLE = 0.05
"""... and they are at least this share of the games it played."""


def match_create(
    *,
    version_x: BotVersion,
    version_y: BotVersion,
    boards: int,
    kind: str = Match.Kind.CHALLENGE,
    requested_by: Player | None = None,
    seed: int | None = None,
    decision_ms: int | None = None,
    bank_ms: int | None = None,
    rated: bool = True,
    rule_overrides: dict[str, Any] | None = None,
) -> Match:
    """Queue a duplicate match; the worker starts it once this transaction commits.

    A rated match is always dealt from a secret drawn here, whose commitment is published
    now and which is revealed when the match is done. Only an unrated match may be dealt
    from a ``seed`` the requester chooses.
    """
    if seed is not None and rated:
        raise InvalidInput(
            "a chosen seed is only allowed for an unrated match (send rated=false): "
            "rated matches are dealt from a secret the server draws and reveals at the end",
            field="seed",
        )
    variant = version_x.bot.variant
    if version_y.bot.variant != variant:
        raise InvalidInput(
            f"{version_x} plays {variant} but {version_y} plays {version_y.bot.variant}"
        )
    if variant not in variant_names():
        raise InvalidInput(f"matches of {variant} are not available yet", field="variant")
    for version in (version_x, version_y):
        if version.status != BotVersion.Status.ACTIVE:
            raise InvalidInput(f"{version} is {version.status}, not active")
    if version_x.pk == version_y.pk:
        raise InvalidInput("a version cannot play a match against itself")
    if not 1 <= boards <= MAX_BOARDS:
        raise InvalidInput(f"boards must be between 1 and {MAX_BOARDS}", field="boards")
    try:
        rules = load_game(variant).rules_for(rule_overrides or {})
    except ValueError as error:
        raise InvalidInput(str(error), field="rules") from None
    secret = new_secret() if seed is None else None
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            rules=rules.to_json(),
            seed=seed,
            seed_chosen=seed is not None,
            seed_commitment="" if secret is None else commitment(secret),
            seed_secret="" if secret is None else secret.hex(),
            board_count=boards,
            version_x=version_x,
            version_y=version_y,
            decision_ms=decision_ms or settings.MATCH_DECISION_MS,
            bank_ms=bank_ms or settings.MATCH_BANK_MS,
            kind=kind,
            rated=rated,
            requested_by=requested_by,
        )
        _enqueue_on_commit(match.pk)
    return match


def _enqueue_on_commit(match_id: int) -> None:
    transaction.on_commit(lambda: match_publish(match_id=match_id))


def match_publish(*, match_id: int) -> bool:
    """Send the match's task to its queue (``_queue_of``). With the broker unreachable, the
    match stays queued and is marked for the periodic re-queue, which sends it once the
    broker is back; False then."""
    from arena.tasks import match_run_task

    # Recorded before the send, so that the re-queue job never takes a message that is on
    # its way for a lost one (arena/services/requeue.py).
    Match.objects.filter(pk=match_id).update(last_sent=timezone.now())
    try:
        match_run_task.apply_async(args=(match_id,), queue=_queue_of(match_id))
    except KombuOperationalError as error:
        logger.warning("match %s: the broker is unreachable, sent later: %s", match_id, error)
        Match.objects.filter(pk=match_id, status=Match.Status.QUEUED).update(publish_pending=True)
        return False
    return True


def _queue_of(match_id: int) -> str:
    """Where a match's message goes, decided here only: a short match a person asked for (a
    challenge) to the interactive queue, long challenges, the matchmaker's and league
    fixtures to the background queue (arena/queues/routing.py)."""
    row = Match.objects.filter(pk=match_id).values_list("kind", "board_count").first()
    kind, boards = row if row is not None else (Match.Kind.CHALLENGE, 1)
    return match_queue(kind, boards)


def _enqueue_after(match_id: int, moment: Any) -> None:
    from arena.tasks import match_run_task

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    delay = max(1.0, (moment - timezone.now()).total_seconds() + 1.0)
    match_run_task.apply_async(args=(match_id,), countdown=delay, queue=_queue_of(match_id))


def _lease(match: Match) -> timedelta:
    """How long a claim lasts without a heartbeat: longer than any wait between two."""
    longest_wait_s = max(match.decision_ms, STARTUP_MS) / 1000
    return timedelta(
        seconds=max(settings.MATCH_LEASE_S, longest_wait_s + 2 * settings.MATCH_HEARTBEAT_S)
    )


def match_claim(*, match_id: int, token: str) -> Match | None:
    """Take the match for this worker, or return None if another worker holds it."""
    match = Match.objects.filter(pk=match_id).only("decision_ms").first()
    if match is None:
        return None
    now = timezone.now()
    claimed = (
        Match.objects.filter(pk=match_id)
        .filter(Q(status=Match.Status.QUEUED) | Q(status=Match.Status.RUNNING, lease_until__lt=now))
        .update(
            status=Match.Status.RUNNING,
            claim_token=token,
            lease_until=now + _lease(match),
            attempts=F("attempts") + 1,
            started=Coalesce("started", now),
        )
    )
    if claimed != 1:
        return None
    return Match.objects.select_related("version_x", "version_y").get(pk=match_id)


class _Heartbeat:
    """Renews the worker's lease, at most every MATCH_HEARTBEAT_S however often it is called.

    The runner calls it between decisions and around bot start-ups, so the lease stays live
    exactly as long as the match makes progress, and lapses soon after its worker dies.
    """

    def __init__(self, match: Match, token: str) -> None:
        self.match = match
        self.token = token
        self.last = time.monotonic()

    def __call__(self) -> None:
        now = time.monotonic()
        if now - self.last >= settings.MATCH_HEARTBEAT_S:
            self.last = now
            self.renew()

    def renew(self) -> None:
        Match.objects.filter(
            pk=self.match.pk, claim_token=self.token, status=Match.Status.RUNNING
        ).update(lease_until=timezone.now() + _lease(self.match))


def match_run(*, match_id: int) -> str:
    """Claim, play and complete a match. Raises InfrastructureFault for a retry."""
    token = secrets.token_hex(16)
    match = match_claim(match_id=match_id, token=token)
    if match is None:
        held = Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).first()
        if held is not None and held.lease_until is not None:
            # Another worker holds a live lease: it finishes the match, or its lease lapses
            # and this later look takes over. Nothing is lost if that worker just died.
            _enqueue_after(match_id, held.lease_until)
            return "held"
        return "not claimed"
    plan = MatchPlan(
        game=load_game(match.variant),
        rules=load_game(match.variant).rules_from_json(match.rules),
        seed=_dealing_seed(match),
        boards=match.board_count,
        x=_files(match.version_x),
        y=_files(match.version_y),
        decision_ms=match.decision_ms,
        bank_ms=match.bank_ms,
    )
    heartbeat = _Heartbeat(match, token)
    try:
        outcome = run_match(
            plan, config=sandbox_config(), sandboxed=use_sandbox(), heartbeat=heartbeat
        )
    except InfrastructureFault as fault:
        match_release(match_id=match_id, token=token, error=str(fault))
        raise
    # Each control runs only where the finished matches show it pays for its CPU.
    choices = (
        control_choices(
            variant=match.variant,
            rules=match.rules,
            match_id=match.pk,
            pairing=pairing_of(match),
        )
        if plan.boards >= REFERENCE_MIN_BOARDS
        else None
    )
    controls = controls_play(
        game=plan.game,
        rules=plan.rules,
        match_seed=plan.seed,
        boards=plan.boards,
        heartbeat=heartbeat,
        played=outcome.boards,
        random_side=random_side(plan.game, plan.x.source, plan.y.source),
        choices=choices,
    )
    heartbeat.renew()  # the lease covers storing the results
    completed = match_complete(match_id=match_id, token=token, outcome=outcome, controls=controls)
    return "done" if completed else "lost"


def _dealing_seed(match: Match) -> int:
    if match.seed_secret:
        return match_seed(bytes.fromhex(match.seed_secret))
    if match.seed is None:
        raise InvalidInput(f"match {match.pk} has neither a seed nor a secret")
    return match.seed


def _files(version: BotVersion) -> VersionFiles:
    return VersionFiles(version.pk, version.kind, bytes(version.source))


def match_release(*, match_id: int, token: str, error: str) -> None:
    """Give a match back to the queue after an infrastructure fault (nothing is scored)."""
    Match.objects.filter(pk=match_id, claim_token=token, status=Match.Status.RUNNING).update(
        status=Match.Status.QUEUED, claim_token="", lease_until=None, error=error
    )


def match_fail(*, match_id: int, error: str) -> None:
    """Give up on a match whose infrastructure kept failing; it is never rated."""
    Match.objects.filter(pk=match_id).exclude(status=Match.Status.DONE).update(
        status=Match.Status.FAILED,
        claim_token="",
        lease_until=None,
        error=error,
        finished=timezone.now(),
    )


@dataclass(frozen=True)
class ReplayedGame:
    """One table's game as it will be stored, its replay built by the engine."""

    table: str
    seat_versions: list[int]
    team_scores: list[int]
    result: Any
    fault: Any
    replay: dict[str, Any]


@dataclass(frozen=True)
class ReplayedBoard:
    number: int
    seed: int
    dealer: int
    games: list[ReplayedGame]


def match_replays(*, match: Match, outcome: MatchOutcome) -> list[ReplayedBoard]:
    """Every game of the outcome replayed through the engine (an illegal move raises), with
    its scores and replay document; reads only the match's fixed fields, never the database,
    so that completion does this slow part before it takes any lock."""
    game = load_game(match.variant)
    rules = game.rules_from_json(match.rules)
    versions = (match.version_x_id, match.version_y_id)
    seatings = game.seatings
    boards = []
    for duplicate in outcome.boards:
        first = next(iter(duplicate.tables.values()))
        games = []
        for table, record in duplicate.tables.items():
            seats = [versions[seatings[table][seat]] for seat in range(game.players)]
            state = game.with_rules(rules).new_initial_state(seed=record.seed, dealer=record.dealer)
            for move in record.moves:
                state.apply(game.parse_action(move.action))
            hand = game.write_replay(state)
            scores = side_scores(record, game, rules, seatings[table])
            fault = None if record.fault is None else record.fault.to_json()
            games.append(
                ReplayedGame(
                    table=table,
                    seat_versions=seats,
                    team_scores=scores,
                    result=None if record.result is None else record.result.to_json(),
                    fault=fault,
                    replay={
                        "format": REPLAY_FORMAT,
                        "version": REPLAY_VERSION,
                        "match": match.pk,
                        "variant": match.variant,
                        "board": duplicate.board,
                        "table": table,
                        "seat_versions": seats,
                        "hand": hand.to_json(),
                        "timings_ms": [move.elapsed_ms for move in record.moves],
                        "fault": fault,
                        "team_scores": scores,
                    },
                )
            )
        boards.append(ReplayedBoard(duplicate.board, duplicate.seed, first.dealer, games))
    return boards


def match_complete(
    *,
    match_id: int,
    token: str,
    outcome: MatchOutcome,
    controls: PlayedControls | None = None,
) -> bool:
    """Store the results (with the reference pairing's ``controls``, if played) and apply
    the ratings, once; False if the claim was lost."""
    # A first look without a lock spares the replays of a claim already lost; the claim is
    # checked again under the row lock, which is what makes the completion happen once.
    match = (
        Match.objects.filter(pk=match_id, status=Match.Status.RUNNING, claim_token=token)
        .select_related("version_x", "version_y")
        .first()
    )
    if match is None:
        logger.warning("match %s: claim lost before completion; results discarded", match_id)
        return False
    replays = match_replays(match=match, outcome=outcome)
    CompletionCounter.objects.get_or_create(pk=1)
    with transaction.atomic():
        match = (
            Match.objects.select_for_update()
            .select_related("version_x", "version_y")
            .get(pk=match_id)
        )
        if match.status != Match.Status.RUNNING or match.claim_token != token:
            logger.warning("match %s: claim lost before completion; results discarded", match_id)
            return False
        # The games belong to this match alone, whose row is locked: written before the
        # completion lock, so other completions do not wait for them.
        _store_games(match, replays)
        # One row lock orders every completion: the sequence number, the reference totals
        # and the rating update below happen in exactly this order, once per match.
        counter = CompletionCounter.objects.select_for_update().get(pk=1)
        counter.last_seq += 1
        counter.save(update_fields=["last_seq"])
        summary = outcome.summary
        match.status = Match.Status.DONE
        # Done: the seed is revealed (with the secret, through the API) for verification.
        match.seed = _dealing_seed(match)
        match.finished = timezone.now()
        match.completion_seq = counter.last_seq
        match.claim_token = ""
        match.lease_until = None
        match.error = ""
        match.score_x = summary.total
        match.share_x = summary.share
        match.mean_x = summary.mean
        match.ci95 = summary.ci95
        match.faults = outcome.faults
        match.board_results = [board.result for board in outcome.boards]
        match.table_seconds = outcome.cpu_seconds
        controls_apply(match=match, controls=controls)
        match.stderr = {
            table: {str(seat): text for seat, text in logs.by_seat.items()}
            for table, logs in outcome.stderr.items()
        }
        match.save()
        # Under the completion lock: the versions' counters are updated one match at a
        # time, so two matches of the same pair never lock them in opposite orders.
        _count_faults(match, outcome)
        if match.rated:
            rating_apply(match=match)
        _notice_played(match)
    return True


def _notice_played(match: Match) -> None:
    """Tell the person who asked for a challenge that it was played, with the result."""
    if match.kind != Match.Kind.CHALLENGE or match.requested_by_id is None:
        return
    requester = Player.objects.filter(pk=match.requested_by_id).values_list("user_id", flat=True)
    x, y = match.version_x, match.version_y
    notices.notify_many(
        user_ids=list(requester),
        kind=notices.Kind.MATCH_PLAYED,
        key=f"match:{match.pk}",
        text=f"Your challenge {x.bot.name} v{x.number} against {y.bot.name} v{y.number} was "
        f"played: {match.score_x:+d} over {match.board_count} boards",
        url=reverse("arena:match", args=[match.pk]),
    )


def _store_games(match: Match, replays: list[ReplayedBoard]) -> None:
    for replayed in replays:
        board = Board.objects.create(
            variant=match.variant, rules=match.rules, seed=replayed.seed, dealer=replayed.dealer
        )
        for played in replayed.games:
            row = Game.objects.create(
                match=match,
                board=board,
                number=replayed.number,
                table=played.table,
                seat_versions=played.seat_versions,
                team_scores=played.team_scores,
                result=played.result,
                fault=played.fault,
            )
            Replay.objects.create(game=row, document=played.replay)


def _count_faults(match: Match, outcome: MatchOutcome) -> None:
    by_version = {match.version_x_id: 0, match.version_y_id: 0}
    versions = (match.version_x_id, match.version_y_id)
    seatings = load_game(match.variant).seatings
    for duplicate in outcome.boards:
        for table, record in duplicate.tables.items():
            if record.fault is not None:
                by_version[versions[seatings[table][record.fault.seat]]] += 1
    games = len(seatings) * len(outcome.boards)
    for version_id, faults in by_version.items():
        BotVersion.objects.filter(pk=version_id).update(
            fault_count=F("fault_count") + faults, games_played=F("games_played") + games
        )
        version = BotVersion.objects.get(pk=version_id)
        if (
            version.status == BotVersion.Status.ACTIVE
            and version.fault_count >= FAULTS_TO_DISABLE
            and version.fault_count >= FAULT_RATE_TO_DISABLE * version.games_played
        ):
            version.status = BotVersion.Status.DISABLED
            version.status_reason = (
                f"disabled after {version.fault_count} faults in {version.games_played} games "
                f"(the limit is {FAULTS_TO_DISABLE} faults and {FAULT_RATE_TO_DISABLE:.0%} of "
                f"games); the last match with faults was {match.pk}"
            )
            version.save(update_fields=["status", "status_reason"])


def match_requeue_stale(*, broker: BrokerContents) -> list[int]:
    """Send again the message of every match that has lost it, or whose worker died; each
    at most once a ``MATCH_RESEND_AFTER_S`` period, whatever else the queue holds.

    - never sent (``publish_pending``: the broker was unreachable): nothing can be queued;
    - queued, and the broker holds no message for it (a broker restarted without
      persistence lost it); a queued match waiting its turn, however long, has its message;
    - running with a lapsed lease (its worker died), and no message for it waits in a queue
      (the dead worker's own delivery stays unacknowledged until the visibility timeout).

    A broker whose messages cannot be read (not Redis) gets the old rule for queued matches:
    sent again when the queue is empty, else once per visibility timeout.
    """
    now = timezone.now()
    lapsed = Q(status=Match.Status.RUNNING, lease_until__lt=now)
    queued = Q(status=Match.Status.QUEUED)
    if broker.readable:
        stale = (lapsed & ~Q(pk__in=broker.matches_waiting)) | (
            queued & ~Q(pk__in=broker.matches_waiting | broker.matches_held)
        )
    else:
        stale = lapsed | (queued & Q(sent_at__lt=now - unread_queue_wait(broker)))
    return resend_due(
        Match.objects.all(),
        never_sent=queued & Q(publish_pending=True),
        lost=stale,
        publish=lambda match_id: match_publish(match_id=match_id),
        now=now,
    )
