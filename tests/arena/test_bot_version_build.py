"""A new version is built by a task that is safe to deliver twice."""

from __future__ import annotations

from arena import services
from arena.models import Bot, BotVersion
from arena.tasks import bot_version_build_task
from tests.arena.conftest import GOOD_BOT


def test_a_pending_version_is_built_and_becomes_active(alices_bot: Bot) -> None:
    version = services.bot_version_submit(bot=alices_bot, data=GOOD_BOT, filename="bot.py")
    assert version.status == BotVersion.Status.PENDING

    assert bot_version_build_task.apply(args=[version.pk]).get() == "active"

    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE
    assert "compiled 1 module(s)" in version.build_log


def test_building_twice_does_the_work_once(alices_bot: Bot) -> None:
    version = services.bot_version_submit(bot=alices_bot, data=GOOD_BOT, filename="bot.py")
    bot_version_build_task.apply(args=[version.pk])
    log_after_first = BotVersion.objects.get(pk=version.pk).build_log

    assert bot_version_build_task.apply(args=[version.pk]).get() == "skipped"
    assert BotVersion.objects.get(pk=version.pk).build_log == log_after_first


def test_building_a_missing_version_is_a_no_op(db: None) -> None:
    assert bot_version_build_task.apply(args=[987654]).get() == "skipped"
