"""An event from creation to close: commitment, entries, boards in order, scores, par."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from django.db import IntegrityError, transaction

from arena import seeding
from arena.errors import InvalidInput
from arena.models import Player
from engine.rng import SplitMix64
from robot_events import selectors, services
from robot_events.models import RobotEvent, RobotPlay
from robot_events.standings import board_matchpoints
from tables import services as play_services
from tables.models import PlayTable
from tests.robot_events.conftest import client_for, play_board, play_table
from tournaments.hands import deal, deal_problems
from tournaments.imps import imp_thresholds

pytestmark = pytest.mark.django_db


def test_boards_are_dealt_from_the_committed_secret(event: RobotEvent) -> None:
    secret = bytes.fromhex(event.secret)
    assert event.commitment == seeding.commitment(secret)
    for board in event.board_set.all():
        digest = hmac.new(secret, board.number.to_bytes(8, "big"), hashlib.sha256).digest()
        assert board.seed == int.from_bytes(digest[:8], "big") >> 1
        assert board.dealer == (board.number - 1) % 4


def test_the_secret_is_absent_before_the_close_and_verifies_after(
    event: RobotEvent, director: Player
) -> None:
    before = selectors.event_verification(event=event)
    assert before["commitment"] == event.commitment
    assert "secret" not in before and event.secret not in str(before)
    services.robot_event_close(event=event, by=director)
    event.refresh_from_db()
    after = selectors.event_verification(event=event)
    assert after["secret"] == event.secret
    assert after["verified"] is True and after["problems"] == []
    # The published check is the one anyone can run with the revealed secret.
    seeds = {b["board"]: b["seed"] for b in after["boards"]}
    assert deal_problems(after["secret"], after["commitment"], seeds) == []


def test_a_wrong_secret_fails_the_check(event: RobotEvent) -> None:
    seeds = {b.number: b.seed for b in event.board_set.all()}
    problems = deal_problems("00" * 32, event.commitment, seeds)
    assert "the revealed secret does not match the published commitment" in problems


def _unmix(output: int) -> int:
    """The SplitMix64 state behind one output: its mixing steps are all invertible."""
    mask = 2**64 - 1
    z = output
    z ^= z >> 31 ^ z >> 62
    z = z * pow(0x94D049BB133111EB, -1, 2**64) & mask
    z ^= z >> 27 ^ z >> 54
    z = z * pow(0xBF58476D1CE4E5B9, -1, 2**64) & mask
    return z ^ (z >> 30) ^ (z >> 60)


def _next_seed_guesses(seed: int) -> set[int]:
    """Board n + 1's seed, if board n's came from one SplitMix64 stream (the lost low bit
    gives two guesses)."""
    guesses = set()
    for low in (0, 1):
        state = _unmix(seed << 1 | low)
        generator = SplitMix64(state)
        guesses.add(generator.next_u64() >> 1)
    return guesses


def test_a_revealed_board_seed_does_not_deal_the_next_board(event: RobotEvent) -> None:
    # A table reveals its seed once the hand is over. Were the boards steps of one generator
    # (as a match's are), the next board's seed would follow from it:
    match_seed = seeding.match_seed(bytes.fromhex(event.secret))
    first, second = seeding.board_seed(match_seed, 1), seeding.board_seed(match_seed, 2)
    assert second in _next_seed_guesses(first)
    # The event's boards are independent HMACs of the secret: the same attack finds nothing.
    one, two = (event.board_set.get(number=n).seed for n in (1, 2))
    assert two not in _next_seed_guesses(one)


def test_entrants_play_the_boards_in_order_and_are_matchpointed(
    event: RobotEvent, field: list[Player]
) -> None:
    ann, ben, _ = field
    ann_entry = services.robot_entry_join(event=event, player=ann)
    ben_entry = services.robot_entry_join(event=event, player=ben)
    first = play_board(ann_entry, "strong")
    assert first.board.number == 1
    second = play_board(ann_entry, "strong")
    assert second.board.number == 2
    ben_first = play_board(ben_entry, "random")
    ben_second = play_board(ben_entry, "random")
    # Every result is North-South's score minus East-West's, from the table's engine result.
    for play in (first, second, ben_first, ben_second):
        assert play.net == play.score_ns - play.score_ew  # type: ignore[operator]
    rows = {row["name"]: row for row in selectors.event_standings(event=event)}
    expected = {"Ann": 0.0, "Ben": 0.0}
    for mine, theirs in ((first, ben_first), (second, ben_second)):
        assert mine.net is not None and theirs.net is not None
        points = 2 if mine.net > theirs.net else 1 if mine.net == theirs.net else 0
        expected["Ann"] += points
        expected["Ben"] += 2 - points
    assert rows["Ann"]["matchpoints"] == expected["Ann"]
    assert rows["Ben"]["matchpoints"] == expected["Ben"]
    assert rows["Ann"]["percentage"] == 100 * expected["Ann"] / 4


def test_a_board_cannot_be_played_twice(event: RobotEvent, field: list[Player]) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = play_board(entry, "greedy")
    with pytest.raises(services.AlreadyDone):
        services.robot_play_finish(play=play, scores=[10, 0], hand=None)
    # The database itself refuses a second play of the board, whatever the service does.
    with pytest.raises(IntegrityError), transaction.atomic():
        RobotPlay.objects.create(entry=entry, board=play.board)
    play.refresh_from_db()
    assert RobotPlay.objects.filter(entry=entry).count() == 1


def test_a_started_board_is_resumed_not_started_again(
    event: RobotEvent, field: list[Player]
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = services.robot_play_start(entry=entry)
    assert services.robot_play_start(entry=entry).pk == play.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        RobotPlay.objects.create(entry=entry, board=event.board_set.get(number=2))


def test_an_entrant_who_played_every_board_has_nothing_left(
    event: RobotEvent, field: list[Player]
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play_board(entry, "greedy")
    play_board(entry, "greedy")
    with pytest.raises(services.AlreadyDone):
        services.robot_play_start(entry=entry)


def test_nobody_joins_twice_and_the_director_does_not_play(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    services.robot_entry_join(event=event, player=field[0])
    with pytest.raises(services.AlreadyDone):
        services.robot_entry_join(event=event, player=field[0])
    with pytest.raises(services.NotAllowed):
        services.robot_entry_join(event=event, player=director)
    assert event.entries.count() == 1


def test_a_closed_event_takes_no_entry_and_no_board(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    services.robot_event_close(event=event, by=director)
    with pytest.raises(InvalidInput):
        services.robot_entry_join(event=event, player=field[1])
    with pytest.raises(InvalidInput):
        services.robot_play_start(entry=entry)
    with pytest.raises(services.AlreadyDone):
        services.robot_event_close(event=event, by=director)


def test_closing_computes_each_boards_par_with_the_events_robots(
    event: RobotEvent, director: Player
) -> None:
    services.robot_event_close(event=event, by=director)
    # The par task runs in-process here (or in a worker in CI's embedded broker-less mode).
    for board in event.board_set.all():
        services.robot_board_par_compute(board_id=board.pk)
    for board in event.board_set.all():
        board.refresh_from_db()
        state = deal(event.variant, board.seed, board.dealer)
        assert state is not None
        assert board.par_ns is not None and board.par_ew is not None
        assert board.par_result is not None
        assert board.par_result["scores"] == [board.par_ns, board.par_ew]
        # A second run stores nothing new.
        assert services.robot_board_par_compute(board_id=board.pk) is None


def test_only_a_director_creates_or_closes(event: RobotEvent, field: list[Player]) -> None:
    with pytest.raises(services.NotAllowed):
        services.robot_event_create(
            director=field[0],
            name="Mine",
            variant="single4",
            boards=1,
            robots="random",
            kind="instant",
            scoring="mp",
        )
    with pytest.raises(services.NotAllowed):
        services.robot_event_close(event=event, by=field[0])
    assert RobotEvent.objects.count() == 1


def test_a_daylong_event_closes_itself_after_24_hours(director: Player) -> None:
    from datetime import timedelta

    from django.utils import timezone

    event = services.robot_event_create(
        director=director,
        name="Daylong",
        variant="auction4",
        boards=1,
        robots="random",
        kind="daylong",
        scoring="imp",
        opens=timezone.now() - timedelta(hours=25),
    )
    assert event.closes == event.opens + timedelta(hours=24)
    assert services.robot_events_close_due() == 1
    event.refresh_from_db()
    assert event.closed is not None
    assert services.robot_events_close_due() == 0


def test_the_traveller_scores_agree_with_the_standings(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entries = [services.robot_entry_join(event=event, player=p) for p in field]
    for entry, bot in zip(entries, ("strong", "greedy", "random"), strict=True):
        play_board(entry, bot)
    view = selectors.board_traveller(event=event, viewer=director, number=1)
    nets = {row["entry"]: row["net"] for row in view["rows"]}
    assert {row["entry"]: row["score"] for row in view["rows"]} == board_matchpoints(
        nets, planned=3
    )


def test_each_board_is_played_at_a_table_of_its_own_with_the_events_robots(
    event: RobotEvent, field: list[Player]
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = play_board(entry, "greedy")
    table = PlayTable.objects.get(pk=play.table_id)
    board = play.board
    assert (table.seed, table.dealer, table.variant) == (board.seed, board.dealer, "single4")
    assert table.owner == field[0].user and table.human_seat == 2
    assert [seat for i, seat in enumerate(table.seats) if i != 2] == [
        {"kind": "reference", "name": "greedy"}
    ] * 3
    assert table.return_url == f"/robots/{event.pk}/"
    assert table.result is not None
    assert [play.score_ns, play.score_ew] == table.result["side_scores"]


def test_the_close_records_a_table_its_entrant_never_came_back_from(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = services.robot_play_start(entry=entry)
    play_table(play, "random")
    play.refresh_from_db()
    assert play.finished is None
    services.robot_event_close(event=event, by=director)
    play.refresh_from_db()
    assert play.finished is not None
    table = PlayTable.objects.get(pk=play.table_id)
    # Everyone's tables are public from the close on, as the results are.
    event.refresh_from_db()
    assert table.public_after == event.closed


def test_a_table_abandoned_is_recorded_as_the_forfeit_it_scores(
    event: RobotEvent, field: list[Player]
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = services.robot_play_start(entry=entry)
    assert play.table_id is not None
    play_services.table_abandon(table_id=play.table_id, user=field[0].user)
    services.robot_plays_sync(plays=entry.plays.all())
    play.refresh_from_db()
    # The leaver's side at the worst it could still reach, the other side at its best.
    assert play.score_ns is not None and play.score_ew is not None
    assert play.score_ns < 0 < play.score_ew
    assert play.result == {"outcome": "forfeit", "fault": {"seat": 2, "kind": "abandoned"}}


def test_an_imp_event_scores_cross_imps_on_the_projects_scale(
    director: Player, field: list[Player]
) -> None:
    event = services.robot_event_create(
        director=director,
        name="IMP robots",
        variant="auction4",
        boards=1,
        robots="greedy",
        kind="instant",
        scoring="imp",
    )
    ann = play_board(services.robot_entry_join(event=event, player=field[0]), "greedy")
    ben = play_board(services.robot_entry_join(event=event, player=field[1]), "random")
    assert ann.net is not None and ben.net is not None
    # Two results: each has one comparison, the swing's IMPs from the auction4 thresholds.
    swing = ann.net - ben.net
    expected = sum(1 for threshold in imp_thresholds("auction4") if abs(swing) >= threshold)
    expected = expected if swing >= 0 else -expected
    rows = {row["name"]: row for row in selectors.event_standings(event=event)}
    assert rows["Ann"]["imps"] == expected and rows["Ben"]["imps"] == -expected
    assert rows["Ann"]["percentage"] is None


def test_a_board_played_out_opens_its_traveller_with_the_players_own_result_at_once(
    event: RobotEvent, field: list[Player]
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = services.robot_play_start(entry=entry)
    play_table(play, "greedy")
    # Straight from the table to the traveller, without the event page in between.
    response = client_for(field[0]).get(f"/api/robots/{event.pk}/boards/1/")
    assert response.status_code == 200
    assert [row["entry"] for row in response.json()["rows"]] == [entry.pk]


def test_a_board_left_opens_nothing_to_the_entrant_who_left_it_until_the_close(
    event: RobotEvent, field: list[Player], director: Player
) -> None:
    entry = services.robot_entry_join(event=event, player=field[0])
    play = services.robot_play_start(entry=entry)
    assert play.table_id is not None
    play_services.table_abandon(table_id=play.table_id, user=field[0].user)
    services.robot_plays_sync(plays=entry.plays.all())
    assert not selectors.board_visible(event=event, player=field[0], number=1)
    with pytest.raises(services.NotAllowed, match="to the end of the hand"):
        selectors.board_traveller(event=event, viewer=field[0], number=1)
    services.robot_event_close(event=event, by=director)
    event.refresh_from_db()
    assert selectors.board_visible(event=event, player=field[0], number=1)
