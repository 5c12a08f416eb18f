"""The reference pairings on a match's deals (bots.controls): the quick search bot against
greedy both ways round, and greedy at every seat, on exactly the match's cards, the same
on every run."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from bots import protocol
from bots.aivat import GreedyRollout, luck_terms
from bots.controls import (
    _CLOCK,
    CONTROL_NAMES,
    GREEDY_TABLE,
    LUCK_AUCTION_PLAYOUTS,
    LUCK_NAMES,
    LUCK_PLAYOUTS,
    QuickStrongBot,
    lost_bid,
    random_luck,
    random_side,
    reference_controls,
    reference_supported,
)
from bots.duplicate import board_seed, table_result
from bots.local import LocalAgent
from bots.match import DuplicateBoard, combine_tables, play_table
from bots.reference import reference_bots
from bots.reference.greedy import GreedyBot
from bots.reference.random_bot import RandomBot
from bots.reference.strong import StrongBot
from bots.table import Agent, BoardRecord, Fault, hello_for
from engine.interface import AnyGame
from engine.registry import load_game, register_game, unregister_game, variant_names
from engine.results import HandOutcome
from tests.engine.toy_highcard import HighCard, registered_toy


def test_the_pairings_play_the_match_deals_and_score_them() -> None:
    game = load_game("double4")
    rules = game.rules_for({})
    seen: list[BoardRecord] = []
    controls = reference_controls(game, rules, match_seed=42, boards=2, on_board=seen.append)
    assert len(controls) == 2 and all(len(row) == len(CONTROL_NAMES) for row in controls)
    # The tables are played one after the other: A, B, then greedy alone, each on every
    # board, every one the match's deal of that number.
    tables = [*game.seatings, GREEDY_TABLE]
    assert [(record.board, record.seed) for record in seen] == [
        (number, board_seed(42, number)) for _ in tables for number in (1, 2)
    ]
    by_table = {name: seen[2 * i : 2 * i + 2] for i, name in enumerate(tables)}
    for number, (duplicate, lost) in enumerate(controls, start=1):
        # The quick bot's duplicate result: half the sum of its margins at its two tables.
        margins = [
            table_result(by_table[name][number - 1], game.seatings[name], game, rules)
            for name in game.seatings
        ]
        assert Fraction(duplicate) == sum(margins, Fraction(0)) / 2
        alone = by_table[GREEDY_TABLE][number - 1].result
        failed = alone.outcome in (HandOutcome.SET, HandOutcome.THROWN_IN)
        assert lost == (float(alone.bid) if failed else 0.0)
    # Deterministic: the same deals give the same controls on any run.
    assert reference_controls(game, rules, match_seed=42, boards=2) == controls


def test_a_made_contract_loses_no_bid() -> None:
    assert lost_bid(BoardRecord(board=1, seed=1, dealer=0)) == 0.0  # no result: a fault


def test_the_quick_bot_searches_a_third_of_the_strong_bots_budget() -> None:
    assert QuickStrongBot.max_card_plays * 3 == StrongBot.max_card_plays
    assert QuickStrongBot.max_card_plays >= StrongBot.min_card_plays  # it does search


def test_only_the_four_hand_partnership_games_have_a_reference_pairing() -> None:
    assert all(reference_supported(load_game(v)) for v in ("auction4", "single4", "double4"))
    three = load_game("cutthroat3")
    assert not reference_supported(three)
    with pytest.raises(ValueError, match="no reference pairing plays cutthroat3"):
        reference_controls(three, three.rules_for({}), match_seed=1, boards=1)


def test_the_pairing_is_asked_of_the_declared_reference_bots_not_of_a_name() -> None:
    with registered_toy():
        toy = load_game("highcard")
        assert not reference_supported(toy)
        with pytest.raises(ValueError, match="highcard"):
            GreedyRollout(toy, toy.rules_for(None))

    class HighCardWithThePinochleBots(HighCard):
        bot_family = "pinochle4"

    register_game(HighCardWithThePinochleBots)
    try:
        assert reference_supported(load_game("highcard"))
    finally:
        unregister_game(HighCardWithThePinochleBots.name)


def test_the_readme_names_exactly_the_games_that_have_the_pairing() -> None:
    """The README's "Control variate" names the games whose matches get the pairing; the
    worker plays it in exactly those."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    start = readme.index("- **Control variate.**")
    named = set(re.findall(r"`(\w+)`", readme[start : readme.index("a match of 20", start)]))
    played = {v for v in variant_names() if reference_supported(load_game(v))}
    assert named == played == {"single4", "auction4", "double4"}


def test_pinnacolo_in_pairs_has_no_reference_pairing_though_it_seats_four_partners() -> None:
    """Its reference bots are its own: the pinochle pairing's bots cannot play it (they
    failed on every Pinnacolo match of 20 boards or more)."""
    pairs = load_game("pinnacolo")
    assert pairs.players == 4 and pairs.partnership
    assert not reference_supported(pairs)
    with pytest.raises(ValueError, match="no reference pairing plays pinnacolo"):
        reference_controls(pairs, pairs.rules_for({}), match_seed=1, boards=1)


def _greedy_against_random(game: AnyGame, boards: int, seed: int) -> list[DuplicateBoard]:
    """A real match of the greedy bot (X) against the random bot (Y), played here."""
    rules = game.rules_for({})
    makers = (GreedyBot, RandomBot)

    def start(table: str, seat: int) -> Agent:
        agent = LocalAgent(makers[game.seatings[table][seat]]())
        protocol.read_ready(
            agent.start(hello_for(game, rules, seat=seat, boards=boards, time=_CLOCK))
        )
        return agent

    numbers = range(1, boards + 1)
    tables = {
        name: play_table(
            name, game=game, rules=rules, boards=numbers, match_seed=seed, start_agent=start
        )
        for name in game.seatings
    }
    return combine_tables(tables, game, rules)


def test_the_random_bots_luck_counts_for_x_where_x_sits_at_0_2_and_against_it_elsewhere() -> None:
    game = load_game("auction4")
    rules = game.rules_for({})
    played = _greedy_against_random(game, boards=2, seed=9)
    rows = random_luck(game, rules, played, side=1, match_seed=9)
    assert rows is not None and all(len(row) == len(LUCK_NAMES) for row in rows)
    # The same draws, term by term: table A (X at 0/2, random at 1/3) counts 0/2's luck
    # for X, table B (random at 0/2) against it.
    rollout = GreedyRollout(game, rules)
    rng = random.Random(9)
    for board, row in zip(played, rows, strict=True):
        expected = [0.0, 0.0]
        for name, sign in (("A", 1.0), ("B", -1.0)):
            seats = {s for s, of in enumerate(game.seatings[name]) if of == 1}
            terms = luck_terms(
                board.tables[name],
                rollout=rollout,
                uniform_seats=seats,
                rng=rng,
                auction_playouts=LUCK_AUCTION_PLAYOUTS,
                playouts=LUCK_PLAYOUTS,
            )
            expected = [e + sign * t for e, t in zip(expected, terms, strict=True)]
        assert row == pytest.approx(tuple(expected), abs=1e-9)
    assert any(value != 0 for row in rows for value in row)
    # Deterministic: the same match gives the same luck.
    assert random_luck(game, rules, played, side=1, match_seed=9) == rows
    # A table ended by a fault leaves no hand to value: no luck at all.
    faulted = played[0].tables["B"]
    played[0].tables["B"] = BoardRecord(
        board=faulted.board, seed=faulted.seed, dealer=faulted.dealer, fault=Fault(1, "timeout", "")
    )
    assert random_luck(game, rules, played, side=1, match_seed=9) is None


def test_only_the_reference_random_bot_unchanged_is_known_to_choose_uniformly() -> None:
    game = load_game("single4")
    random_source = reference_bots(game)["random"].read_bytes()
    greedy_source = reference_bots(game)["greedy"].read_bytes()
    assert random_side(game, greedy_source, random_source) == 1
    assert random_side(game, random_source, greedy_source) == 0
    assert random_side(game, greedy_source, random_source + b"\n# tweaked\n") is None
    assert random_side(game, random_source, random_source) is None
