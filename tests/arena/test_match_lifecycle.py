"""A match from queue to ratings: claimed once, stored once, rated once, replayable."""

from __future__ import annotations

import dataclasses

import pytest

from arena import services
from arena.models import BotVersion, Game, Match, Rating, RatingChange
from arena.sandbox import InfrastructureFault
from arena.services.controls import REFERENCE_MIN_BOARDS
from arena.services.matches import match_claim, match_create
from arena.tasks import bot_version_validate_task, match_run_task
from bots.controls import reference_controls
from engine.registry import load_game
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, SLOW_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def test_a_match_is_played_stored_and_rated_once(versions: tuple[BotVersion, BotVersion]) -> None:
    x, y = versions
    match = match_create(version_x=x, version_y=y, boards=3)
    assert match.status == Match.Status.QUEUED

    assert match_run_task.apply(args=[match.pk]).get() == "done"
    match.refresh_from_db()
    assert match.status == Match.Status.DONE
    assert match.completion_seq is not None
    assert Game.objects.filter(match=match).count() == 6
    assert len(match.board_results) == 3
    assert match.score_x == sum(match.board_results)
    assert RatingChange.objects.filter(match=match).count() == 2
    elo = dict(Rating.objects.values_list("version_id", "elo"))

    # Delivered again: the claim refuses it and nothing changes.
    assert match_run_task.apply(args=[match.pk]).get() == "not claimed"
    assert RatingChange.objects.filter(match=match).count() == 2
    assert dict(Rating.objects.values_list("version_id", "elo")) == elo


def test_every_stored_replay_verifies_through_the_engine(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=2)
    match_run_task.apply(args=[match.pk])
    for game in Game.objects.filter(match=match).select_related("replay"):
        document = game.replay.document
        assert document["format"] == "pinochle-arena/game-replay"
        replay = load_game(document["variant"]).read_replay(document["hand"])
        assert replay.verify() is None
        assert len(document["timings_ms"]) == len(replay.actions)


def test_the_same_seed_deals_the_same_boards(versions: tuple[BotVersion, BotVersion]) -> None:
    first = match_create(
        version_x=versions[0], version_y=versions[1], boards=2, seed=99, rated=False
    )
    second = match_create(
        version_x=versions[0], version_y=versions[1], boards=2, seed=99, rated=False
    )
    for match in (first, second):
        match_run_task.apply(args=[match.pk])
    seeds = [
        list(Game.objects.filter(match=m).order_by("number", "table").values_list("board__seed"))
        for m in (first, second)
    ]
    assert seeds[0] == seeds[1]


def test_only_one_worker_can_claim_a_match(versions: tuple[BotVersion, BotVersion]) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    assert match_claim(match_id=match.pk, token="first-worker") is not None
    assert match_claim(match_id=match.pk, token="second-worker") is None


def test_a_lapsed_claim_can_be_taken_over(versions: tuple[BotVersion, BotVersion]) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    assert match_claim(match_id=match.pk, token="dead-worker") is not None
    Match.objects.filter(pk=match.pk).update(lease_until="2000-01-01T00:00:00Z")
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    match.refresh_from_db()
    assert match.attempts == 2


def test_a_bot_that_times_out_forfeits_and_its_opponent_is_credited(
    alice,
    bob,  # type: ignore[no-untyped-def]
) -> None:
    x = trusted_version(alice, "first", FIRST_LEGAL_BOT)
    bot = services.bot_create(owner=bob, name="slow", variant="auction4")
    slow = services.bot_version_submit(bot=bot, data=SLOW_BOT, filename="bot.py")
    # Validation of a bot that times out rejects it; this match seats it directly.
    BotVersion.objects.filter(pk=slow.pk).update(status=BotVersion.Status.ACTIVE)
    slow.refresh_from_db()
    # The slow bot sleeps 5 s a decision; the first-legal one answers in well under the
    # second however busy the machine.
    match = match_create(version_x=x, version_y=slow, boards=2, decision_ms=1000, bank_ms=60_000)
    match_run_task.apply(args=[match.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.DONE
    assert match.faults == 4  # every board at both tables
    assert all(result > 0 for result in match.board_results)
    game = Game.objects.filter(match=match).first()
    assert game is not None and game.fault["kind"] == "timeout"
    slow.refresh_from_db()
    assert slow.fault_count == 4
    assert match.share_x == 1.0


def test_a_bot_failing_validation_is_rejected_with_the_reason(
    alice,
    settings,  # type: ignore[no-untyped-def]
) -> None:
    bot = services.bot_create(owner=alice, name="slow", variant="auction4")
    version = services.bot_version_submit(bot=bot, data=SLOW_BOT, filename="bot.py")
    settings.MATCH_DECISION_MS = 300
    assert bot_version_validate_task.apply(args=[version.pk]).get() == "rejected"
    version.refresh_from_db()
    assert version.status == BotVersion.Status.REJECTED
    assert "timeout" in version.status_reason
    assert "validation failed" in version.build_log


def test_an_infrastructure_fault_is_retried_and_never_rated(
    versions: tuple[BotVersion, BotVersion],
    settings,  # type: ignore[no-untyped-def]
) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=1)
    good = settings.SANDBOX_CONFIG
    settings.SANDBOX_MODE = "bubblewrap"
    settings.SANDBOX_CONFIG = dataclasses.replace(good, bwrap="/usr/bin/no-such-bwrap")
    with pytest.raises(InfrastructureFault):
        services.match_run(match_id=match.pk)
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.QUEUED, 1)
    assert "no-such-bwrap" in match.error
    assert not RatingChange.objects.exists()

    settings.SANDBOX_MODE = "plain"
    settings.SANDBOX_CONFIG = good
    assert services.match_run(match_id=match.pk) == "done"
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.DONE, 2)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_recomputing_ratings_reproduces_the_incremental_ones_exactly(
    versions: tuple[BotVersion, BotVersion], carol_version: BotVersion
) -> None:
    x, y = versions
    for pair in [(x, y), (y, carol_version), (carol_version, x), (x, y)]:
        match_run_task.apply(args=[match_create(version_x=pair[0], version_y=pair[1], boards=2).pk])
    stored = set(Rating.objects.values_list("version_id", "elo", "elo_low", "elo_high"))
    history = set(RatingChange.objects.values_list("match_id", "rating_id", "before", "after"))
    report = services.ratings_recompute(repair=False)
    assert report.matches == 4
    assert report.differences == []
    Rating.objects.filter(version=x).update(elo=1234.5, elo_low=1200.0, elo_high=1300.0)
    RatingChange.objects.filter(rating__version=y).update(after=1.0)
    assert len(services.ratings_recompute(repair=True).differences) >= 2
    assert set(Rating.objects.values_list("version_id", "elo", "elo_low", "elo_high")) == stored
    repaired = set(RatingChange.objects.values_list("match_id", "rating__version_id", "after"))
    assert {(m, a) for m, _, _, a in history} == {(m, a) for m, _, a in repaired}
    assert services.ratings_recompute(repair=False).differences == []


@pytest.fixture
def carol_version(db: None) -> BotVersion:
    carol = services.player_register(username="carol", password="another-long-pass-4")
    return trusted_version(carol, "c", RANDOM_BOT)


def test_versions_must_be_active_and_of_one_variant(
    versions: tuple[BotVersion, BotVersion],
    alice,  # type: ignore[no-untyped-def]
) -> None:
    other = trusted_version(alice, "single", FIRST_LEGAL_BOT, variant="single4")
    from arena.errors import InvalidInput

    with pytest.raises(InvalidInput, match="plays auction4 but"):
        match_create(version_x=versions[0], version_y=other, boards=1)
    with pytest.raises(InvalidInput, match="against itself"):
        match_create(version_x=versions[0], version_y=versions[0], boards=1)
    BotVersion.objects.filter(pk=versions[1].pk).update(status=BotVersion.Status.DISABLED)
    versions[1].refresh_from_db()
    with pytest.raises(InvalidInput, match="disabled, not active"):
        match_create(version_x=versions[0], version_y=versions[1], boards=1)


def test_a_long_enough_match_carries_the_reference_pairing_of_its_deals(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=REFERENCE_MIN_BOARDS)
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    match.refresh_from_db()
    game = load_game(match.variant)
    # The worker replayed the reference pairing on exactly the match's deals (each board's
    # controls depend on its deal alone: the first two are checked)...
    assert len(match.board_controls) == match.board_count
    expected = reference_controls(
        game, game.rules_from_json(match.rules), match_seed=match.seed, boards=2
    )
    assert match.board_controls[:2] == [list(row) for row in expected]
    assert match.control_seconds is not None and match.control_seconds > 0
    # ... and the first match of its rules has no history to centre them on yet.
    assert match.cv_mean_x is None
