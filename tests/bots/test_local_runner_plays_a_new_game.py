"""A game registered after start-up plays through the local runner unchanged: the toy
(``tests.engine.toy_highcard``, nothing else names it) is offered by ``--variant``, its
SDK bots play every table of a duplicate match, and each board's result is its tables'
trick margins (RULES.md section 9)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bots import play
from bots.sdk import Bot, FunctionBot
from bots.table import BoardRecord
from engine.interface import AnyGame
from engine.registry import load_game
from tests.engine.toy_highcard import registered_toy

BOARDS = 4


@pytest.fixture
def toy() -> Iterator[AnyGame]:
    with registered_toy():
        yield load_game("highcard")


def _first_legal() -> Bot:
    return FunctionBot(lambda observation, legal: legal[0], "first")


def _last_legal() -> Bot:
    return FunctionBot(lambda observation, legal: legal[-1], "last")


def test_the_command_line_offers_and_plays_a_game_registered_after_import(
    toy: AnyGame, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["random", "--vs", "random", "--variant", "highcard", "--boards", "3"]
    assert play.main([*argv, "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["variant"], report["boards"], report["faults"]) == ("highcard", 3, 0)
    # The random bot against itself: on every board its two tables cancel out.
    assert (report["total"], report["tied"]) == (0, 3)


def test_the_toys_duplicate_result_is_the_sum_of_its_tables_margins(toy: AnyGame) -> None:
    records: dict[str, list[BoardRecord]] = {}

    def keep(table: str, record: BoardRecord) -> None:
        records.setdefault(table, []).append(record)

    results, faults = play.run(
        _first_legal,
        _last_legal,
        game=toy,
        rules=toy.rules_for(None),
        boards=BOARDS,
        seed=7,
        on_board=keep,
    )
    assert faults == 0
    # RULES.md section 9: a game of two is played at two tables, the bots changing seats.
    assert toy.seatings == {"A": (0, 1), "B": (1, 0)}
    assert sorted(records) == ["A", "B"]
    for played in records.values():
        assert [record.board for record in played] == list(range(1, BOARDS + 1))
        for record in played:
            assert record.dealer == toy.board_dealer(record.board)
            # The record alone replays the hand: its deal and moves give its result.
            state = toy.new_initial_state(seed=record.seed, dealer=record.dealer)
            for move in record.moves:
                assert move.seat == state.current_player
                state.apply(toy.parse_action(move.action))
            assert state.is_terminal()
            assert record.result == state.result()
            assert sum(record.result.team_scores) == 3
    margins = []
    for a, b in zip(records["A"], records["B"], strict=True):
        assert (a.seed, a.dealer) == (b.seed, b.dealer)
        # X (first legal) sits at seat 0 at table A and seat 1 at table B.
        x_at_a = a.result.team_scores[0] - a.result.team_scores[1]
        x_at_b = b.result.team_scores[1] - b.result.team_scores[0]
        margins.append(x_at_a + x_at_b)
    assert results == margins
