"""The API fuzzed from its own OpenAPI document: no input, valid or not, gets a server error,
and every response matches what the document says (status, content type, headers, body).

Bounded by examples, not by time: 25 generated requests per operation, valid and invalid,
derandomized (the same requests every run), as an anonymous client and as a signed-in
player, against a few real objects so that lookups find something. Schemathesis' explicit
and coverage phases are left out: their number of requests grows with the schema, not with
a budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.management import call_command
from django.core.wsgi import get_wsgi_application
from django.test import override_settings
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from arena import services
from arena.http import caching
from arena.models import BotVersion, Player
from leagues import services as league_services
from tests.arena.conftest import FIRST_LEGAL_BOT, PASSWORD
from tournaments import services as tournament_services

EXAMPLES_PER_OPERATION = 25

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

fuzz_settings = settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[Player]:
    """A player with a bot and a version, a league with a season, an event: things to find.

    Built once and committed; each test's transaction is rolled back, so every operation is
    fuzzed against this same world. Emptied at the end, as Django's TransactionTestCase does.
    """
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=fast):
        player = services.player_register(username="fuzzer", password=PASSWORD)
        other = services.player_register(username="other", password=PASSWORD)
        for owner in (player, other):
            name = f"{owner.user.username}-bot"
            bot = services.bot_create(owner=owner, name=name, variant="auction4")
            version = services.bot_version_submit(bot=bot, data=FIRST_LEGAL_BOT, filename="b.py")
            BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
        league = league_services.league_create(
            organiser=player, name="Fuzz league", variant="auction4", format="round_robin"
        )
        league_services.season_create(league=league)
        tournament_services.event_create(
            director=player, name="Fuzz night", variant="single4", par_bot=""
        )
    yield player
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(autouse=True)
def each_operation_starts_afresh(
    wsgi_requests_keep_the_test_transaction: None, settings: Any
) -> None:
    settings.SANDBOX_MODE = "plain"
    caching.clear()


@schema.parametrize()
@fuzz_settings
def test_anonymous_clients_get_no_server_error_and_documented_answers(
    case: schemathesis.Case, world: Player
) -> None:
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@fuzz_settings
def test_players_get_no_server_error_and_documented_answers(
    case: schemathesis.Case, world: Player
) -> None:
    token, _ = Token.objects.get_or_create(user=world.user)
    case.call_and_validate(headers={"Authorization": f"Token {token.key}"}, checks=CHECKS)
