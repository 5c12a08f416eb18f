"""A refused page in a real browser: the site's frame, the status, the reason and the ways
on (sign in, go back, home), drawn by the one answer every page's refusal gets."""

from __future__ import annotations

from typing import Any

import pytest

from arena import services
from tests.browser.conftest import Problems, assert_clean, sign_in, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "cards-and-trumps-77"


def _refusal(page: Any) -> dict[str, Any]:
    main = page.locator("main")
    return {
        "frame": page.locator("header.site-header nav").is_visible(),
        "title": main.locator("h1").inner_text(),
        "reason": main.locator(".error").inner_text(),
        "links": main.locator(".refusal-actions a").all_inner_texts(),
    }


def test_a_player_refused_a_form_sees_why_in_the_site_frame(page: Any, problems: Problems) -> None:
    services.player_register(username="petra", password=PASSWORD)
    sign_in(page, "petra", PASSWORD)
    page.goto("/robots/")
    problems.clear()
    response = page.goto("/robots/new/", referer=page.url)
    assert response.status == 403
    seen = _refusal(page)
    assert seen == {
        "frame": True,
        "title": "Not allowed",
        "reason": "only staff and robot event directors create robot events",
        "links": ["Go back", "Go to the home page"],
    }
    assert "Sign out" in page.locator("header .account").inner_text()
    snapshot(page, "refusal-403")
    assert [failure.split()[0] for failure in problems.failed_requests] == ["403"]
    page.click("text=Go back")
    page.wait_for_url("**/robots/")
    problems.clear()
    assert_clean(problems)


def test_a_visitor_asking_for_a_table_that_is_not_theirs_is_told_there_is_none(
    page: Any, problems: Problems
) -> None:
    response = page.goto("/play/tables/987654/")
    assert response.status == 404
    seen = _refusal(page)
    assert seen == {
        "frame": True,
        "title": "Not found",
        "reason": "there is no table 987654 you may see",
        "links": ["Sign in", "Go to the home page"],
    }
    snapshot(page, "refusal-404")
    assert [failure.split()[0] for failure in problems.failed_requests] == ["404"]
    page.locator(".refusal-actions").get_by_text("Sign in").click()
    page.wait_for_url("**/accounts/login/?next=/play/tables/987654/")
    problems.clear()
    assert_clean(problems)


def test_an_address_with_no_page_is_a_404_in_the_site_frame(page: Any, problems: Problems) -> None:
    response = page.goto("/no-such-page/")
    assert response.status == 404
    assert _refusal(page)["reason"] == "there is no page at this address"
    page.locator(".refusal-actions").get_by_text("Go to the home page").click()
    page.wait_for_url("**/")
    assert page.locator("h1").inner_text() == "Pinochle Arena"
