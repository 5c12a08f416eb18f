"""Sign-in and registration are throttled per IP and per account; uploads and challenges count
only what was accepted, per player and per IP, and a refusal says when to come back."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from rest_framework.test import APIClient

from arena.http.quotas.throttles import Rate
from arena.models import BotVersion, Match, Player
from tests.arena.conftest import FIRST_LEGAL_BOT, GOOD_BOT, PASSWORD, client_for
from tests.leagues.conftest import ready_version

pytestmark = pytest.mark.usefixtures("plain_bots")


def _token(client: APIClient, password: str, username: str = "alice") -> Any:
    return client.post("/api/auth/token/", {"username": username, "password": password})


def _assert_told_to_wait(response: Any) -> None:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) > 0
    assert "seconds" in response.content.decode()


def test_wrong_passwords_lock_the_ip_out_and_then_the_right_one_is_refused_too(
    alice: Player,
) -> None:
    client = APIClient()
    answers = [_token(client, "wrong-password").status_code for _ in range(25)]
    assert answers[:10] == [400] * 10
    assert set(answers[10:]) == {429}
    right = _token(client, PASSWORD)
    _assert_told_to_wait(right)
    assert "token" not in right.json()


def test_failures_against_one_account_from_many_ips_close_it_to_the_failing_ips_only(
    alice: Player,
) -> None:
    for number in range(20):
        assert _token(APIClient(REMOTE_ADDR=f"10.0.0.{number}"), "wrong").status_code == 400
    # The account's failures are spent: an address that failed is refused, right or wrong.
    _assert_told_to_wait(_token(APIClient(REMOTE_ADDR="10.0.0.3"), PASSWORD))
    # A fresh address still has its password checked, once: a wrong one makes it failing.
    guesser = APIClient(REMOTE_ADDR="10.0.1.1")
    assert _token(guesser, "wrong").status_code == 400
    _assert_told_to_wait(_token(guesser, PASSWORD))
    # Another account is not affected from a failing address.
    User.objects.create_user("erin", password=PASSWORD)
    assert _token(guesser, PASSWORD, username="erin").status_code == 200
    # The owner, from an address that has not failed, signs in, which clears the count.
    assert _token(APIClient(REMOTE_ADDR="10.0.1.2"), PASSWORD).status_code == 200
    assert _token(APIClient(REMOTE_ADDR="10.0.0.3"), PASSWORD).status_code == 200


def test_the_page_sign_in_is_throttled_and_says_when_to_retry(alice: Player) -> None:
    browser = Client()
    for _ in range(10):
        wrong = browser.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert wrong.status_code == 200
    refused = browser.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    _assert_told_to_wait(refused)
    assert "Too many failed sign-ins" in refused.content.decode()
    assert "_auth_user_id" not in browser.session


def test_every_other_password_check_honours_the_lock(alice: Player) -> None:
    User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(10):
        _token(APIClient(), "wrong", username="root")
    admin = Client()
    response = admin.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
    assert response.status_code == 200  # the form again, not a redirect into the admin
    assert "_auth_user_id" not in admin.session


def test_a_successful_sign_in_clears_the_accounts_failures(alice: Player) -> None:
    for number in range(15):
        _token(APIClient(REMOTE_ADDR=f"10.0.2.{number}"), "wrong")
    assert _token(APIClient(REMOTE_ADDR="10.0.3.1"), PASSWORD).status_code == 200
    for number in range(15):
        assert _token(APIClient(REMOTE_ADDR=f"10.0.4.{number}"), "wrong").status_code == 400


@override_settings(REGISTRATION_RATE="3/hour")
def test_registrations_are_counted_per_ip_and_refused_ones_do_not_count(db: None) -> None:
    client = APIClient()

    def register(name: str, password: str = PASSWORD) -> int:
        return int(
            client.post("/api/players/", {"username": name, "password": password}).status_code
        )

    assert [register("p1"), register("p2")] == [201, 201]
    assert [register(f"weak{n}", "123") for n in range(5)] == [400] * 5
    assert register("p3") == 201
    refused = client.post("/api/players/", {"username": "p4", "password": PASSWORD})
    _assert_told_to_wait(refused)
    assert Player.objects.count() == 3
    assert (
        APIClient(REMOTE_ADDR="10.9.9.9")
        .post("/api/players/", {"username": "p5", "password": PASSWORD})
        .status_code
        == 201
    )


@override_settings(UPLOAD_RATE="2/hour")
def test_refused_uploads_do_not_count(alice: Player, alices_bot: Any) -> None:
    client = client_for(alice)
    url = f"/api/bots/{alices_bot.pk}/versions/"
    for _ in range(6):
        assert client.post(url, {"source": "def act(:\n"}).status_code == 400
    for revision in range(2):
        stored = client.post(url, {"source": f"{GOOD_BOT.decode()}# {revision}\n"})
        assert stored.status_code == 201
    refused = client.post(url, {"source": f"{GOOD_BOT.decode()}# late\n"})
    _assert_told_to_wait(refused)
    assert "bot uploads" in refused.json()["detail"]
    assert BotVersion.objects.count() == 2


@override_settings(UPLOAD_RATE="5/hour", UPLOAD_RATE_PER_IP="3/hour")
def test_extra_accounts_share_their_ips_upload_allowance(alice: Player, bob: Player) -> None:
    from arena import services

    bobs_bot = services.bot_create(owner=bob, name="b", variant="auction4")
    alices = services.bot_create(owner=alice, name="a", variant="auction4")
    for revision in range(2):
        body = {"source": f"{GOOD_BOT.decode()}# {revision}\n"}
        assert client_for(alice).post(f"/api/bots/{alices.pk}/versions/", body).status_code == 201
    bob_here = client_for(bob)
    url = f"/api/bots/{bobs_bot.pk}/versions/"
    assert bob_here.post(url, {"source": GOOD_BOT.decode()}).status_code == 201
    _assert_told_to_wait(bob_here.post(url, {"source": f"{GOOD_BOT.decode()}# 2\n"}))
    bob_elsewhere = client_for(bob)
    bob_elsewhere.defaults["REMOTE_ADDR"] = "10.7.7.7"
    assert bob_elsewhere.post(url, {"source": f"{GOOD_BOT.decode()}# 3\n"}).status_code == 201


@pytest.fixture
def two_versions(alice: Player, bob: Player) -> tuple[BotVersion, BotVersion]:
    return ready_version(alice, "mine", FIRST_LEGAL_BOT), ready_version(bob, "theirs")


@override_settings(CHALLENGE_RATE="2/hour")
def test_refused_challenges_do_not_count(
    alice: Player, two_versions: tuple[BotVersion, BotVersion]
) -> None:
    client = client_for(alice)
    mine, theirs = two_versions
    for _ in range(6):
        refused = client.post("/api/matches/", {"version": mine.pk, "opponent": 999_999})
        assert refused.status_code == 400
    for _ in range(2):
        accepted = client.post(
            "/api/matches/", {"version": mine.pk, "opponent": theirs.pk, "boards": 1}
        )
        assert accepted.status_code == 201, accepted.content
    late = client.post("/api/matches/", {"version": mine.pk, "opponent": theirs.pk, "boards": 1})
    _assert_told_to_wait(late)
    assert "challenges" in late.json()["detail"]
    assert Match.objects.count() == 2


@override_settings(CHALLENGE_RATE="5/hour", CHALLENGE_RATE_PER_IP="1/hour")
def test_extra_accounts_share_their_ips_challenge_allowance(
    alice: Player, bob: Player, two_versions: tuple[BotVersion, BotVersion]
) -> None:
    mine, theirs = two_versions
    body = {"version": mine.pk, "opponent": theirs.pk, "boards": 1}
    assert client_for(alice).post("/api/matches/", body).status_code == 201
    back = {"version": theirs.pk, "opponent": mine.pk, "boards": 1}
    _assert_told_to_wait(client_for(bob).post("/api/matches/", back))
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "count", "seconds", "period"),
    [("20/hour", 20, 3600, "hour"), ("10/15m", 10, 900, "15 minutes"), ("3/d", 3, 86400, "day")],
)
def test_rates_read_as_a_count_per_window(text: str, count: int, seconds: int, period: str) -> None:
    rate = Rate.parse(text)
    assert (rate.count, rate.seconds, rate.period()) == (count, seconds, period)


@pytest.mark.parametrize("text", ["20", "hour", "20/fortnight", "-1/hour", ""])
def test_a_malformed_rate_is_refused_with_its_text(text: str) -> None:
    with pytest.raises(ValueError, match="N/period"):
        Rate.parse(text)
