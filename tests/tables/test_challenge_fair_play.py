"""A challenge of a bot can neither be read ahead nor chosen after the fact.

- A human never plays the same deal twice: what one table of a challenge showed its owner
  predicts none of the cards at any other table the owner plays (the README's "Fair play
  across tables").
- Every challenge started counts: one left unfinished expires, its boards scored as the
  owner's forfeits, and it enters the human-against-bot ratings like any other.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from arena.models import Player
from tables import challenge_boards, challenges, referee, services
from tables.models import Challenge, ChallengeTable, PlayTable
from tests.arena.conftest import PASSWORD
from tests.cards import card_tokens

pytestmark = pytest.mark.django_db

RANDOM = {"kind": "reference", "name": "random"}
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|csrftoken=)"?[^"; ]+')


def create(client: APIClient, **fields: Any) -> dict[str, Any]:
    body = {"variant": "double4", "opponent": RANDOM, "boards": 2, **fields}
    created = client.post("/api/play/challenges/", body, format="json")
    assert created.status_code == 201, created.content
    return dict(created.json())


def read(client: APIClient, challenge_id: int) -> dict[str, Any]:
    return dict(client.get(f"/api/play/challenges/{challenge_id}/").json())


def play_table(client: APIClient, table_id: int, rng: random.Random) -> list[dict[str, Any]]:
    """Play the human's turns at one table through the API; every table view received."""
    views = [client.get(f"/api/play/tables/{table_id}/").json()]
    while views[-1]["status"] == "playing":
        answer = client.post(
            f"/api/play/tables/{table_id}/actions/",
            {"action": rng.choice(views[-1]["controls"]["legal"]), "ply": views[-1]["ply"]},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        views.append(answer.json()["table"])
        views.append(client.get(f"/api/play/tables/{table_id}/").json())
    return views


def cards_seen(views: list[dict[str, Any]]) -> dict[int, Counter[str]]:
    """Every card the owner was shown, by the seat that held it: the owner's hand as first
    dealt, and every card each seat named in a move (played, melded, passed)."""
    seen: dict[int, Counter[str]] = {}
    # Each move is heard once however many views repeat it.
    moves = {move["ply"]: move for view in views for move in view["moves"]}
    for move in moves.values():
        seat = move["seat"]
        seen[seat] = seen.get(seat, Counter()) + card_tokens([move["action"]])
    first = views[0]
    own = first["human_seat"]
    seen[own] = seen.get(own, Counter()) | Counter(first["observation"]["hand"])
    return seen


def page_faces(client: Client, table_id: int) -> set[str]:
    """The faces the table's page, its fragment and its replay name for the owner."""
    texts = [
        client.get(f"/play/tables/{table_id}/").content.decode(),
        client.get(f"/play/tables/{table_id}/state/").content.decode(),
        client.get(f"/play/tables/{table_id}/replay/frames.json").content.decode(),
    ]
    return set(card_tokens([CSRF.sub("", text) for text in texts]))


def predicted(seen: dict[int, Counter[str]], table: PlayTable) -> int:
    """How many of the cards dealt at ``table`` the seen cards give, seat by seat."""
    hand = referee.rebuild(
        table.variant, rules=table.rules, seed=table.seed, dealer=table.dealer, actions=[]
    )
    return sum(
        sum((seen.get(seat, Counter()) & Counter(dealt)).values())
        for seat, dealt in enumerate(hand.initial_hands)
    )


def test_what_a_table_showed_predicts_no_card_of_any_later_table(
    alice: Player, alice_client: APIClient, empty_cache: None
) -> None:
    rng = random.Random(5)
    pages = Client()
    assert pages.login(username=alice.user.username, password=PASSWORD)
    challenge = create(alice_client)
    first = challenge["tables"][0]
    seen = cards_seen(play_table(alice_client, first["play_table"], rng))
    # The pages of the finished table show nothing the API did not: the record is whole.
    shown = set().union(*seen.values())
    assert page_faces(pages, first["play_table"]) <= shown
    assert sum(sum(cards.values()) for cards in seen.values()) >= 20  # the own hand at least
    by_board = {first["board"]: seen}
    # Every later table of the challenge: the challenge names its board, so the cards seen
    # at an earlier table of that board would give the owner every hand there, seat by seat.
    while (following := read(alice_client, challenge["id"])["next_table"]) is not None:
        row = ChallengeTable.objects.select_related("play_table").get(play_table_id=following)
        assert predicted(by_board.get(row.board, {}), row.play_table) == 0
        by_board[row.board] = cards_seen(play_table(alice_client, following, rng))
    rows = challenges.challenge_tables(Challenge.objects.get(pk=challenge["id"]))
    # The human is never seated at two tables of the same deal.
    deals = [(row.play_table.seed, row.play_table.dealer) for row in rows]
    assert len(deals) == len(set(deals)) == 2
    assert [row.board for row in rows] == [1, 2]


def test_an_unfinished_challenge_expires_as_forfeits_and_is_rated(
    alice: Player, alice_client: APIClient, empty_cache: None
) -> None:
    # Open three challenges, finish the one you like, leave the others: all three count.
    rng = random.Random(2)
    kept = create(alice_client, variant="twohand", boards=1)
    left = create(alice_client, variant="twohand", boards=2)
    dropped = create(alice_client, variant="twohand", boards=2)
    play_table(alice_client, kept["tables"][0]["play_table"], rng)
    assert read(alice_client, kept["id"])["status"] == "finished"
    # One move at the first table of one challenge, none at the other.
    view = alice_client.get(left["tables"][0]["api_url"]).json()
    alice_client.post(
        left["tables"][0]["api_url"] + "actions/",
        {"action": view["controls"]["legal"][0], "ply": view["ply"]},
        format="json",
    )
    ratings = challenges.challenge_ratings(variant="twohand")
    assert {row["name"]: row["boards"] for row in ratings}["human alice"] == 1

    # Their time runs out: the stored times are moved back, as a clock a day on would.
    day = timedelta(seconds=settings.PLAY_CHALLENGE_EXPIRES_S)
    for challenge in (left, dropped):
        Challenge.objects.filter(pk=challenge["id"]).update(
            created=timezone.now() - day - timedelta(seconds=1),
            expires=timezone.now() - timedelta(seconds=1),
        )
    # Reading one scores it at once; the periodic job scores the other.
    from tables.tasks import challenges_expire_task

    expired = read(alice_client, left["id"])
    assert expired["status"] == "finished" and len(expired["board_results"]) == 2
    assert challenges_expire_task.apply().get() == 1
    assert Challenge.objects.get(pk=dropped["id"]).status == Challenge.Status.FINISHED

    for challenge_id in (left["id"], dropped["id"]):
        final = read(alice_client, challenge_id)
        assert final["status"] == "finished" and final["next_table"] is None
        assert [row["board"] for row in final["tables"]] == [1, 2]
        for row in final["tables"]:
            # Each board the human did not finish is the human's forfeit, the same as
            # leaving the table, compared with the bot's own table of the same cards.
            assert row["status"] == "abandoned" and row["fault"] == "expired"
            table = PlayTable.objects.get(pk=row["play_table"])
            # Scored from where the hand stopped (no move, when it was never dealt).
            hand = services.hand_of(table)
            forfeit = referee.forfeit_scores(hand.game, hand.rules, table.human_seat, hand.state)
            assert row["side_scores"] == forfeit
            assert row["result"] == challenge_boards.board_result(
                forfeit,
                row["comparison"]["side_scores"],
                seat=table.human_seat,
                variant="twohand",
            )
        assert final["board_results"] == [row["result"] for row in final["tables"]]
    ratings = challenges.challenge_ratings(variant="twohand")
    assert {row["name"]: row["boards"] for row in ratings}["human alice"] == 5
    page = Client()
    assert page.login(username=alice.user.username, password=PASSWORD)
    text = page.get(f"/play/challenges/{left['id']}/").content.decode()
    assert "Expired on" in text and "count as forfeits" in text
    assert text.count("abandoned (expired)") == 2


def test_the_expiry_is_stated_and_run_by_the_periodic_jobs(alice: Player) -> None:
    jobs = {job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "play.challenges_expire" in jobs
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    listing = client.get("/play/challenges/").content.decode()
    assert "within 24 hours of starting it" in listing
    created = client.post(
        "/play/challenges/new/",
        {"variant": "twohand", "opponent": "reference:random", "boards": "1"},
    )
    challenge = Challenge.objects.get()
    page = client.get(created["Location"]).content.decode()
    deadline = challenge.expires.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    assert f"Play it by <strong>{deadline} UTC</strong>" in page
    # Set when the challenge is created, from PLAY_CHALLENGE_EXPIRES_S (24 hours by default).
    assert (challenge.expires - challenge.created).total_seconds() == pytest.approx(86_400, abs=60)
