"""Rated matches are dealt from a server secret: committed at creation, revealed when done."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from rest_framework.test import APIClient

from arena import selectors
from arena.models import Board, BotVersion, Game, Match
from arena.seeding import board_seed, match_seed
from arena.services.matches import match_create
from arena.services.matchmaking import matchmaking_pair
from arena.tasks import match_run_task
from engine.registry import load_game
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, trusted_version

pytestmark = pytest.mark.usefixtures("plain_bots")


@pytest.fixture
def versions(alice, bob) -> tuple[BotVersion, BotVersion]:  # type: ignore[no-untyped-def]
    return trusted_version(alice, "first", FIRST_LEGAL_BOT), trusted_version(bob, "rnd", RANDOM_BOT)


def _challenge(client: APIClient, x: BotVersion, y: BotVersion, **extra: object) -> dict:  # type: ignore[type-arg]
    response = client.post(
        "/api/matches/", {"version": x.pk, "opponent": y.pk, "boards": 2, **extra}
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_a_rated_challenge_with_a_chosen_seed_is_refused_and_creates_nothing(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    x, y = versions
    refused = alice_client.post(
        "/api/matches/", {"version": x.pk, "opponent": y.pk, "boards": 2, "seed": 12345}
    )
    assert refused.status_code == 400
    assert "only allowed for an unrated match" in refused.json()["detail"]
    assert "seed" in refused.json()
    assert not Match.objects.exists()


def test_an_unrated_match_may_choose_its_seed_and_is_shown_as_such(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    created = _challenge(alice_client, *versions, seed=12345, rated=False)
    assert (created["rated"], created["seed_chosen"], created["seed"]) == (False, True, 12345)
    assert created["seed_commitment"] is None
    match_run_task.apply(args=[created["id"]])
    seeds = Board.objects.filter(games__match_id=created["id"]).values_list("seed", flat=True)
    assert set(seeds) == {board_seed(12345, 1), board_seed(12345, 2)}
    report = APIClient().get(f"/api/matches/{created['id']}/verification/").json()
    assert (report["committed"], report["verified"], report["problems"]) == (False, True, [])


def _admin_client() -> Client:
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-9-long!")
    client = Client()
    client.force_login(admin)
    return client


def test_the_secret_stays_unreadable_until_the_match_is_done_and_then_verifies(
    alice_client: APIClient, versions: tuple[BotVersion, BotVersion]
) -> None:
    created = _challenge(alice_client, *versions)
    match = Match.objects.get(pk=created["id"])
    secret = match.seed_secret
    dealing_seed = match_seed(bytes.fromhex(secret))
    # Everything that would let a bot's author compute the deals ahead of the play.
    revealing = [secret, str(dealing_seed), str(board_seed(dealing_seed, 1))]
    assert created["seed_commitment"] == hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    assert (created["seed"], created["seed_secret"], created["seed_chosen"]) == (None, None, False)

    admin = _admin_client()
    pages = [
        str(created),
        alice_client.get(f"/api/matches/{match.pk}/").content.decode(),
        APIClient().get("/api/matches/").content.decode(),
        APIClient().get(f"/api/matches/{match.pk}/verification/").content.decode(),
        APIClient().get(f"/api/matches/{match.pk}/replay/", {"table": "Z"}).content.decode(),
        alice_client.get(f"/api/matches/{match.pk}/replay/").content.decode(),
        admin.get("/admin/arena/match/").content.decode(),
        admin.get(f"/admin/arena/match/{match.pk}/change/").content.decode(),
    ]
    for page in pages:
        for value in revealing:
            assert value not in page
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    running = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert running["seed_secret"] is None and running["seed"] is None
    Match.objects.filter(pk=match.pk).update(status=Match.Status.QUEUED)

    match_run_task.apply(args=[match.pk])
    done = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert (done["status"], done["seed_secret"], done["seed"]) == ("done", secret, dealing_seed)
    report = APIClient().get(f"/api/matches/{match.pk}/verification/").json()
    assert (report["verified"], report["problems"], report["secret"]) == (True, [], secret)
    assert [board["seed"] for board in report["boards"]] == [
        board_seed(dealing_seed, 1),
        board_seed(dealing_seed, 2),
    ]


def test_verification_reports_a_board_or_commitment_that_does_not_follow_from_the_secret(
    versions: tuple[BotVersion, BotVersion], capsys: pytest.CaptureFixture[str]
) -> None:
    match = match_create(version_x=versions[0], version_y=versions[1], boards=2)
    match_run_task.apply(args=[match.pk])
    call_command("verify_match_deals", match.pk)
    assert f"match {match.pk}: 2 boards verified (committed secret)" in capsys.readouterr().out

    Board.objects.filter(games__match=match, games__number=2).update(seed=12345)
    Match.objects.filter(pk=match.pk).update(seed_commitment="0" * 64)
    report = APIClient().get(f"/api/matches/{match.pk}/verification/").json()
    assert report["verified"] is False
    assert "the revealed secret does not match the published commitment" in report["problems"]
    assert any(p.startswith("board 2: seed 12345 is not") for p in report["problems"])
    with pytest.raises(CommandError, match="1 match"):
        call_command("verify_match_deals")


def test_matchmaking_and_direct_matches_draw_their_seeds_on_the_server(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    (paired,) = matchmaking_pair(variant="auction4")
    direct = match_create(version_x=versions[1], version_y=versions[0], boards=1)
    for match in (paired, direct):
        assert match.rated and not match.seed_chosen and match.seed is None
        assert len(match.seed_commitment) == 64
    assert paired.seed_secret != direct.seed_secret


def test_a_stored_replay_whose_cards_are_not_the_boards_deal_fails_verification(
    versions: tuple[BotVersion, BotVersion],
) -> None:
    match = match_create(
        version_x=versions[0], version_y=versions[1], boards=1, seed=7, rated=False
    )
    match_run_task.apply(args=[match.pk])
    match.refresh_from_db()
    row = Game.objects.select_related("replay").get(match=match, table="A")
    game = load_game(match.variant)
    hand = row.replay.document["hand"]
    # The replay claims the cards of another deal beside the board's seed.
    other = game.initial_deal(game.new_initial_state(seed=8, dealer=hand["dealer"]))
    hand["deal"] = [" ".join(cards) for cards in other.hands]
    row.replay.save()
    report = selectors.match_verification(match=match)
    assert report["verified"] is False
    assert report["problems"] == ["board 1: the cards of table A are not the deal"]
