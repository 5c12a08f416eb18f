"""A human challenges a bot to a duplicate match and plays it through the pages."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from arena.models import Match, Player
from arena.seeding import deal_problems
from bots.duplicate import summarize
from leagues.play import challenges, scoring, services
from leagues.play.models import Challenge, PlayTable
from tests.arena.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def play_the_match(client: Client, challenge_id: int) -> None:
    rng = random.Random(challenge_id)
    while True:
        page = client.get(f"/play/challenges/{challenge_id}/").content.decode()
        found = re.search(r'id="next-table" href="/play/tables/(\d+)/"', page)
        if found is None:
            return
        table_id = int(found.group(1))
        table = services.hand_of(PlayTable.objects.get(pk=table_id))
        legal = [str(action) for action in table.state.legal_actions]
        response = client.post(
            f"/play/tables/{table_id}/act/", {"action": rng.choice(legal), "ply": table.ply}
        )
        assert response.status_code == 302


def test_a_whole_match_against_a_bot_is_scored_as_duplicate(alice: Player) -> None:
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    created = client.post(
        "/play/challenges/new/",
        {"variant": "single4", "opponent": "reference:greedy", "boards": "2"},
    )
    assert created.status_code == 302
    challenge = Challenge.objects.get()
    # A table is dealt only when the one before it is over: at table B the human holds the
    # cards the bot held at table A, so the two are never open at once.
    assert len(challenges.challenge_tables(challenge)) == 1
    play_the_match(client, challenge.pk)
    challenge.refresh_from_db()
    rows = challenges.challenge_tables(challenge)
    # RULES.md section 9: each board at two tables, the human's side at 0/2 then at 1/3,
    # same cards, same dealer.
    assert [(row.board, row.table, row.play_table.human_seat) for row in rows] == [
        (1, "A", 0),
        (2, "A", 0),
        (1, "B", 1),
        (2, "B", 1),
    ]
    for number in (1, 2):
        a, b = (row.play_table for row in rows if row.board == number)
        assert (a.seed, a.dealer) == (b.seed, b.dealer)
    assert challenge.status == Challenge.Status.FINISHED
    expected = [
        scoring.board_result(
            {row.table: row.play_table.result["side_scores"] for row in rows if row.board == n},
            "single4",
        )
        for n in (1, 2)
    ]
    assert challenge.board_results == expected
    assert challenge.summary == summarize(expected).to_json()
    # The revealed secret re-derives every deal (arena.seeding).
    boards = {row.board: (row.play_table.seed, row.play_table.dealer) for row in rows}
    assert deal_problems(challenge.seed_secret, challenge.seed_commitment, boards, players=4) == []
    # Rated in its own pool, and nothing reaches the bot leaderboard.
    names = {row["name"] for row in challenges.challenge_ratings(variant="single4")}
    assert names == {"human alice", "greedy (reference bot)"}
    assert not Match.objects.exists()
    page = client.get(f"/play/challenges/{challenge.pk}/").content.decode()
    assert 'id="challenge-result"' in page and challenge.seed_secret in page


def test_individual_games_seat_the_human_once_in_every_seat() -> None:
    # RULES.md section 9: an individual game is played once for each rotation of the seats.
    seats = [scoring.human_seat_at(name, "cutthroat3") for _, name in scoring.plan("cutthroat3", 1)]
    assert seats == [0, 1, 2]


def test_a_bad_challenge_is_refused_with_its_reason(alice: Player) -> None:
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    response = client.post(
        "/play/challenges/new/",
        {"variant": "single4", "opponent": "reference:greedy", "boards": "9"},
    )
    assert response.status_code == 400 and "1 to 8 boards" in response.content.decode()
    assert not Challenge.objects.exists()
