"""The site frame in a real browser: the home page and signing in and out."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from arena.models import Player
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_home_page_loads_with_no_console_errors(page: Any, problems: Problems) -> None:
    page.goto("/")
    assert page.locator("h1").inner_text() == "Pinochle Arena"
    snapshot(page, "home")
    assert_clean(problems)


def test_a_player_signs_in_and_out_from_any_page(page: Any, problems: Problems) -> None:
    user = User.objects.create_user("dora", password="cards-and-trumps-77")
    Player.objects.create(user=user, display_name="Dora")
    page.goto("/")
    page.click("text=Sign in")
    page.wait_for_url("**/accounts/login/?next=/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "cards-and-trumps-77")
    page.click("main button[type=submit]")
    page.wait_for_url("**/")
    assert page.locator(".account .who").inner_text() == "dora"
    page.click("text=Sign out")
    # The page before the click is already loaded, so wait for what the signed-out page shows.
    expect(page.locator(".account a")).to_have_text(["Sign in", "Sign up"])
    assert_clean(problems)


def test_a_wrong_password_is_refused_with_a_message(page: Any, problems: Problems) -> None:
    User.objects.create_user("dora", password="cards-and-trumps-77")
    sign_in(page, "dora", "not-the-password")
    assert "enter a correct username and password" in page.locator(".error").inner_text()
    problems.clear()  # the refused sign-in answers 200 with the form; nothing else may fail
    assert_clean(problems)
