"""A second account is not free: registrations are bounded from every address together, and
a new account waits ``RATED_PLAY_MIN_ACCOUNT_AGE_S`` before it joins a robot event
(arena/newcomers.py). Casual tables and challenges of a bot are open to it at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from arena.models import Player
from arena.newcomers import rated_play_refusal
from robot_events.models import RobotEntry
from tables.models import Challenge
from tests.arena.conftest import PASSWORD
from tests.robot_events.conftest import new_director, new_event

DAY = 24 * 3600


def _register(name: str, address: str) -> Any:
    client = APIClient(REMOTE_ADDR=address)
    return client.post("/api/players/", {"username": name, "password": PASSWORD})


def test_registrations_from_many_addresses_are_bounded_from_everyone_together(
    db: None, settings: Any
) -> None:
    settings.REGISTRATION_RATE = "20/hour"
    settings.REGISTRATION_RATE_OVERALL = "5/hour"
    answers = [_register(f"puppet{n}", f"198.51.100.{n}") for n in range(8)]
    assert [answer.status_code for answer in answers] == [201] * 5 + [429] * 3
    assert "5 registrations per hour from everyone together" in answers[-1].json()["detail"]
    assert int(answers[-1]["Retry-After"]) > 0
    assert Player.objects.count() == 5


@pytest.fixture
def newcomer(db: None, settings: Any) -> APIClient:
    """An account registered through the API a moment ago, under a day's wait."""
    settings.RATED_PLAY_MIN_ACCOUNT_AGE_S = DAY
    registered = _register("newcomer", "192.0.2.44")
    assert registered.status_code == 201
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {registered.json()['token']}")
    return client


def _age(username: str, seconds: float) -> None:
    User.objects.filter(username=username).update(
        date_joined=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_new_account_joins_a_robot_event_only_once_it_is_a_day_old(
    newcomer: APIClient,
) -> None:
    event = new_event(new_director())
    refused = newcomer.post(f"/api/robots/{event.pk}/entries/")
    assert refused.status_code == 403, refused.content
    assert "once it is 24 hours old" in refused.json()["detail"]
    assert not RobotEntry.objects.exists()
    _age("newcomer", DAY - 120)
    assert newcomer.post(f"/api/robots/{event.pk}/entries/").status_code == 403
    _age("newcomer", DAY + 1)
    assert newcomer.post(f"/api/robots/{event.pk}/entries/").status_code == 201


def test_the_event_page_refuses_a_new_accounts_entry_with_the_reason(
    db: None, settings: Any
) -> None:
    settings.RATED_PLAY_MIN_ACCOUNT_AGE_S = DAY
    event = new_event(new_director())
    User.objects.create_user("erin", password=PASSWORD)
    browser = Client()
    assert browser.login(username="erin", password=PASSWORD)
    refused = browser.post(f"/robots/{event.pk}/join/")
    assert refused.status_code == 403
    assert not RobotEntry.objects.exists()


def test_a_new_account_challenges_a_bot_at_once(newcomer: APIClient) -> None:
    challenge = {"variant": "twohand", "opponent": {"kind": "reference", "name": "random"}}
    accepted = newcomer.post("/api/play/challenges/", {**challenge, "boards": 1}, format="json")
    assert accepted.status_code == 201, accepted.content
    assert Challenge.objects.count() == 1


def test_a_new_account_plays_casual_tables_at_once(newcomer: APIClient) -> None:
    started = newcomer.post(
        "/api/play/tables/",
        {"variant": "twohand", "bots": [{"kind": "reference", "name": "random"}]},
        format="json",
    )
    assert started.status_code == 201, started.content


def test_staff_and_settings_without_a_wait_let_any_account_play(
    alice: Player, settings: Any
) -> None:
    settings.RATED_PLAY_MIN_ACCOUNT_AGE_S = DAY
    assert "24 hours old" in (rated_play_refusal(alice.user) or "")
    alice.user.is_staff = True
    assert rated_play_refusal(alice.user) is None
    alice.user.is_staff = False
    settings.RATED_PLAY_MIN_ACCOUNT_AGE_S = 0
    assert rated_play_refusal(alice.user) is None
