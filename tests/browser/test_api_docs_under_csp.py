"""The API documentation renders in a browser under the site's Content-Security-Policy.

Chromium reports every script or style the policy blocks as a console error, so a clean
console with the policy in force means the pages need nothing the policy forbids.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Problems, assert_clean, screenshot_dir, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def _policy(page: Any, path: str) -> str:
    response = page.goto(path)
    assert response is not None and response.status == 200
    policy: str = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy, policy
    return policy


def test_swagger_ui_renders_under_the_strict_policy(page: Any, problems: Problems) -> None:
    policy = _policy(page, "/api/docs/")
    assert "unsafe-inline" not in policy
    page.locator(".swagger-ui .info .title").wait_for()
    assert "Pinochle Arena API" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock-tag").first.wait_for()
    snapshot(page, "api-docs-swagger")
    assert_clean(problems)


def test_redoc_renders_without_inline_scripts(page: Any, problems: Problems) -> None:
    policy = _policy(page, "/api/redoc/")
    # ReDoc's styled-components write <style> elements; scripts stay 'self' only.
    assert "script-src 'self';" in policy + ";" and "'unsafe-eval'" not in policy
    page.locator("h1", has_text="Pinochle Arena API").wait_for()
    # The whole page is hundreds of screens long: the first screen is what a reader sees.
    page.screenshot(path=str(screenshot_dir() / "api-docs-redoc.png"))
    # ReDoc's side menu links its maker's logo from a CDN; the policy blocks it, as it must
    # block anything from the internet. That refusal is the only message allowed.
    blocked_logo = [e for e in problems.console_errors if "https://cdn.redoc.ly/" in e]
    assert len(blocked_logo) <= 1 and all("has been blocked" in e for e in blocked_logo)
    for error in blocked_logo:
        problems.console_errors.remove(error)
    if blocked_logo:
        problems.failed_requests.remove("GET https://cdn.redoc.ly/redoc/logo-mini.svg (csp)")
    assert_clean(problems)
