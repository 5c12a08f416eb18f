"""Duplicate board results (RULES.md section 9, TOURNAMENTS.md "Duplicate for bots")."""

from __future__ import annotations

import math

import pytest

from bots.duplicate import (
    board_result,
    board_seed,
    points_share,
    seat_scores,
    summarize,
    table_result,
)
from bots.table import BoardRecord, Fault, Move
from engine.forfeit import score_bounds
from engine.registry import load_game
from engine.results import HandOutcome, HandResult, TeamResult
from engine.rules import pinochle_rules

AUCTION4 = pinochle_rules("auction4")
GAME = load_game("auction4")


def record(team0: int, team1: int) -> BoardRecord:
    def team(index: int, score: int) -> TeamResult:
        return TeamResult(
            team=index,
            seats=(index, index + 2),
            meld=0,
            meld_counted=True,
            counters=0,
            last_trick=0,
            tricks=0,
            score=score,
        )

    result = HandResult(HandOutcome.MADE, 0, 250, None, (team(0, team0), team(1, team1)))
    return BoardRecord(board=1, seed=5, dealer=0, result=result)


def test_a_board_result_adds_both_tables_from_team_xs_side() -> None:
    # Section 9: X's result = (X - Y) at table 1 + (X - Y) at table 2, X at 0/2 then 1/3.
    table_a = record(300, -250)  # X is team 0: +550
    table_b = record(200, 100)  # X is team 1: 100 - 200 = -100
    assert board_result({"A": table_a, "B": table_b}, GAME, AUCTION4) == 450


def test_identical_play_at_both_tables_is_a_tie() -> None:
    assert board_result({"A": record(310, 90), "B": record(310, 90)}, GAME, AUCTION4) == 0


def test_a_fault_forfeits_the_board_for_the_faulting_team_from_where_it_stopped() -> None:
    # RULES.md 2 and 5: at the deal, seat 3's side could still bid up to the ladder's top
    # and be set there; the other side could still score its best meld and every counter.
    faulted = BoardRecord(board=1, seed=5, dealer=0, fault=Fault(3, "timeout", "slow"))
    dealt = GAME.with_rules(AUCTION4).new_initial_state(seed=5, dealer=0)
    bounds = score_bounds(dealt)
    assert bounds.low[1] == -AUCTION4.bid_max
    assert seat_scores(faulted, GAME, AUCTION4) == (
        bounds.high[0],
        bounds.low[1],
        bounds.high[0],
        bounds.low[1],
    )
    # Once the contract is made the faulting declarer's side is at worst set.
    moves = [Move(1, "bid 250", 0.0), Move(2, "pass", 0.0), Move(3, "pass", 0.0)]
    moves.append(Move(0, "pass", 0.0))
    after = BoardRecord(board=1, seed=5, dealer=0, moves=moves, fault=Fault(1, "crash", "exit"))
    assert seat_scores(after, GAME, AUCTION4)[1] == -250


def test_a_fault_in_an_individual_game_forfeits_every_seat_of_the_faulting_bot() -> None:
    # Three players, X at seats 0 and 1: X's fault at seat 0 puts both of X's seats at
    # their lowest, since X's table result counts them both (RULES.md 9).
    game = load_game("cutthroat3")
    rules = pinochle_rules("cutthroat3")
    faulted = BoardRecord(board=1, seed=9, dealer=0, fault=Fault(0, "crash", "exit"))
    bounds = score_bounds(game.with_rules(rules).new_initial_state(seed=9, dealer=0))
    assert seat_scores(faulted, game, rules, (0, 0, 1)) == (
        bounds.low[0],
        bounds.low[1],
        bounds.high[2],
    )
    assert seat_scores(faulted, game, rules)[1] == bounds.high[1]


def test_individual_games_compare_each_bots_mean_seat_score() -> None:
    # Three players: X alone at seat 0 against Y at seats 1 and 2 scores 300 - (100+200)/2.
    game = load_game("cutthroat3")
    rules = pinochle_rules("cutthroat3")

    def three(scores: tuple[int, int, int]) -> BoardRecord:
        teams = tuple(
            TeamResult(
                team=seat,
                seats=(seat,),
                meld=0,
                meld_counted=True,
                counters=0,
                last_trick=0,
                tricks=0,
                score=score,
            )
            for seat, score in enumerate(scores)
        )
        result = HandResult(HandOutcome.MADE, 0, 250, None, teams)
        return BoardRecord(board=1, seed=5, dealer=0, result=result)

    assert table_result(three((300, 100, 200)), (0, 1, 1), game, rules) == 150
    assert len(game.seatings) == 6  # every arrangement of the two bots over three seats
    same = {name: three((100, 100, 100)) for name in game.seatings}
    assert board_result(same, game, rules) == 0


def test_the_share_of_board_points_is_the_rating_score() -> None:
    assert points_share([30, -10, 0]) == pytest.approx(0.75)
    assert points_share([0, 0]) == 0.5
    assert points_share([-5]) == 0.0


def test_the_summary_gives_a_normal_95_percent_interval() -> None:
    summary = summarize([10, -10, 30, 10])
    assert summary.mean == 10
    # sample standard deviation of (10, -10, 30, 10) is sqrt(800/3)
    assert summary.ci95 == pytest.approx(1.96 * math.sqrt(800 / 3) / 2)
    assert (summary.won, summary.lost, summary.tied) == (3, 1, 0)
    assert not summary.significant


def test_board_seeds_differ_per_board_and_repeat_per_match() -> None:
    seeds = [board_seed(99, board) for board in range(1, 51)]
    assert len(set(seeds)) == 50
    assert seeds == [board_seed(99, board) for board in range(1, 51)]
    assert board_seed(100, 1) != board_seed(99, 1)
