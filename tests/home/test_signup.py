"""The sign-up page registers through the API's service under the API's quota: a person in
the browser makes accounts no faster than a script on the API, from one address or many."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Player
from tests.arena.conftest import PASSWORD

ADDRESS = "203.0.113.7"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _form(username: str, **fields: str) -> dict[str, str]:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD, **fields}


def _sign_up(client: Client, username: str, **fields: str) -> Any:
    return client.post("/accounts/signup/", _form(username, **fields))


def _api_register(username: str, address: str = ADDRESS) -> Any:
    client = APIClient(REMOTE_ADDR=address)
    return client.post("/api/players/", {"username": username, "password": PASSWORD})


def test_signing_up_signs_in_and_lands_on_the_own_profile(db: None) -> None:
    client = Client(REMOTE_ADDR=ADDRESS)
    assert client.get("/accounts/signup/").status_code == 200
    answer = _sign_up(client, "newcomer", display_name="New Comer")
    assert answer.status_code == 302
    assert answer["Location"] == "/players/newcomer/"
    player = Player.objects.select_related("user").get(user__username="newcomer")
    assert player.display_name == "New Comer"
    assert player.user.check_password(PASSWORD)
    profile = client.get("/players/newcomer/")
    assert profile.wsgi_request.user == player.user
    assert "Your API token" in profile.content.decode()
    # Signed in, the page sends her to her own profile rather than making a second account.
    again = client.get("/accounts/signup/")
    assert again.status_code == 302 and again["Location"] == "/players/newcomer/"


def test_an_empty_display_name_is_the_username(db: None) -> None:
    _sign_up(Client(REMOTE_ADDR=ADDRESS), "plain")
    assert Player.objects.get(user__username="plain").display_name == "plain"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"password2": "something-else-entirely"}, "password2", "The two passwords differ."),
        ({"password1": "123", "password2": "123"}, "password1", "This password is too short"),
        ({"password1": "password", "password2": "password"}, "password1", "too common"),
        ({"username": "bad name!"}, "username", "Enter a valid username"),
        ({"username": ""}, "username", "This field is required."),
        ({"display_name": "x" * 65}, "display_name", "at most 64 characters"),
    ],
)
def test_bad_input_is_told_beside_its_field_and_makes_nothing(
    db: None, fields: dict[str, str], field: str, message: str
) -> None:
    answer = Client(REMOTE_ADDR=ADDRESS).post("/accounts/signup/", {**_form("someone"), **fields})
    assert answer.status_code == 400
    assert message in " ".join(answer.context["form"].errors[field])
    assert f'id="error_{field}"' in answer.content.decode()
    assert not User.objects.exists()


def test_a_taken_username_is_refused_whatever_its_case(db: None) -> None:
    assert _api_register("Taken").status_code == 201
    answer = _sign_up(Client(REMOTE_ADDR="203.0.113.8"), "taken")
    assert answer.status_code == 400
    assert "is taken" in " ".join(answer.context["form"].errors["username"])
    assert User.objects.count() == 1


def test_bad_input_hands_its_quota_slot_back(db: None, settings: Any) -> None:
    settings.REGISTRATION_RATE = "1/hour"
    client = Client(REMOTE_ADDR=ADDRESS)
    assert _sign_up(client, "first", password2="differs-from-the-first").status_code == 400
    assert _sign_up(client, "first").status_code == 302


def test_the_api_registrations_fill_the_pages_quota(db: None, settings: Any) -> None:
    settings.REGISTRATION_RATE = "2/hour"
    assert [_api_register(f"api{n}").status_code for n in range(2)] == [201, 201]
    answer = _sign_up(Client(REMOTE_ADDR=ADDRESS), "late")
    assert answer.status_code == 429
    wait = int(answer["Retry-After"])
    assert 0 < wait <= 3600
    text = answer.content.decode()
    assert "at most 2 registrations per hour" in text
    assert f"Try again in {wait} seconds" in text
    assert not User.objects.filter(username="late").exists()
    # Another address is not refused: the quota counts per address.
    assert _sign_up(Client(REMOTE_ADDR="203.0.113.9"), "elsewhere").status_code == 302


def test_the_pages_registrations_fill_the_apis_quota(db: None, settings: Any) -> None:
    settings.REGISTRATION_RATE = "2/hour"
    for name in ("page0", "page1"):
        # A fresh client each time: signed in, the page would make no second account.
        assert _sign_up(Client(REMOTE_ADDR=ADDRESS), name).status_code == 302
    answer = _api_register("late")
    assert answer.status_code == 429
    assert "at most 2 registrations per hour" in answer.json()["detail"]
    assert Player.objects.count() == 2


def test_the_page_counts_towards_registrations_from_everyone_together(
    db: None, settings: Any
) -> None:
    settings.REGISTRATION_RATE_OVERALL = "2/hour"
    assert _api_register("api", address="198.51.100.1").status_code == 201
    assert _sign_up(Client(REMOTE_ADDR="198.51.100.2"), "page").status_code == 302
    answer = _sign_up(Client(REMOTE_ADDR="198.51.100.3"), "third")
    assert answer.status_code == 429
    assert "from everyone together" in answer.content.decode()


def test_the_sign_in_page_and_the_site_header_link_to_sign_up(db: None) -> None:
    client = Client()
    for path in ("/accounts/login/", "/"):
        assert 'href="/accounts/signup/"' in client.get(path).content.decode()
