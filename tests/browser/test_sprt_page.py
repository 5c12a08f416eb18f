"""The SPRT page in a real browser: the LLR path, the bounds and the verdict, on a phone too."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from arena import services
from arena.models import Bot, BotVersion, Match
from engine.registry import load_game
from tests.browser.conftest import PHONE, Problems, assert_clean, assert_fits_phone, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def _versions() -> tuple[BotVersion, BotVersion]:
    owner = services.player_register(username="tester", password="a-long-test-password-1")
    made = []
    for name in ("new", "old"):
        bot = Bot.objects.create(owner=owner, name=name, variant="auction4")
        made.append(
            BotVersion.objects.create(
                bot=bot,
                number=1,
                kind="module",
                source=b"",
                sha256="0" * 64,
                size=0,
                status="active",
            )
        )
    return made[0], made[1]


def _played(x: BotVersion, y: BotVersion, results: list[int], seq: int) -> None:
    Match.objects.create(
        variant="auction4",
        rules=load_game("auction4").rules_for({}).to_json(),
        seed=seq,
        board_count=len(results),
        version_x=x,
        version_y=y,
        decision_ms=1000,
        bank_ms=60000,
        status=Match.Status.DONE,
        finished=timezone.now(),
        completion_seq=seq,
        board_results=results,
    )


def test_the_sprt_page_draws_the_path_to_a_decision(page: Any, problems: Problems) -> None:
    new, old = _versions()
    _played(new, old, [20, -10, 0, 30, 10] * 60, 1)
    _played(old, new, [-10, 10, -20, 0, -30] * 60, 2)
    page.goto(f"/ratings/sprt/?a={new.pk}&b={old.pk}&elo0=0&elo1=10")
    assert page.locator("h1").inner_text() == "Sequential test of two versions"
    assert page.locator("#sprt-verdict").inner_text().startswith("H1 accepted")
    assert page.locator("svg.llr-chart polyline").count() == 1
    assert page.locator("svg.llr-chart circle.stop").count() == 1
    # Every field has a label a screen reader can announce.
    for name in ("a", "b", "elo0", "elo1", "alpha", "beta"):
        assert (
            page.get_by_label(
                name if len(name) > 1 else f"Version {name.upper()}", exact=False
            ).count()
            >= 1
        )
    snapshot(page, "sprt-wide")
    assert_fits_phone(page, "sprt")
    chart_box = page.locator("svg.llr-chart").bounding_box()
    assert chart_box is not None and chart_box["width"] <= PHONE["width"]
    snapshot(page, "sprt-phone")
    assert_clean(problems)


def test_a_bad_query_is_explained_on_the_page(page: Any, problems: Problems) -> None:
    new, _ = _versions()
    response = page.goto(f"/ratings/sprt/?a={new.pk}&b={new.pk}")
    assert response is not None and response.status == 400
    assert "against itself" in page.locator(".errorlist").inner_text()
    problems.clear()  # the refusal itself answers 400; nothing else may fail
    assert_clean(problems)
