"""What the pages say of ratings: an interval on every row of every leaderboard (bots on the
home page and per variant, humans on theirs), rows sorted by the rating, and on a match's
page the rating changes the match caused."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from arena import services
from arena.models import Player, Rating
from tests.arena.test_board_ratings import _finish, _version
from tournaments.human_ratings import Skill
from tournaments.models import HumanRating

pytestmark = pytest.mark.django_db

INTERVAL = re.compile("(\\d{3,4})\N{EN DASH}(\\d{3,4})")


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


@pytest.fixture
def owner() -> Player:
    return services.player_register(username="owner", password="a-long-test-password-1")


def test_the_home_page_gives_every_top_rating_its_interval(owner: Player) -> None:
    a, b, c = (_version(owner, name) for name in "abc")
    _finish(a, b, [10] * 12 + [-10] * 3)
    _finish(b, c, [10] * 6 + [-10] * 2)
    body = Client().get("/").content.decode()
    section = body[body.index('id="leaderboards"') : body.index('id="recent-heading"')]
    rows = re.findall(r"<tr>.*?</tr>", section, flags=re.S)[1:]  # the header row first
    assert len(rows) == 3
    for row, rating in zip(rows, Rating.objects.order_by("-elo"), strict=True):
        low, high = (int(value) for value in INTERVAL.search(_text(row.encode())).groups())
        assert (low, high) == (round(rating.elo_low), round(rating.elo_high))
        assert low < rating.elo < high


def test_the_match_page_shows_the_rating_changes_the_match_caused(owner: Player) -> None:
    a, b = _version(owner, "a"), _version(owner, "b")
    first = _finish(a, b, [10] * 6 + [0] + [-10] * 2)
    second = _finish(a, b, [-10] * 5)
    text = _text(Client().get(f"/matches/{second.pk}/").content)
    assert "Rating changes" in text
    changes = list(second.rating_changes.select_related("rating").order_by("rating__version_id"))
    x_change = next(c for c in changes if c.rating.version_id == a.pk)
    y_change = next(c for c in changes if c.rating.version_id == b.pk)
    # X lost all five boards: it goes down from where the first match left it.
    assert x_change.before == first.rating_changes.get(rating__version=a).after
    assert x_change.after < x_change.before and y_change.after > y_change.before
    x_row = text[text.index("X v1") : text.index("Y v1")]
    assert "0\N{EN DASH}0\N{EN DASH}5" in x_row
    assert f"{x_change.before:.0f} {x_change.after:.0f} {x_change.delta:+.0f}" in x_row
    assert f"{y_change.delta:+.0f}" in text[text.index("Y v1") :]
    unrated = _finish(a, b, [10] * 3, rated=False)
    assert "Rating changes" not in _text(Client().get(f"/matches/{unrated.pk}/").content)


def test_human_ratings_are_listed_best_first_each_with_its_interval(owner: Player) -> None:
    skills = {"Ann": Skill(30.0, 3.0), "Bob": Skill(25.0, 8.33), "Cy": Skill(27.0, 1.0)}
    for name, skill in skills.items():
        player = services.player_register(username=name.lower(), password="a-long-password-9")
        Player.objects.filter(pk=player.pk).update(display_name=name)
        HumanRating.objects.create(
            player=player,
            variant="auction4",
            rating=skill.rating,
            mu=skill.mu,
            sigma=skill.sigma,
            events=2,
        )
    text = _text(Client().get("/tournaments/ratings/", {"variant": "auction4"}).content)
    order = sorted(skills, key=lambda name: -skills[name].rating)
    assert [text.index(f" {name} ") for name in order] == sorted(
        text.index(f" {name} ") for name in order
    )
    for name in order:
        skill = skills[name]
        row = text[text.index(f" {name} ") :]
        assert f"{skill.rating:.0f} {skill.low:.0f}\N{EN DASH}{skill.high:.0f} 2" in row
    empty = Client().get("/tournaments/ratings/", {"variant": "single4"})
    assert empty.status_code == 200 and "No human ratings in single4" in empty.content.decode()
    refused = Client().get("/tournaments/ratings/", {"variant": "bridge"})
    assert refused.status_code == 400 and "variant" in refused.content.decode()


def _bots(owner: Player, *names: str) -> list[Any]:
    return [_version(owner, name) for name in names]


def test_a_leaderboard_whose_ratings_do_not_describe_a_cycle_says_so(owner: Player) -> None:
    # Strong beats greedy, greedy beats the third bot, the third bot beats strong: 35 boards
    # to 15 each, from fixed board results. Equal ratings predict 50% for every pair.
    strong, greedy, third = _bots(owner, "strong", "greedy", "third")
    for x, y in ((strong, greedy), (greedy, third), (third, strong)):
        _finish(x, y, [10] * 35 + [-10] * 15)
    text = _text(Client().get("/leaderboards/auction4/").content)
    assert "These ratings do not describe the results well" in text
    # Each pair named from the side that scored more than its rating predicts.
    for winner, loser in (("strong", "greedy"), ("greedy", "third"), ("third", "strong")):
        assert (
            f"owner/{winner} v1 vs owner/{loser} v1 scored 70% over 50 boards where their"
            " ratings predict 50% (+4.9 standard errors)"
        ) in text
    body = APIClient().get("/api/ratings/", {"variant": "auction4"}).json()
    check = body["model_check"]
    assert check["poor"] is True and check["degrees_of_freedom"] == 1
    assert check["p_value"] < 1e-5
    pairs = {(d["version"]["name"], d["opponent"]["name"]) for d in check["disagreements"]}
    assert pairs == {("strong", "greedy"), ("strong", "third"), ("greedy", "third")}
    assert all(abs(d["residual"]) > 2 for d in check["disagreements"])


def test_a_leaderboard_of_transitive_results_passes_its_model_check(
    owner: Player, django_capture_on_commit_callbacks: Any
) -> None:
    # The same three bots, each result what their ratings explain (draws included): the
    # page says the check passed and names no pair; the API agrees.
    strong, greedy, third = _bots(owner, "strong", "greedy", "third")
    _finish(strong, greedy, [10] * 35 + [0] * 5 + [-10] * 10)
    _finish(greedy, third, [10] * 35 + [0] * 5 + [-10] * 10)
    _finish(strong, third, [10] * 44 + [0] * 2 + [-10] * 4)
    text = _text(Client().get("/leaderboards/auction4/").content)
    assert "do not describe" not in text
    assert "Model check: the ratings describe the results" in text
    check = APIClient().get("/api/ratings/", {"variant": "auction4"}).json()["model_check"]
    assert check["poor"] is False and check["disagreements"] == []
    assert check["degrees_of_freedom"] == 1 and check["p_value"] > 0.5
    # The check is kept with the leaderboard's pages, and goes with them when a rated match
    # changes the ratings: the third bot now beats strong 45-5, closing a cycle.
    with django_capture_on_commit_callbacks(execute=True):
        _finish(third, strong, [10] * 45 + [-10] * 5)
    check = APIClient().get("/api/ratings/", {"variant": "auction4"}).json()["model_check"]
    assert check["poor"] is True
    assert "do not describe" in _text(Client().get("/leaderboards/auction4/").content)
