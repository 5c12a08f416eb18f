"""Every write of the arena app: players, bots and bot versions."""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError
from rest_framework.authtoken.models import Token

from arena import notices
from arena.errors import InvalidInput, NotAllowed, NotFound
from arena.models import Bot, BotVersion, Player
from arena.queues.broker_contents import BrokerContents
from arena.runner import MatchOutcome, MatchPlan, VersionFiles, run_match
from arena.sandbox.deployment import sandbox_config, use_sandbox
from arena.services.requeue import resend_due, unread_queue_wait
from arena.uploads import InspectedUpload, UploadError, inspect_upload
from arena.variants import variant_names
from engine.registry import load_game

log = logging.getLogger(__name__)


@transaction.atomic
def player_register(*, username: str, password: str, display_name: str = "") -> Player:
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise InvalidInput(f"the username {username!r} is taken", field="username")
    user = User(username=username)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        raise InvalidInput(" ".join(error.messages), field="username") from None
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise InvalidInput(" ".join(error.messages), field="password") from None
    user.set_password(password)
    user.save()
    return Player.objects.create(user=user, display_name=display_name or username)


def player_token_create(*, player: Player) -> str:
    """Give the player a new API token; the previous one, if any, stops working."""
    with transaction.atomic():
        # Two requests at once (a double click) serialise here: the user has one token only.
        Player.objects.select_for_update().filter(pk=player.pk).get()
        Token.objects.filter(user_id=player.user_id).delete()
        return str(Token.objects.create(user_id=player.user_id).key)


def bot_create(*, owner: Player, name: str, variant: str, description: str = "") -> Bot:
    if variant not in variant_names():
        raise InvalidInput(
            f"unknown variant {variant!r}; choose one of {', '.join(variant_names())}",
            field="variant",
        )
    bot = Bot(owner=owner, name=name, variant=variant, description=description)
    bot.full_clean(validate_unique=False, validate_constraints=False)
    if Bot.objects.filter(owner=owner, name=name).exists():
        raise InvalidInput(f"you already have a bot named {name!r}", field="name")
    try:
        with transaction.atomic():
            bot.save()
    except IntegrityError:
        # Two concurrent requests with the same name: the constraint decides.
        raise InvalidInput(f"you already have a bot named {name!r}", field="name") from None
    return bot


def bot_of_owner(*, bot_id: int, by: Player, doing: str) -> Bot:
    """The bot ``by`` acts on as its owner (``doing``: what, for the refusal): NotFound when
    there is no such bot, NotAllowed when it is someone else's."""
    bot = Bot.objects.select_related("owner__user").filter(pk=bot_id).first()
    if bot is None:
        raise NotFound(f"there is no bot {bot_id}")
    if bot.owner_id != by.pk:
        raise NotAllowed(f"only the bot's owner can {doing}")
    return bot


def challenger_version(*, version: BotVersion, by: Player) -> BotVersion:
    """The side of a challenge ``by`` plays: a version of one of their own bots."""
    if version.bot.owner_id != by.pk:
        raise NotAllowed(
            f"bot {version.bot_id} ({version.bot}) is not yours: you can only challenge with "
            "a version of your own bot (name the opponent with 'opponent' or 'opponent_bot')"
        )
    return version


def player_token_of(*, player: Player, username: str) -> Player:
    """The player whose API token is replaced: a player does this for herself only."""
    if player.user.username != username:
        raise NotAllowed("a player creates API tokens for herself only")
    return player


def bot_version_submit(*, bot: Bot, data: bytes, filename: str) -> BotVersion:
    """Store a new version of ``bot`` and queue its build; store nothing if it is refused."""
    try:
        upload = inspect_upload(data, filename)
    except UploadError as error:
        raise InvalidInput(str(error), field="file") from None
    with transaction.atomic():
        # The bot row lock serialises concurrent uploads so numbers are 1, 2, 3... without gaps.
        Bot.objects.select_for_update().filter(pk=bot.pk).get()
        latest = bot.versions.aggregate(latest=Max("number"))["latest"] or 0
        version = BotVersion.objects.create(
            bot=bot,
            number=latest + 1,
            kind=upload.kind,
            source=upload.data,
            sha256=upload.sha256,
            size=upload.size,
            build_log=_upload_log(upload),
        )
        transaction.on_commit(lambda: bot_version_publish(version_id=version.pk))
    return version


def bot_version_publish(*, version_id: int) -> bool:
    """Send a version's validation to the workers. With the broker unreachable the version is
    marked ``publish_pending`` (it stays pending, nothing is lost) and the requeue job sends
    it once the broker is back; returns whether it was sent."""
    from arena.tasks import bot_version_validate_task

    # Recorded before the send: the re-queue job's clock (arena/services/requeue.py).
    BotVersion.objects.filter(pk=version_id).update(last_sent=timezone.now())
    try:
        bot_version_validate_task.delay(version_id)
    except KombuOperationalError as error:
        log.warning(
            "validation of version %s not sent, the broker is unreachable: %s", version_id, error
        )
        BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.PENDING).update(
            publish_pending=True
        )
        return False
    return True


def bot_version_validate(*, version_id: int) -> BotVersion | None:
    """Validate a pending version: static checks, then a short duplicate match against itself.

    The version becomes active when it answers the handshake and plays every board of the
    validation match without a fault, rejected otherwise (the reason and the bot's stderr
    go to the build log). An infrastructure fault leaves it pending and propagates, so the
    task retries. Returns None when the version is missing or no longer pending, so a
    task delivered twice does its work once.
    """
    version = (
        BotVersion.objects.select_related("bot")
        .filter(pk=version_id, status=BotVersion.Status.PENDING)
        .first()
    )
    if version is None:
        return None
    log: list[str] = []
    try:
        upload = inspect_upload(bytes(version.source), _filename_for(version))
    except UploadError as error:
        return _settle(version, BotVersion.Status.REJECTED, str(error), [f"build failed: {error}"])
    log.append(
        f"compiled {sum(name.endswith('.py') for name in upload.files)} module(s) "
        f"with Python {sys.version_info.major}.{sys.version_info.minor}"
    )
    variant = version.bot.variant
    boards = settings.VALIDATION_BOARDS
    files = VersionFiles(version.pk, version.kind, bytes(version.source))
    plan = MatchPlan(
        game=load_game(variant),
        rules=load_game(variant).rules_for(None),
        seed=version.pk,
        boards=boards,
        x=files,
        y=files,
        decision_ms=settings.MATCH_DECISION_MS,
        bank_ms=settings.MATCH_BANK_MS,
    )
    sandboxed = use_sandbox()
    outcome = run_match(plan, config=sandbox_config(), sandboxed=sandboxed)
    where = "in the sandbox" if sandboxed else "as a plain process"
    log.append(f"validation match against itself {where}: {boards} boards at two tables")
    faults = [
        record.fault for board in outcome.boards for record in board.tables.values() if record.fault
    ]
    log += _stderr_sections(outcome)
    if faults:
        first = faults[0]
        reason = f"validation failed: {first.kind} at seat {first.seat}: {first.reason}"
        return _settle(version, BotVersion.Status.REJECTED, reason, [*log, reason])
    return _settle(version, BotVersion.Status.ACTIVE, "", [*log, "status: active"])


def bot_version_requeue_stale(*, broker: BrokerContents) -> list[int]:
    """Send again the validation of pending versions never sent (the broker was unreachable)
    or whose message the broker no longer holds (lost with a broker restart), each at most
    once a ``MATCH_RESEND_AFTER_S`` period, whatever else the queue holds. Validation is
    idempotent, so a duplicate is harmless. A broker whose messages cannot be read (not
    Redis) gets the rule of arena/services/requeue.py's ``unread_queue_wait``."""
    now = timezone.now()
    pending = Q(status=BotVersion.Status.PENDING)
    if broker.readable:
        lost = pending & ~Q(pk__in=broker.versions)
    else:
        lost = pending & Q(sent_at__lt=now - unread_queue_wait(broker))
    return resend_due(
        BotVersion.objects.all(),
        never_sent=pending & Q(publish_pending=True),
        lost=lost,
        publish=lambda version_id: bot_version_publish(version_id=version_id),
        now=now,
    )


def _settle(version: BotVersion, status: str, reason: str, log: list[str]) -> BotVersion:
    settled = BotVersion.objects.filter(pk=version.pk, status=BotVersion.Status.PENDING).update(
        status=status,
        status_reason=reason,
        build_log=version.build_log + "\n".join(log) + "\n",
    )
    version.refresh_from_db()
    if settled:
        _notice_settled(version)
    return version


def _notice_settled(version: BotVersion) -> None:
    """Tell the bot's owner, who waits on the validation (arena/notices.py)."""
    bot = version.bot
    active = version.status == BotVersion.Status.ACTIVE
    verdict = "is active" if active else f"was rejected: {version.status_reason}"
    notices.notify(
        user_id=bot.owner.user_id,
        kind=notices.Kind.VERSION_ACTIVE if active else notices.Kind.VERSION_REJECTED,
        key=f"version:{version.pk}:{version.status}",
        text=f"{bot.name} version {version.number} {verdict}",
        url=reverse("arena:bot", args=[bot.pk]),
    )


BUILD_LOG_STDERR_CHARS = 8000
"""How much of one bot process's stderr the build log keeps (its start and its end)."""


def _stderr_sections(outcome: MatchOutcome) -> list[str]:
    """The validation match's stderr for the log, one section per distinct text.

    The version plays itself at every seat, so its processes usually write the same thing:
    each text is shown once, with the seats that wrote it.
    """
    writers: dict[str, list[str]] = {}
    for table, captured in outcome.stderr.items():
        for seat, text in sorted(captured.by_seat.items()):
            writers.setdefault(text, []).append(f"table {table} seat {seat}")
    return [
        f"stderr of {', '.join(seats)}:\n{clip_text(text, BUILD_LOG_STDERR_CHARS)}"
        for text, seats in writers.items()
    ]


def clip_text(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters in the middle, saying how many were cut.

    The start says how the bot began; the end holds the traceback of a crash.
    """
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}\n[{cut} characters cut here]\n{text[-tail:]}"


def _filename_for(version: BotVersion) -> str:
    return "bot.zip" if version.kind == BotVersion.Kind.ZIP else "bot.py"


def _upload_log(upload: InspectedUpload) -> str:
    lines = [f"received {upload.kind} of {upload.size} bytes, sha256 {upload.sha256}"]
    lines += [f"  {name} ({size} bytes)" for name, size in sorted(upload.files.items())]
    return "\n".join(lines) + "\n"
