"""Every write of the arena app: players, bots and bot versions."""

from __future__ import annotations

import sys

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max

from arena.errors import InvalidInput
from arena.models import Bot, BotVersion, Player
from arena.uploads import InspectedUpload, UploadError, inspect_upload
from arena.variants import Variant


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


def bot_create(*, owner: Player, name: str, variant: str, description: str = "") -> Bot:
    if variant not in Variant.values:
        raise InvalidInput(
            f"unknown variant {variant!r}; choose one of {', '.join(Variant.values)}",
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
        from arena.tasks import bot_version_build_task

        transaction.on_commit(lambda: bot_version_build_task.delay(version.pk))
    return version


def bot_version_build(*, version_id: int) -> BotVersion | None:
    """Build a pending version: unpack it and byte-compile every module.

    Returns None when the version does not exist or is no longer pending, so a task that is
    delivered twice does its work once.
    """
    with transaction.atomic():
        version = (
            BotVersion.objects.select_for_update()
            .filter(pk=version_id, status=BotVersion.Status.PENDING)
            .first()
        )
        if version is None:
            return None
        try:
            upload = inspect_upload(bytes(version.source), _filename_for(version))
        except UploadError as error:
            version.status = BotVersion.Status.REJECTED
            version.status_reason = str(error)
            version.build_log += f"build failed: {error}\n"
        else:
            version.status = BotVersion.Status.ACTIVE
            version.status_reason = ""
            version.build_log += (
                f"compiled {sum(name.endswith('.py') for name in upload.files)} module(s) "
                f"with Python {sys.version_info.major}.{sys.version_info.minor}\n"
                f"entry point: bot.py\nstatus: active\n"
            )
        version.save(update_fields=["status", "status_reason", "build_log"])
    return version


def _filename_for(version: BotVersion) -> str:
    return "bot.zip" if version.kind == BotVersion.Kind.ZIP else "bot.py"


def _upload_log(upload: InspectedUpload) -> str:
    lines = [f"received {upload.kind} of {upload.size} bytes, sha256 {upload.sha256}"]
    lines += [f"  {name} ({size} bytes)" for name, size in sorted(upload.files.items())]
    return "\n".join(lines) + "\n"
