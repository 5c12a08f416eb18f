"""Ratings fitted on boards, through the services and the API: every row has an interval,
each rated match refits its variant once, and a recomputation from scratch agrees exactly."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from arena import services
from arena.elo import INITIAL_ELO, Tally, fit_ratings
from arena.models import Bot, BotVersion, CompletionCounter, Match, Player, Rating, RatingChange
from arena.services.ratings import rating_apply, ratings_refit
from engine.registry import load_game

pytestmark = pytest.mark.django_db


def _version(owner: Player, name: str, variant: str = "auction4") -> BotVersion:
    # Rows as validation leaves them: these tests are about ratings, not about sandboxes.
    bot = Bot.objects.create(owner=owner, name=name, variant=variant)
    return BotVersion.objects.create(
        bot=bot, number=1, kind="module", source=b"", sha256="0" * 64, size=0, status="active"
    )


@pytest.fixture
def owner() -> Player:
    return services.player_register(username="owner", password="a-long-test-password-1")


@pytest.fixture
def trio(owner: Player) -> tuple[BotVersion, BotVersion, BotVersion]:
    return _version(owner, "a"), _version(owner, "b"), _version(owner, "c")


def _finish(x: BotVersion, y: BotVersion, results: Sequence[int], *, rated: bool = True) -> Match:
    """A match completed the way match_complete completes one: sequence number, then rating."""
    with transaction.atomic():
        counter, _ = CompletionCounter.objects.select_for_update().get_or_create(pk=1)
        counter.last_seq += 1
        counter.save()
        match = Match.objects.create(
            variant=x.bot.variant,
            rules=load_game(x.bot.variant).rules_for({}).to_json(),
            seed=counter.last_seq,
            board_count=len(results),
            version_x=x,
            version_y=y,
            decision_ms=1000,
            bank_ms=60000,
            rated=rated,
            status=Match.Status.DONE,
            finished=timezone.now(),
            completion_seq=counter.last_seq,
            board_results=list(results),
        )
        if rated:
            rating_apply(match=match)
    return match


def test_each_rated_match_refits_the_variant_from_all_its_boards(
    trio: tuple[BotVersion, BotVersion, BotVersion],
) -> None:
    a, b, c = trio
    played = [(a, b, [30, -10, 0, 50]), (b, c, [20, 20, -5]), (c, a, [-40, 10]), (a, b, [5])]
    tallies: dict[tuple[int, int], Tally] = {}
    for x, y, results in played:
        _finish(x, y, results)
        key = (x.pk, y.pk)
        tallies[key] = tallies.get(key, Tally()) + Tally.of(results)
        # The stored ratings are exactly the fit of every board so far, shown around 1500.
        fit = fit_ratings(tallies)
        for rating in Rating.objects.filter(variant="auction4"):
            estimate = fit.ratings[rating.version_id]
            assert rating.elo == INITIAL_ELO + estimate.rating
            assert (rating.low, rating.high) == (
                INITIAL_ELO + estimate.low,
                INITIAL_ELO + estimate.high,
            )
            assert rating.low < rating.value < rating.high
    counts = {r.version_id: (r.matches, r.boards) for r in Rating.objects.all()}
    assert counts == {a.pk: (3, 7), b.pk: (3, 8), c.pk: (2, 5)}
    change = RatingChange.objects.get(match__board_results=[-40, 10], rating__version=a)
    assert (change.wins, change.draws, change.losses, change.score) == (1, 0, 1, 0.5)
    # The match page's data: the rating changes it caused, one per side.
    detail = APIClient().get(f"/api/matches/{change.match_id}/").json()
    by_version = {row["version"]: row for row in detail["rating_changes"]}
    assert set(by_version) == {a.pk, c.pk}
    assert by_version[a.pk]["after"] == change.after
    assert (by_version[c.pk]["wins"], by_version[c.pk]["losses"]) == (1, 1)


def test_an_unrated_match_changes_no_rating(trio: tuple[BotVersion, ...]) -> None:
    a, b, _ = trio
    _finish(a, b, [10, 10])
    before = list(Rating.objects.values_list("version_id", "elo", "elo_low", "elo_high"))
    _finish(a, b, [-10, -10, -10], rated=False)
    assert list(Rating.objects.values_list("version_id", "elo", "elo_low", "elo_high")) == before
    assert RatingChange.objects.count() == 2


def test_recomputing_from_scratch_reproduces_many_matches_exactly(
    owner: Player, trio: tuple[BotVersion, ...]
) -> None:
    versions = [*trio, _version(owner, "d"), _version(owner, "e", variant="single4")]
    single = _version(owner, "f", variant="single4")
    rng = random.Random(7)
    four = versions[:4]
    for _ in range(25):
        x, y = rng.sample(four, 2)
        _finish(x, y, [rng.choice([-20, 0, 10, 30]) for _ in range(rng.randrange(1, 6))])
    _finish(versions[4], single, [1, 1, 1, 1])  # a sweep, in a variant of its own
    report = services.ratings_recompute(repair=False)
    assert (report.matches, report.ratings, report.differences) == (26, 6, [])
    # A lost update is found, named, and repaired.
    lost = RatingChange.objects.filter(rating__version=four[0]).last()
    assert lost is not None
    lost.delete()
    found = services.ratings_recompute(repair=True).differences
    assert any(f"match {lost.match_id} version {four[0].pk}" in line for line in found)
    assert services.ratings_recompute(repair=False).differences == []


def test_the_periodic_refit_repairs_a_rating_edited_behind_its_back(
    trio: tuple[BotVersion, ...],
) -> None:
    a = trio[0]
    for x, y in itertools.permutations(trio, 2):
        _finish(x, y, [10, -5, 0])
    assert ratings_refit(variant="auction4") == 0
    good = Rating.objects.get(version=a)
    Rating.objects.filter(version=a).update(elo=2000.0, elo_low=1990.0, elo_high=2010.0)
    assert ratings_refit(variant="auction4") == 1
    assert Rating.objects.get(version=a).elo == good.elo
    assert ratings_refit(variant="single4") == 0


def test_every_leaderboard_row_has_an_interval_and_disabled_versions_are_marked(
    trio: tuple[BotVersion, ...],
) -> None:
    a, b, c = trio
    _finish(a, b, [10] * 12 + [-10] * 3)
    _finish(b, c, [10] * 2 + [-10] * 2)
    BotVersion.objects.filter(pk=c.pk).update(status=BotVersion.Status.DISABLED)
    client = APIClient()
    rows = client.get("/api/ratings/", {"variant": "auction4"}).json()["results"]
    assert [row["version"]["id"] for row in rows] == [a.pk, b.pk]  # disabled left out
    every = client.get("/api/ratings/", {"variant": "auction4", "disabled": "true"}).json()
    rows = every["results"]
    assert [row["disabled"] for row in rows if row["version"]["id"] == c.pk] == [True]
    assert [row["elo"] for row in rows] == sorted((row["elo"] for row in rows), reverse=True)
    for row in rows:
        assert row["low"] < row["elo"] < row["high"]
    last = rows[-1]
    assert last["boards_to_separate"] is None  # nobody below it
    assert all(isinstance(row["boards_to_separate"], int) for row in rows[:-1])
    refused = client.get("/api/ratings/", {"disabled": "perhaps"})
    assert refused.status_code == 400 and "disabled" in refused.json()


def test_the_sprt_endpoint_concludes_on_a_clean_sweep_and_draws_its_path(
    trio: tuple[BotVersion, ...],
) -> None:
    a, b, _ = trio
    for _ in range(3):
        _finish(a, b, [25] * 100)
    body = APIClient().get("/api/ratings/sprt/", {"a": a.pk, "b": b.pk}).json()
    assert (body["wins"], body["draws"], body["losses"]) == (300, 0, 0)
    assert body["verdict"] == "H1" and 0 < body["stopped_at"] < 300
    assert body["llr"] > body["upper_bound"]
    assert body["path"][0] == {"boards": 0, "llr": 0.0}
    assert body["path"][-1]["boards"] == 300
    reverse = APIClient().get("/api/ratings/sprt/", {"a": b.pk, "b": a.pk}).json()
    assert reverse["verdict"] == "H0" and reverse["losses"] == 300


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"a": 1, "b": 1}, "against itself"),
        ({"a": 1, "b": 999999}, "there is no bot version 999999"),
        ({"a": 1, "b": 2, "elo0": 10, "elo1": 10}, "elo1 must be greater than elo0"),
        ({"a": 1, "b": 2, "alpha": 0.9}, "alpha"),
        ({"a": "one", "b": 2}, "valid integer"),
        ({"a": 1, "b": 2**70}, "less than or equal to"),
    ],
)
def test_the_sprt_endpoint_refuses_bad_queries_with_a_message(
    trio: tuple[BotVersion, ...], query: dict[str, object], message: str
) -> None:
    a, b, _ = trio
    ids = {1: a.pk, 2: b.pk}
    params = {key: ids.get(value, value) if key in "ab" else value for key, value in query.items()}  # type: ignore[call-overload]
    response = APIClient().get("/api/ratings/sprt/", params)
    assert response.status_code == 400
    assert message in str(response.json())


def test_the_sprt_endpoint_refuses_versions_of_different_variants(
    owner: Player, trio: tuple[BotVersion, ...]
) -> None:
    other = _version(owner, "s", variant="single4")
    response = APIClient().get("/api/ratings/sprt/", {"a": trio[0].pk, "b": other.pk})
    assert response.status_code == 400 and "plays single4" in str(response.json())


def test_the_sprt_page_draws_the_llr_path_with_no_inline_script_or_style(
    client: object, trio: tuple[BotVersion, ...]
) -> None:
    a, b, _ = trio
    _finish(a, b, [10, 0, -10, 10] * 20)
    response = client.get("/ratings/sprt/", {"a": a.pk, "b": b.pk})  # type: ignore[attr-defined]
    assert response.status_code == 200
    html = response.content.decode()
    assert "<polyline" in html and 'class="bound upper"' in html
    assert "80 boards" in html and "no decision yet" in html
    assert "<script" not in html and "<style" not in html and " style=" not in html
    bad = client.get("/ratings/sprt/", {"a": a.pk, "b": a.pk})  # type: ignore[attr-defined]
    assert bad.status_code == 400 and "against itself" in bad.content.decode()
    empty = client.get("/ratings/sprt/")  # type: ignore[attr-defined]
    assert empty.status_code == 200 and "<svg" not in empty.content.decode()
