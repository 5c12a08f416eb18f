"""The costly public pages are served from the response cache, and every reader still gets
their own page.

A finished match's page and a leaderboard page were rendered from the database for every
request: 32 anonymous clients on a 50-board match page held it at seconds a request, and
slowed every other page with it. Their content is now rendered once and cached (a finished
match under its status, a leaderboard under the generation each rating write replaces);
the frame around it, with the reader's name, sign-out form and CSRF token, is rendered for
each request.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from arena import services
from arena.models import Match, Player
from tests.arena.test_board_ratings import _finish, _version

pytestmark = pytest.mark.django_db

SIGNED_IN = re.compile(r'class="who" href="/players/(\w+)/"')


@pytest.fixture
def owner() -> Player:
    return services.player_register(username="owner", password="a-long-test-password-1")


def _reader(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def _signed_in_as(html: str) -> str | None:
    found = SIGNED_IN.search(html)
    return None if found is None else found.group(1)


def _finished(owner: Player, django_capture_on_commit_callbacks: Any) -> Match:
    with django_capture_on_commit_callbacks(execute=True):
        return _finish(_version(owner, "a"), _version(owner, "b"), [10, 0, -10, 10])


def test_a_finished_matchs_page_is_rendered_once_then_read_from_the_cache(
    owner: Player, django_capture_on_commit_callbacks: Any, django_assert_num_queries: Any
) -> None:
    match = _finished(owner, django_capture_on_commit_callbacks)
    first = Client().get(f"/matches/{match.pk}/")
    assert first.status_code == 200
    # Done is a match's last status: the next reader's page reads nothing from the database.
    with django_assert_num_queries(0):
        again = Client().get(f"/matches/{match.pk}/")
    assert again.content == first.content
    assert "Rating changes" in again.text


def test_a_leaderboard_page_is_read_from_the_cache_until_a_rating_changes(
    owner: Player, django_capture_on_commit_callbacks: Any, django_assert_num_queries: Any
) -> None:
    match = _finished(owner, django_capture_on_commit_callbacks)
    first = Client().get("/leaderboards/auction4/")
    assert first.status_code == 200 and "owner/a" in first.text
    with django_assert_num_queries(0):
        assert Client().get("/leaderboards/auction4/").content == first.content
    # A rating write retires the cached pages once it commits: the next reader sees it.
    with django_capture_on_commit_callbacks(execute=True):
        _finish(match.version_x, _version(owner, "c"), [10, 10])
    after = Client().get("/leaderboards/auction4/")
    assert "owner/c" in after.text


@pytest.mark.parametrize("first_reader", ["anonymous", "owner"])
@pytest.mark.parametrize("path", ["/matches/{id}/", "/leaderboards/auction4/", "/matches/"])
def test_a_signed_in_owner_and_an_anonymous_reader_each_get_their_own_page(
    owner: Player, django_capture_on_commit_callbacks: Any, path: str, first_reader: str
) -> None:
    match = _finished(owner, django_capture_on_commit_callbacks)
    url = path.format(id=match.pk)
    readers = {"anonymous": None, "owner": owner}
    order = [first_reader, *(name for name in readers if name != first_reader)] * 2
    pages = {}
    for name in order:
        response = _reader(readers[name]).get(url)
        assert response.status_code == 200
        html = response.text
        pages.setdefault(name, []).append(html)
        if name == "owner":
            assert _signed_in_as(html) == "owner"
            assert "Sign out" in html and "csrfmiddlewaretoken" in html
        else:
            assert _signed_in_as(html) is None
            assert "Sign out" not in html and "csrfmiddlewaretoken" not in html
            assert f"/accounts/login/?next={url}" in html
    # The content both read is the same page, whoever asked first.
    anonymous, signed_in = pages["anonymous"][-1], pages["owner"][-1]
    main = re.compile(r'<main id="main">(.*)</main>', re.S)
    assert main.search(anonymous).group(1) == main.search(signed_in).group(1)  # type: ignore[union-attr]


def test_a_match_in_play_is_read_afresh_and_its_finished_page_is_not_the_one_in_play(
    owner: Player, django_capture_on_commit_callbacks: Any
) -> None:
    match = _finished(owner, django_capture_on_commit_callbacks)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, score_x=None)
    in_play = Client().get(f"/matches/{match.pk}/").text
    assert "<dd>running</dd>" in in_play and "X's total" not in in_play
    Match.objects.filter(pk=match.pk).update(score_x=7)
    assert "X's total" in Client().get(f"/matches/{match.pk}/").text
    Match.objects.filter(pk=match.pk).update(status=Match.Status.DONE)
    done = Client().get(f"/matches/{match.pk}/").text
    assert "<dd>done</dd>" in done and "7 board points" in done


def test_the_match_list_is_read_from_the_cache_until_a_match_is_added_or_finished(
    owner: Player, django_capture_on_commit_callbacks: Any, django_assert_num_queries: Any
) -> None:
    match = _finished(owner, django_capture_on_commit_callbacks)
    first = Client().get("/matches/")
    assert f'href="/matches/{match.pk}/"' in first.text
    # The newest match and completion, to choose the key: nothing else is read.
    with django_assert_num_queries(1):
        assert Client().get("/matches/").content == first.content
    later = _finish(match.version_x, match.version_y, [10])
    assert f'href="/matches/{later.pk}/"' in Client().get("/matches/").text


def test_a_match_that_does_not_exist_is_not_found(client: Client) -> None:
    assert client.get("/matches/987654/").status_code == 404
