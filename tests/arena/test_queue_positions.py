"""A queued match's page and a pending version on its bot's page say where it stands in its
queue (arena/queues/routing.py): the items of the same queue, created before it, still waiting."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arena import services
from arena.models import BotVersion, Match, Player
from arena.services.matches import match_create
from tests.arena.conftest import GOOD_BOT, client_for

# Not transactional: the commit that would send each item to a worker never comes, so
# everything created here stays queued or pending.
pytestmark = pytest.mark.django_db


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def _active(owner: Player, name: str) -> BotVersion:
    bot = services.bot_create(owner=owner, name=name, variant="auction4")
    version = services.bot_version_submit(bot=bot, data=GOOD_BOT, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    version.refresh_from_db()
    return version


def test_a_queued_match_counts_only_the_waiting_items_of_its_own_queue(alice: Player) -> None:
    x, y = _active(alice, "x"), _active(alice, "y")
    first_matchmaking = match_create(version_x=x, version_y=y, boards=50, kind="matchmaking")
    first_challenge = match_create(version_x=x, version_y=y, boards=4)
    league = match_create(version_x=x, version_y=y, boards=50, kind="league")
    upload = services.bot_version_submit(bot=x.bot, data=GOOD_BOT, filename="bot.py")
    challenge = match_create(version_x=x, version_y=y, boards=4)
    # A match being played holds a worker, not a place in the queue.
    Match.objects.filter(pk=first_challenge.pk).update(status=Match.Status.RUNNING)

    # Behind the upload's validation only: the matchmaking and league matches are in the
    # background queue.
    assert "queued, 2nd in the queue" in _text(Client().get(f"/matches/{challenge.pk}/").content)
    assert "queued, 2nd in the queue" in _text(Client().get(f"/matches/{league.pk}/").content)
    assert "queued, 1st in the queue" in _text(
        Client().get(f"/matches/{first_matchmaking.pk}/").content
    )
    bot_page = _text(Client().get(f"/bots/{x.bot_id}/").content)
    assert f"v{upload.number} pending 1st in the queue" in bot_page

    detail = client_for(None).get(f"/api/matches/{challenge.pk}/").json()
    assert detail["queue_position"] == 2


def test_a_long_challenge_waits_in_the_background_queue(alice: Player) -> None:
    x, y = _active(alice, "x"), _active(alice, "y")
    match_create(version_x=x, version_y=y, boards=50, kind="matchmaking")
    long_challenge = match_create(version_x=x, version_y=y, boards=100)
    short_challenge = match_create(version_x=x, version_y=y, boards=4)
    # The long challenge is behind the matchmaking match, and the short one behind nothing.
    assert "queued, 2nd in the queue" in _text(
        Client().get(f"/matches/{long_challenge.pk}/").content
    )
    assert "queued, 1st in the queue" in _text(
        Client().get(f"/matches/{short_challenge.pk}/").content
    )


def test_a_match_or_version_no_longer_waiting_shows_no_place(alice: Player) -> None:
    x, y = _active(alice, "x"), _active(alice, "y")
    match = match_create(version_x=x, version_y=y, boards=4)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.DONE)
    assert "in the queue" not in _text(Client().get(f"/matches/{match.pk}/").content)
    assert client_for(None).get(f"/api/matches/{match.pk}/").json()["queue_position"] is None
    assert "in the queue" not in _text(Client().get(f"/bots/{x.bot_id}/").content)
