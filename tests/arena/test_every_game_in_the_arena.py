"""Every game of the engine runs in the arena unchanged: validation, duplicate, replays.

A game registered after start-up is no exception: the toy (``tests.engine.toy_highcard``,
one module that nothing else names) plays a match of SDK bots through the arena's runner
and through the match service, whose stored boards, scores and replays read back through
the game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import selectors
from arena.models import Game, Match, Player
from arena.runner import MatchPlan, VersionFiles, run_match
from arena.sandbox import SandboxConfig
from arena.services.matches import match_create
from arena.tasks import match_run_task
from bots.reference import reference_bots
from bots.table import BoardRecord
from engine.interface import AnyGame
from engine.registry import load_game
from tests.arena.conftest import FIRST_LEGAL_BOT, RANDOM_BOT, active_version, trusted_version
from tests.engine.toy_highcard import registered_toy

ROOT = Path(__file__).resolve().parents[2]
TOY_BOARDS = 3


@pytest.mark.usefixtures("plain_bots")
@pytest.mark.parametrize("variant", ["twohand", "cutthroat3", "pinnacolo2", "pinnacolo"])
def test_a_match_of_every_game_is_played_scored_and_replayable(
    variant: str,
    alice,
    bob,  # type: ignore[no-untyped-def]
) -> None:
    game = load_game(variant)
    references = reference_bots(game)
    greedy = active_version(alice, "greedy", references["greedy"].read_bytes(), variant=variant)
    rnd = active_version(bob, "random", references["random"].read_bytes(), variant=variant)
    match = match_create(version_x=greedy, version_y=rnd, boards=1, seed=3, rated=False)
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    match.refresh_from_db()
    assert match.faults == 0
    # RULES.md section 9: one table per arrangement of the two bots over the seats.
    tables = game.seatings
    games = Game.objects.filter(match=match).select_related("replay")
    assert sorted(g.table for g in games) == sorted(tables)
    for row in games:
        assert [{greedy.pk: 0, rnd.pk: 1}[version] for version in row.seat_versions] == list(
            tables[row.table]
        )
        replay = game.read_replay(row.replay.document["hand"])
        assert replay.verify() is None
    assert match.status == Match.Status.DONE
    # Every board re-derives from the seed: its seed, dealer and the cards of each table.
    report = selectors.match_verification(match=match)
    assert (report["verified"], report["problems"]) == (True, [])


@pytest.fixture
def toy() -> Iterator[AnyGame]:
    with registered_toy():
        yield load_game("highcard")


def _replays(game: AnyGame, record: BoardRecord) -> None:
    """The record's hand replays through the game: the seat of every move, and the result."""
    state = game.new_initial_state(seed=record.seed, dealer=record.dealer)
    for move in record.moves:
        assert move.seat == state.current_player
        state.apply(game.parse_action(move.action))
    assert record.result == state.result()


def test_the_runner_plays_a_match_of_a_game_registered_after_start_up(toy: AnyGame) -> None:
    plan = MatchPlan(
        game=toy,
        rules=toy.rules_for(None),
        seed=11,
        boards=TOY_BOARDS,
        x=VersionFiles(1, "module", FIRST_LEGAL_BOT),
        y=VersionFiles(2, "module", RANDOM_BOT),
        decision_ms=60_000,
        bank_ms=600_000,
        startup_ms=60_000,
    )
    config = SandboxConfig(runtime_packages=(str(ROOT / "engine"), str(ROOT / "bots")))
    outcome = run_match(plan, config=config, sandboxed=False)
    assert outcome.faults == 0
    assert [board.board for board in outcome.boards] == list(range(1, TOY_BOARDS + 1))
    for board in outcome.boards:
        # RULES.md section 9: two players, two tables, the bots changing seats.
        assert sorted(board.tables) == sorted(toy.seatings) == ["A", "B"]
        a, b = board.tables["A"], board.tables["B"]
        assert a.dealer == b.dealer == toy.board_dealer(board.board)
        for record in (a, b):
            _replays(toy, record)
            assert sum(record.result.team_scores) == 3
        # X sits at seat 0 at table A and at seat 1 at table B.
        margin_a = a.result.team_scores[0] - a.result.team_scores[1]
        margin_b = b.result.team_scores[1] - b.result.team_scores[0]
        assert board.result == margin_a + margin_b
    assert outcome.summary.total == sum(board.result for board in outcome.boards)


@pytest.mark.usefixtures("plain_bots")
def test_a_match_of_a_game_registered_after_start_up_is_stored_and_replayable(
    toy: AnyGame, alice: Player, bob: Player
) -> None:
    first = trusted_version(alice, "first", FIRST_LEGAL_BOT, variant="highcard")
    rnd = trusted_version(bob, "random", RANDOM_BOT, variant="highcard")
    match = match_create(version_x=first, version_y=rnd, boards=TOY_BOARDS, seed=5, rated=False)
    assert match_run_task.apply(args=[match.pk]).get() == "done"
    match.refresh_from_db()
    assert (match.status, match.variant, match.faults) == (Match.Status.DONE, "highcard", 0)
    assert len(match.board_results) == TOY_BOARDS
    assert match.score_x == sum(match.board_results)
    rows = Game.objects.filter(match=match).select_related("replay", "board")
    assert sorted((row.number, row.table) for row in rows) == [
        (number, table) for number in range(1, TOY_BOARDS + 1) for table in ("A", "B")
    ]
    by_board: dict[int, int] = {}
    for row in rows:
        assert [{first.pk: 0, rnd.pk: 1}[v] for v in row.seat_versions] == list(
            toy.seatings[row.table]
        )
        assert row.board.dealer == toy.board_dealer(row.number)
        document = row.replay.document
        assert document["variant"] == "highcard" and document["team_scores"] == row.team_scores
        # The stored replay reads back through the game and plays to the stored result.
        replay = load_game("highcard").read_replay(document["hand"])
        assert (replay.seed, replay.dealer) == (row.board.seed, row.board.dealer)
        state = replay.simulate()
        assert state.is_terminal()
        assert state.result().to_json() == row.result == replay.result
        assert list(state.result().team_scores) == row.team_scores
        assert len(document["timings_ms"]) == len(replay.actions) == 6
        x_seat = row.seat_versions.index(first.pk)
        margin = row.team_scores[x_seat] - row.team_scores[1 - x_seat]
        by_board[row.number] = by_board.get(row.number, 0) + margin
    assert match.board_results == [by_board[number] for number in range(1, TOY_BOARDS + 1)]
    # Every board re-derives from the chosen seed: its seed, dealer and cards.
    report = selectors.match_verification(match=match)
    assert (report["verified"], report["problems"]) == (True, [])
