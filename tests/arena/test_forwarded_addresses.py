"""Quotas count the client address that the deployment's own proxies report, never one a
client wrote into X-Forwarded-For: rotating the header buys neither registrations, nor
guesses, nor another person's lock-out."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory, override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from arena.http.client_address import client_address
from arena.models import Player
from tests.arena.conftest import PASSWORD


def _forged(number: int) -> str:
    return f"203.0.113.{number}"


def _register(client: APIClient, name: str, **headers: str) -> int:
    response = client.post("/api/players/", {"username": name, "password": PASSWORD}, **headers)
    return int(response.status_code)


def _token(client: APIClient, username: str, password: str, **headers: str) -> Any:
    return client.post("/api/auth/token/", {"username": username, "password": password}, **headers)


def test_registrations_rotating_x_forwarded_for_are_refused_after_the_per_ip_limit(
    db: None, settings: Any
) -> None:
    settings.REGISTRATION_RATE = "20/hour"
    client = APIClient(REMOTE_ADDR="198.51.100.7")
    answers = [_register(client, f"puppet{n}", HTTP_X_FORWARDED_FOR=_forged(n)) for n in range(30)]
    assert answers == [201] * 20 + [429] * 10
    assert Player.objects.count() == 20


@override_settings(TRUSTED_PROXIES=1, REGISTRATION_RATE="20/hour")
def test_behind_the_proxy_the_address_it_wrote_is_counted_not_the_clients_own_entries(
    db: None,
) -> None:
    # An appending proxy: the client's forged entries, then the address the proxy saw.
    proxy = APIClient(REMOTE_ADDR="127.0.0.1")
    answers = [
        _register(proxy, f"puppet{n}", HTTP_X_FORWARDED_FOR=f"{_forged(n)}, 198.51.100.7")
        for n in range(30)
    ]
    assert answers == [201] * 20 + [429] * 10
    # Another client behind the same proxy has a count of its own.
    assert _register(proxy, "neighbour", HTTP_X_FORWARDED_FOR="198.51.100.8") == 201


def test_wrong_passwords_over_several_accounts_rotating_x_forwarded_for_are_refused(
    db: None, settings: Any
) -> None:
    settings.LOGIN_FAILURE_RATE_PER_IP = "10/15m"
    for number in range(6):
        User.objects.create_user(f"victim{number}", password=PASSWORD)
    guesser = APIClient(REMOTE_ADDR="198.51.100.66")
    answers = [
        _token(
            guesser,
            f"victim{attempt % 6}",
            f"guess-{attempt}",
            HTTP_X_FORWARDED_FOR=_forged(attempt),
        ).status_code
        for attempt in range(60)
    ]
    assert answers == [400] * 10 + [429] * 50


def test_a_strangers_wrong_passwords_from_forged_addresses_do_not_lock_the_owner_out(
    alice: Player, settings: Any
) -> None:
    settings.LOGIN_FAILURE_RATE = "20/hour"
    stranger = APIClient(REMOTE_ADDR="198.51.100.66")
    for number in range(25):
        _token(stranger, "alice", "wrong", HTTP_X_FORWARDED_FOR=_forged(number))
    owner = APIClient(REMOTE_ADDR="192.0.2.10")
    signed_in = _token(owner, "alice", PASSWORD)
    assert signed_in.status_code == 200, signed_in.content
    assert "token" in signed_in.json()


@pytest.mark.parametrize(
    ("proxies", "forwarded", "peer", "counted"),
    [
        (0, "203.0.113.1", "198.51.100.7", "198.51.100.7"),
        (1, "203.0.113.1", "127.0.0.1", "203.0.113.1"),
        (1, "203.0.113.1, 198.51.100.7", "127.0.0.1", "198.51.100.7"),
        (2, "203.0.113.1, 198.51.100.7, 10.0.0.2", "127.0.0.1", "198.51.100.7"),
        (2, "198.51.100.7", "127.0.0.1", "198.51.100.7"),
        (1, "not-an-address", "127.0.0.1", "127.0.0.1"),
        (1, None, "198.51.100.7", "198.51.100.7"),
        (0, None, "2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        (1, "2001:db8:1:2:bbbb::9", "127.0.0.1", "2001:db8:1:2::/64"),
        (0, None, "::ffff:198.51.100.7", "198.51.100.7"),
    ],
)
def test_the_client_address_is_the_one_the_trusted_proxies_wrote(
    proxies: int, forwarded: str | None, peer: str, counted: str
) -> None:
    headers = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    with override_settings(TRUSTED_PROXIES=proxies):
        assert client_address(RequestFactory().get("/", **headers)) == counted


def test_drf_counts_as_many_proxies_as_the_quotas_do() -> None:
    from django.conf import settings

    assert api_settings.NUM_PROXIES == settings.TRUSTED_PROXIES == 0
