"""Named players, bots and helpers for the leagues tests (the arena's players reused)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from arena import services as arena_services
from arena.models import BotVersion, Match, Player
from arena.tasks import match_run_task
from leagues.models import Fixture, Round
from tests.people import *  # noqa: F403  (fixtures used by name)
from tests.people import FIRST_LEGAL_BOT, PASSWORD, client_for


def ready_version(
    owner: Player, name: str, source: bytes = FIRST_LEGAL_BOT, variant: str = "auction4"
) -> BotVersion:
    """A bot with one active version, marked active without the arena's validation game
    (tests/arena covers validation; the leagues only need active versions, quickly)."""
    bot = arena_services.bot_create(owner=owner, name=name, variant=variant)
    version = arena_services.bot_version_submit(bot=bot, data=source, filename="bot.py")
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    version.refresh_from_db()
    return version


@pytest.fixture
def carol(db: None) -> Player:
    return arena_services.player_register(username="carol", password=PASSWORD)


@pytest.fixture
def dave(db: None) -> Player:
    return arena_services.player_register(username="dave", password=PASSWORD)


@pytest.fixture
def organiser(db: None) -> Player:
    return arena_services.player_register(username="olga", password=PASSWORD)


@pytest.fixture
def organiser_client(organiser: Player) -> APIClient:
    return client_for(organiser)


def create_league(client: APIClient, **fields: Any) -> dict[str, Any]:
    body = {"name": "Club league", "variant": "auction4", "format": "round_robin", **fields}
    body.setdefault("boards_per_match", 1)
    response = client.post("/api/leagues/", body)
    assert response.status_code == 201, response.content
    return dict(response.json())


def open_season(client: APIClient, league_id: int, **fields: Any) -> dict[str, Any]:
    response = client.post(f"/api/leagues/{league_id}/seasons/", fields)
    assert response.status_code == 201, response.content
    return dict(response.json())


def enter(client: APIClient, league_id: int, version: BotVersion, **fields: Any) -> dict[str, Any]:
    response = client.post(
        f"/api/leagues/{league_id}/seasons/1/entries/", {"bot": version.bot_id, **fields}
    )
    assert response.status_code == 201, response.content
    return dict(response.json())


def schedule(client: APIClient, league_id: int, number: int, season: int = 1) -> Any:
    return client.post(f"/api/leagues/{league_id}/seasons/{season}/rounds/", {"number": number})


def play_round(round_: Round) -> None:
    """Run the round's matches through the arena's task, as a worker would."""
    for fixture in Fixture.objects.filter(round=round_, match__isnull=False):
        assert fixture.match_id is not None
        match_run_task.apply(args=(fixture.match_id,))


def end_match(match_id: int, *, score_x: int, status: str = Match.Status.DONE) -> None:
    """Write a match's end as the arena does, without playing it: the arena's own tests
    cover the play; here only the league's reading of the result matters."""
    Match.objects.filter(pk=match_id).update(
        status=status, score_x=score_x if status == Match.Status.DONE else None
    )
