"""The account pages in a real browser, on a phone: changing a password from one's own page,
and resetting a forgotten one from the sign-in page through the link that is emailed.

Each page is drawn in the site's frame (its header and account area), fits the phone's
width, and does what it says: the new password is the one that signs in afterwards.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from arena import services
from tests.browser.conftest import (
    PHONE,
    Problems,
    assert_clean,
    assert_fits_phone,
    sign_in,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)

OLD = "cards-and-trumps-77"
NEW = "a-fresh-trump-suit-88"


@pytest.fixture
def dora(db: None) -> User:
    player = services.player_register(username="dora", password=OLD, display_name="Dora")
    User.objects.filter(pk=player.user_id).update(email="dora@example.org")
    return User.objects.get(pk=player.user_id)


def in_the_site_frame(page: Any, name: str, heading: str) -> None:
    """The page is one of the site's: its header and footer around one heading, no wider
    than the phone."""
    assert page.locator("header.site-header nav .brand").inner_text() == "Pinochle Arena"
    assert page.locator("footer.site-footer").count() == 1
    assert page.locator("main h1").inner_text() == heading
    assert "Django administration" not in page.content()
    assert_fits_phone(page, name)
    snapshot(page, f"account-{name}")


def signs_in_with(page: Any, password: str) -> bool:
    sign_in(page, "dora", password)
    return page.locator(".account .who").count() == 1


def test_a_player_changes_her_password_from_her_own_page(
    page: Any, problems: Problems, dora: User
) -> None:
    page.set_viewport_size(PHONE)
    sign_in(page, "dora", OLD)
    page.click(".account .who")
    page.wait_for_url("**/players/dora/")
    page.click("#password-change-link")
    page.wait_for_url("**/accounts/password_change/")
    in_the_site_frame(page, "password-change", "Change your password")
    # The rules a new password must meet are shown with its field, for a screen reader too.
    described = page.get_attribute("#id_new_password1", "aria-describedby") or ""
    assert "id_new_password1_helptext" in described.split()
    assert page.locator("#id_new_password1_helptext li").count() >= 1

    page.fill("#id_old_password", "not-the-password")
    page.fill("#id_new_password1", NEW)
    page.fill("#id_new_password2", NEW)
    with page.expect_navigation():
        page.click("#password-change button[type=submit]")
    assert "old password was entered incorrectly" in page.locator("main .error").inner_text()
    in_the_site_frame(page, "password-change-refused", "Change your password")
    assert User.objects.get(pk=dora.pk).check_password(OLD)

    page.fill("#id_old_password", OLD)
    page.fill("#id_new_password1", NEW)
    page.fill("#id_new_password2", NEW)
    page.click("#password-change button[type=submit]")
    page.wait_for_url("**/accounts/password_change/done/")
    in_the_site_frame(page, "password-change-done", "Password changed")
    with page.expect_navigation(wait_until="networkidle"):
        page.click("text=Sign out")
    problems.clear()  # the refused sign-in below answers with its form; nothing else may fail
    assert not signs_in_with(page, OLD)
    assert signs_in_with(page, NEW)
    assert_clean(problems)


def test_a_forgotten_password_is_reset_through_the_emailed_link(
    page: Any, problems: Problems, dora: User, mailoutbox: list[Any]
) -> None:
    page.set_viewport_size(PHONE)
    page.goto("/accounts/login/")
    in_the_site_frame(page, "sign-in", "Sign in")
    page.click("#forgot-password")
    page.wait_for_url("**/accounts/password_reset/")
    in_the_site_frame(page, "password-reset", "Reset your password")
    page.fill("#id_email", "dora@example.org")
    page.click("#password-reset button[type=submit]")
    page.wait_for_url("**/accounts/password_reset/done/")
    in_the_site_frame(page, "password-reset-done", "Check your email")

    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["dora@example.org"]
    body = mailoutbox[0].body
    assert 'the Pinochle Arena account "dora"' in body
    link = re.search(r"https?://\S+/accounts/reset/\S+/", body)
    assert link is not None, body
    page.goto(link.group(0))
    page.wait_for_url("**/accounts/reset/*/set-password/")
    in_the_site_frame(page, "password-reset-confirm", "Choose a new password")
    page.fill("#id_new_password1", NEW)
    page.fill("#id_new_password2", NEW)
    page.click("#password-set button[type=submit]")
    page.wait_for_url("**/accounts/reset/done/")
    in_the_site_frame(page, "password-reset-complete", "Password set")
    assert signs_in_with(page, NEW)

    # The link works once: opened again, it says so and offers a new one.
    page.goto(link.group(0))
    in_the_site_frame(page, "password-reset-used-link", "This link does not work")
    assert page.locator("main a[href='/accounts/password_reset/']").count() == 1
    assert_clean(problems)
