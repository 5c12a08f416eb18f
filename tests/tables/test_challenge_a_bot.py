"""A human challenges a bot to a duplicate match and plays it through the pages."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arena.models import Match, Player
from arena.seeding import deal_problems
from bots.duplicate import summarize
from engine.registry import load_game
from tables import bot_table, challenge_boards, challenges, referee, services
from tables.models import Challenge, ChallengeTable, PlayTable
from tables.referee import parse_seat
from tests.arena.conftest import PASSWORD
from tests.tables.conftest import play_out

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
    assert challenge.format == Challenge.Format.BOT_TABLE
    assert len(challenges.challenge_tables(challenge)) == 1
    play_the_match(client, challenge.pk)
    challenge.refresh_from_db()
    rows = challenges.challenge_tables(challenge)
    # One table a board, the human's seat moving on with the dealer (board n: n seats
    # after dealer n - 1), the bot at every other seat.
    assert [(row.board, row.play_table.dealer, row.play_table.human_seat) for row in rows] == [
        (1, 0, 1),
        (2, 1, 3),
    ]
    assert len({row.play_table.seed for row in rows}) == 2
    greedy = {"kind": "reference", "name": "greedy"}
    for row in rows:
        seats = list(row.play_table.seats)
        assert seats.pop(row.play_table.human_seat) == "human" and seats == [greedy] * 3
        # RULES.md section 9: the comparison is the same board (same cards, same dealer)
        # with the bot at every seat, the human's too; the engine replays it to its scores.
        comparison = row.comparison
        assert comparison["seats"] == [greedy] * 4 and comparison["fault"] is None
        replayed = referee.rebuild(
            "single4",
            rules=row.play_table.rules,
            seed=row.play_table.seed,
            dealer=row.play_table.dealer,
            actions=comparison["actions"],
        )
        assert replayed.state.is_terminal()
        assert referee.side_scores(replayed) == comparison["side_scores"]
    assert challenge.status == Challenge.Status.FINISHED
    expected = [
        challenge_boards.board_result(
            row.play_table.result["side_scores"],
            row.comparison["side_scores"],
            seat=row.play_table.human_seat,
            variant="single4",
        )
        for row in rows
    ]
    assert challenge.board_results == expected
    assert challenge.summary == summarize(expected).to_json()
    # The revealed secret re-derives every deal (arena.seeding).
    boards = {row.board: (row.play_table.seed, row.play_table.dealer) for row in rows}
    game = load_game("single4")
    assert deal_problems(challenge.seed_secret, challenge.seed_commitment, boards, game=game) == []
    # Rated in its own pool, and nothing reaches the bot leaderboard.
    names = {row["name"] for row in challenges.challenge_ratings(variant="single4")}
    assert names == {"human alice", "greedy (reference bot)"}
    assert not Match.objects.exists()
    page = client.get(f"/play/challenges/{challenge.pk}/").content.decode()
    assert 'id="challenge-result"' in page and challenge.seed_secret in page
    for number, result in enumerate(expected, start=1):
        row_html = re.search(rf'<tr data-board="{number}">.*?</tr>', page, re.S)
        assert row_html is not None and f"<strong>{result}</strong>" in row_html.group(0)


def test_the_bot_only_table_is_the_same_bot_on_the_same_cards() -> None:
    # The bot decides at the bot-only table as at the human's (rebuilt for each decision,
    # the same clock): a human who plays the seat exactly as the bot would scores 0.
    bot = parse_seat({"kind": "reference", "name": "greedy"}, "single4")
    played = bot_table.play(variant="single4", rules=None, seed=11, dealer=2, bot=bot)
    seat = challenge_boards.human_seat(3, "single4")
    assert (
        challenge_boards.board_result(
            played["side_scores"], played["side_scores"], seat=seat, variant="single4"
        )
        == 0
    )
    again = bot_table.play(variant="single4", rules=None, seed=11, dealer=2, bot=bot)
    assert again == played


def test_the_human_plays_every_position_round_the_dealer() -> None:
    # RULES.md section 9: an individual game rotates the players over the seats; here the
    # human's seat moves on with the dealer, so as many boards as players give every
    # position round the dealer once.
    for variant, players in (("cutthroat3", 3), ("twohand", 2), ("single4", 4)):
        game = load_game(variant)
        dealers = [game.board_dealer(number) for number in range(1, players + 1)]
        seats = [challenge_boards.human_seat(number, variant) for number in range(1, players + 1)]
        assert sorted(
            (seat - dealer) % players for seat, dealer in zip(seats, dealers, strict=True)
        ) == list(range(players))


def test_a_bad_challenge_is_refused_with_its_reason(alice: Player) -> None:
    client = Client()
    assert client.login(username=alice.user.username, password=PASSWORD)
    response = client.post(
        "/play/challenges/new/",
        {"variant": "single4", "opponent": "reference:greedy", "boards": "9"},
    )
    assert response.status_code == 400 and "1 to 8 boards" in response.content.decode()
    assert not Challenge.objects.exists()


def two_table_challenge(alice: Player, *, tables: list[tuple[int, str]]) -> Challenge:
    """A challenge as the earlier format left it: the human at the given tables."""
    challenge = Challenge.objects.create(
        owner=alice.user,
        variant="twohand",
        opponent={"kind": "reference", "name": "random"},
        boards=1,
        format=Challenge.Format.TWO_TABLES,
        seed_commitment="0" * 64,
        seed_secret="1" * 64,
        expires=timezone.now() + timedelta(hours=24),
    )
    for order, (number, name) in enumerate(tables):
        seed, dealer = challenges.board_deal(challenge, number)
        table = services.table_start(
            owner=alice.user,
            variant="twohand",
            seed=seed,
            dealer=dealer,
            human_seat=challenge_boards.two_table_seat(name, "twohand"),
            bots=[challenge.opponent],
        )
        ChallengeTable.objects.create(
            challenge=challenge, board=number, table=name, order=order, play_table=table
        )
    return challenge


def test_a_challenge_of_the_two_table_format_keeps_its_tables_and_result(alice: Player) -> None:
    challenge = two_table_challenge(alice, tables=[(1, "A"), (1, "B")])
    for row in challenges.challenge_tables(challenge):
        play_out(row.play_table, alice.user)
    challenge = challenges.challenge_settle(challenge_id=challenge.pk)
    rows = challenges.challenge_tables(challenge)
    assert challenge.status == Challenge.Status.FINISHED and len(rows) == 2
    by_table = {row.table: row.play_table.result["side_scores"] for row in rows}
    assert challenge.board_results == [challenge_boards.two_table_result(by_table, "twohand")]
    client = Client()
    page = client.get(f"/play/challenges/{challenge.pk}/")
    assert page.status_code == 200 and 'id="challenge-result"' in page.content.decode()
    assert "Started before challenges were compared" in page.content.decode()


def test_a_two_table_challenge_in_play_deals_no_second_sitting_of_a_board(
    alice: Player,
) -> None:
    # Its table B would deal again the cards table A showed: the format is closed instead,
    # the table not dealt counted as the human's forfeit.
    challenge = two_table_challenge(alice, tables=[(1, "A")])
    assert challenges.challenge_settle(challenge_id=challenge.pk).status == "playing"
    (first,) = challenges.challenge_tables(challenge)
    play_out(first.play_table, alice.user)
    challenge = challenges.challenge_settle(challenge_id=challenge.pk)
    rows = challenges.challenge_tables(challenge)
    assert challenge.status == Challenge.Status.FINISHED
    second = rows[1].play_table
    assert (rows[1].table, second.ply, second.result["fault"]["kind"]) == ("B", 0, "expired")
    assert len(challenge.board_results) == 1
