"""Pages in a real browser: Playwright driving Debian's Chromium against a live server.

One browser for the whole session; each test gets a fresh context (cookies, storage) and a
page that records console errors and failed requests, which `assert_clean` then checks.
Screenshots go to ``$BROWSER_SCREENSHOTS`` (default ``var/screenshots``) for a person to
look at; they are never committed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from arena.http import caching
from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
# Playwright's sync API keeps an event loop running in the test's thread, which Django's
# async-safety check mistakes for async code calling the ORM; the tests' ORM calls are
# ordinary synchronous calls, so the check is switched off for the browser tests alone.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Chromium's background services would try the network, which this project never reaches.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def screenshot_dir() -> Path:
    directory = Path(os.environ.get("BROWSER_SCREENSHOTS", ROOT / "var" / "screenshots"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed (make venv installs it)")
    # An assertion waits for the page as long as an action does: a page that paces the bots'
    # moves, or a machine busy with something else, must not fail a check that would pass.
    expect.set_options(timeout=120_000)
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        skip_or_fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield instance
        instance.close()


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Cached pages must not leak from one test into the next: tests write ratings and
    matches directly, without the services that retire what the cache holds."""
    caching.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Registering players hashes passwords; a fast hasher keeps the browser tests quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Problems:
    """What went wrong on a page while a test drove it."""

    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    def clear(self) -> None:
        self.console_errors.clear()
        self.failed_requests.clear()


@pytest.fixture
def problems() -> Problems:
    return Problems()


@pytest.fixture
def page(browser: Any, live_server: Any, problems: Problems) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    # A safety limit on waits that end as soon as the page is ready: generous, so that a
    # loaded machine is slow, never failing.
    tab.set_default_timeout(120_000)
    tab.on(
        "console",
        lambda message: (
            problems.console_errors.append(message.text) if message.type == "error" else None
        ),
    )
    tab.on("pageerror", lambda error: problems.console_errors.append(str(error)))

    def on_request_failed(request: Any) -> None:
        # A request the browser itself abandoned because the page navigated away (an icon
        # still loading when a link is followed) is no failure of the site; how often that
        # happens depends on the machine's speed, so it must not decide a test.
        if request.failure == "net::ERR_ABORTED" and request.resource_type != "document":
            return
        problems.failed_requests.append(f"{request.method} {request.url} ({request.failure})")

    tab.on("requestfailed", on_request_failed)

    def on_response(response: Any) -> None:
        if response.status >= 400:
            problems.failed_requests.append(f"{response.status} {response.url}")

    tab.on("response", on_response)
    yield tab
    context.close()


def assert_clean(problems: Problems) -> None:
    """No console error and no failed request since the page was opened."""
    assert problems.console_errors == [], problems.console_errors
    assert problems.failed_requests == [], problems.failed_requests


def snapshot(page: Any, name: str) -> Path:
    """A full-page screenshot for a person to look at."""
    path = screenshot_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_in(page: Any, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("button[type=submit]")


def follow(page: Any, target: Any) -> None:
    """Click a link or a submit button (a selector or a locator) and wait for the page it
    loads: a click does not wait for the navigation it starts, so whatever is read next
    would otherwise be read from the old page, or from no page at all."""
    with page.expect_navigation():
        if isinstance(target, str):
            page.click(target)
        else:
            target.click()


PHONE = {"width": 390, "height": 844}
"""A small phone held upright: every page must fit its width."""

# Where the overflow starts: the element (or the run of text) that sticks out furthest past
# the right edge of the screen while its parent does not, outside any frame that scrolls or
# clips its content (a wide table inside a scrolling wrapper is no fault).
WIDEST_ELEMENT = """
() => {
  const limit = document.documentElement.clientWidth;
  const rightOf = (rect) => rect.right + window.scrollX;
  const describe = (element) => {
    let text = element.tagName.toLowerCase();
    if (element.id) text += "#" + element.id;
    for (const name of element.classList) text += "." + name;
    return text;
  };
  const path = (element) => {
    const names = [];
    for (let up = element; up && up !== document.body; up = up.parentElement) {
      names.unshift(describe(up));
    }
    return names.join(" > ");
  };
  const clipped = (element) => {
    for (let up = element; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const fits = (element) =>
    element === document.body || rightOf(element.getBoundingClientRect()) <= limit;
  let found = null;
  let furthest = limit;
  for (const element of document.body.querySelectorAll("*")) {
    const right = rightOf(element.getBoundingClientRect());
    if (right > furthest && fits(element.parentElement) && !clipped(element.parentElement)) {
      found = path(element);
      furthest = right;
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const right = rightOf(range.getBoundingClientRect());
    if (right > furthest && fits(node.parentElement) && !clipped(node.parentElement)) {
      found = `${path(node.parentElement)}, its text "${node.textContent.trim().slice(0, 60)}"`;
      furthest = right;
    }
  }
  if (found === null) return "no single element (the margins of the page itself?)";
  return `${found} reaches ${Math.round(furthest)} px`;
}
"""


def assert_fits_phone(page: Any, name: str) -> None:
    """The page, at a phone's width, is no wider than the screen: it never scrolls sideways
    (a wide table scrolls inside a frame of its own instead). A page that does is named,
    with the element where the overflow starts."""
    if page.viewport_size != PHONE:
        page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    if width <= PHONE["width"]:
        return
    widest = page.evaluate(WIDEST_ELEMENT)
    raise AssertionError(
        f"{name} ({page.url}) is {width} px wide on a {PHONE['width']} px screen: {widest}"
    )
