"""With a broker, the demo's seed waits for the worker: versions validated, then matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import demo
from arena.models import BotVersion, Match, Rating
from tests.arena.workers import celery_worker, require_worker_services

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_seed_pairs_the_bots_once_the_worker_has_validated_them(tmp_path: Path) -> None:
    require_worker_services()
    said: list[str] = []
    with celery_worker(tmp_path, SANDBOX_MODE="plain"):
        # Two boards a match rather than the demo's six: what is checked is the order of
        # things (validation, then matches, then ratings), not how much is played.
        demo.seed(say=said.append, variants=["auction4"], boards=2)
    versions = BotVersion.objects.filter(bot__variant="auction4")
    assert versions.count() == 3
    assert set(versions.values_list("status", flat=True)) == {"active"}
    # Three reference bots: a round robin of three matches, every one played.
    matches = Match.objects.filter(variant="auction4")
    assert sorted(matches.values_list("status", flat=True)) == ["done"] * 3
    # Each rated on its boards, with an interval around its rating.
    ratings = Rating.objects.filter(variant="auction4")
    assert ratings.count() == 3
    assert all(r.elo_low < r.elo < r.elo_high for r in ratings)
    assert "bot validation: all 3 done" in said
    assert "demo matches: all 3 done" in said
