"""What the lobby's browser tests share: a real ASGI server (pages and sockets) with a real
Celery worker (and its beat, for the clocks) on the test database, browser contexts signed
in as a person, the frames each one received, and a move made by the page's own controls.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from arena import services as arena_services
from tests.arena.conftest import PASSWORD
from tests.arena.live_server import _answers, closed_port
from tests.arena.workers import celery_beat, celery_worker, service_process, wait_for

TABLE = "#card-table"


def register(username: str) -> Any:
    """A person with the tests' password (``tests.arena.conftest.PASSWORD``), hashed so that
    the site's own process (which knows only the production hashers) signs them in; few
    iterations keep it quick."""
    player = arena_services.player_register(username=username, password=PASSWORD)
    salt = PBKDF2PasswordHasher().salt()
    player.user.password = PBKDF2PasswordHasher().encode(PASSWORD, salt, iterations=1000)
    player.user.save(update_fields=["password"])
    return player


@contextmanager
def asgi_site(tmp_path: Path, *, clocks: bool = False, **env: str) -> Iterator[str]:
    """The site served by daphne (HTTP and websockets) with a worker for the bots' moves;
    ``clocks``: the beat too, sweeping the clocks every second. Yields the site's URL."""
    port = closed_port()
    url = f"http://127.0.0.1:{port}"
    settings = {"DEBUG": "false", "LOBBY_SWEEP_EVERY_S": "1", **env}
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    command += ["config.asgi:application"]
    with ExitStack() as stack:
        server = stack.enter_context(service_process(command, tmp_path / "asgi.log", env=settings))
        stack.enter_context(celery_worker(tmp_path, **settings))
        if clocks:
            stack.enter_context(celery_beat(tmp_path, **settings))
        wait_for(lambda: server.process.poll() is not None or _answers(url), 120, "the site")
        assert server.process.poll() is None, server.output()
        yield url


@dataclass
class Seat:
    """One browser context at a table: its page and every frame its socket received."""

    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        """No script error and no refused request since the page was opened (or cleared)."""
        assert self.problems == [], self.problems


def open_context(browser: Any, url: str, *, phone: bool = False, touch: bool = False) -> Seat:
    """A browser context at the site: a desktop's window, or a phone's screen held upright
    (``phone``), which ``touch`` makes a phone's in full: a touch screen with no mouse to
    hover, and a mobile browser's viewport."""
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(base_url=url, viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.set_default_timeout(120_000)
    seat = Seat(page)

    def on_socket(socket: Any) -> None:
        def received(payload: Any) -> None:
            message = json.loads(payload if isinstance(payload, str) else payload.decode())
            if message.get("type") == "frame":
                seat.frames.append(message["frame"])

        def sent(payload: Any) -> None:
            seat.sent.append(json.loads(payload if isinstance(payload, str) else payload.decode()))

        socket.on("framereceived", received)
        socket.on("framesent", sent)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: seat.problems.append(str(error)))
    page.on(
        "console",
        lambda message: seat.problems.append(message.text) if message.type == "error" else None,
    )
    page.on(
        "response",
        lambda response: seat.problems.append(f"{response.status} {response.url}")
        if response.status >= 400
        else None,
    )
    return seat


def sign_in(page: Any, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("button[type=submit]")


def ply(page: Any) -> int:
    return int(page.locator(TABLE).get_attribute("data-ply") or "0")


def wait_turn_or_end(page: Any) -> str:
    """Wait until the page offers this seat a move, or the game is over: which one."""
    page.wait_for_function(
        """() => {
          const table = document.querySelector("#card-table");
          return table && !table.classList.contains("sending")
            && (table.classList.contains("my-turn") || table.dataset.status === "finished");
        }"""
    )
    return "over" if page.locator(f'{TABLE}[data-status="finished"]').count() else "turn"


def make_a_move(page: Any, *, keyboard: bool = False) -> None:
    """One legal move by the page's controls: a playable card (by a key where asked), the
    lowest bid or a pass in the bidding box, cards picked for a pass or a meld, a call."""
    before = ply(page)
    playable = page.locator(".hand-card.playable")
    if playable.count():
        if keyboard:
            page.locator(".hand-card").first.focus()
            page.keyboard.press("1")
        else:
            playable.first.click()
    elif page.locator(".bidding-box").count():
        if keyboard:
            page.keyboard.press("p")
        else:
            page.locator('.bidding-box button[data-action="pass"]').click()
    elif page.locator(".hand-card.pickable").count() and page.locator(".offers .hint").count():
        hint = page.locator(".offers .hint").inner_text()
        if "pick " in hint and " cards (" in hint:
            wanted = int(hint.split("pick ")[1].split()[0])
            for index in range(wanted):
                page.locator(".hand-card.pickable").nth(index).click()
            page.locator(".offers .offer").first.click()
        else:
            page.locator(".calls button").first.click()
    else:
        page.locator(".moves button[data-action]").first.click()
    expect(page.locator(f'{TABLE}:not([data-ply="{before}"])')).to_have_count(1)
