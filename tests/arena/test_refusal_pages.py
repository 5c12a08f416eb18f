"""A page's refusal is one page: the site's frame, the status of the refusal, its reason and
what the person can do. Every ServiceError a page view lets through is drawn by the one
middleware (arena.http.middleware.RefusalPageMiddleware); Django's own 403, 404 and 500 by
the handlers in arena/errors.py, which answer JSON under /api/ instead."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from arena.models import Player
from tests.arena.conftest import PASSWORD
from tests.arena.refusal_urls import REASONS

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.arena.refusal_urls")]

FRAME = 'class="site-header"'
"""What every page drawn in the site's frame (arena/base.html) holds."""


def _text(response: Any) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("status", sorted(REASONS))
def test_a_refusal_in_a_page_is_the_site_frame_with_its_status_and_reason(status: int) -> None:
    response = Client().get(f"/refusals/{status}/")
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    text = _text(response)
    assert FRAME in text
    assert f'<p class="error" role="alert">{REASONS[status]}</p>' in text
    assert 'href="/"' in text  # the way home, whatever else applies


def test_a_refusal_to_wait_says_how_long_and_sends_retry_after() -> None:
    response = Client().get("/refusals/429/")
    assert response["Retry-After"] == "300"
    assert "Try again in 300 seconds." in _text(response)
    assert Client().get("/refusals/503/")["Retry-After"] == "30"


def test_a_visitor_refused_is_offered_to_sign_in_and_come_back() -> None:
    text = _text(Client().get("/refusals/403/"))
    assert 'href="/accounts/login/?next=/refusals/403/"' in text


def test_a_signed_in_player_refused_is_not_offered_to_sign_in(alice: Player) -> None:
    client = Client()
    client.login(username="alice", password=PASSWORD)
    text = _text(client.get("/refusals/403/"))
    assert "/accounts/login/?next=" not in text.split('<main id="main">')[1]


def test_a_refusal_links_back_to_the_page_of_this_site_it_came_from() -> None:
    came_from = "http://testserver/leagues/"
    assert f'href="{came_from}"' in _text(Client().get("/refusals/409/", HTTP_REFERER=came_from))
    elsewhere = "http://elsewhere.example/"
    assert elsewhere not in _text(Client().get("/refusals/409/", HTTP_REFERER=elsewhere))


@pytest.mark.parametrize("status", sorted(REASONS))
def test_a_route_a_script_reads_gets_the_refusal_as_json(status: int) -> None:
    response = Client().get(f"/refusals/{status}.json")
    assert response.status_code == status
    assert response.json() == {"detail": REASONS[status]}


def test_a_page_that_does_not_exist_is_a_404_in_the_site_frame() -> None:
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    text = _text(response)
    assert FRAME in text and "there is no page at this address" in text


def test_under_api_django_s_own_answers_stay_json() -> None:
    response = Client().get("/api/no-such-resource/")
    assert response.status_code == 404
    assert response.json() == {"detail": "no API resource has this path"}


def test_a_server_failure_in_a_page_is_a_500_in_the_site_frame() -> None:
    response = Client(raise_request_exception=False).get("/failure/")
    assert response.status_code == 500
    text = _text(response)
    assert FRAME in text and "the server failed; the error is logged" in text
    # The failure's own text is for the log, never for the visitor.
    assert "a failure of the server's own" not in text
