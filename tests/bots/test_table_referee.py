"""The table referees a board: legal actions only, faults recorded, hidden cards hidden."""

from __future__ import annotations

import doctest
from collections.abc import Mapping
from typing import Any

import bots.table
from bots import protocol
from bots.local import LocalAgent
from bots.match import combine_tables, play_table
from bots.reference.random_bot import RandomBot
from bots.sdk import Bot
from bots.table import LEGAL_SHOWN, Agent, BoardRecord
from engine.interface import AnyState
from engine.registry import load_game
from engine.rules import pinochle_rules

GAME = load_game("auction4")
RULES = pinochle_rules("auction4")


class Listening(LocalAgent):
    """Keeps every message the seat receives."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.inbox: list[dict[str, Any]] = []

    def request(
        self, message: Mapping[str, object], deadline_s: float | None = None
    ) -> dict[str, object]:
        self.inbox.append(dict(message))
        return super().request(message)

    def send(self, message: Mapping[str, object]) -> None:
        self.inbox.append(dict(message))
        super().send(message)


class Cheater(Bot):
    """Answers with an action that is never legal in the tricks."""

    def play(self, observation: dict[str, Any], legal: list[str]) -> str:
        hand = set(observation["hand"])
        missing = next(card for card in ("AS", "AH", "AD", "AC", "9S", "9H") if card not in hand)
        return f"play {missing}"


def _start(bots: dict[int, Bot], agents: dict[int, Listening]) -> Any:
    def start(table: str, seat: int) -> Agent:
        agent = Listening(bots.pop(seat, None) or RandomBot())
        hello = protocol.hello_message(
            game=RULES.game,
            variant=RULES.name,
            rules=RULES.to_json(),
            seat=seat,
            players=4,
            boards=3,
            time=protocol.TimeControl(1000, 60000, 5000),
        )
        agent.start(hello)
        agents[seat] = agent
        return agent

    return start


def test_passed_cards_are_seen_only_by_the_partners_who_exchange_them() -> None:
    agents: dict[int, Listening] = {}
    records = play_table(
        "A", game=GAME, rules=RULES, boards=[1, 2, 3], match_seed=11, start_agent=_start({}, agents)
    )
    for record in records:
        assert record.result is not None and record.fault is None
        declarer = record.result.declarer
        assert declarer is not None
        for seat, agent in agents.items():
            gives = [
                m["action"]
                for m in agent.inbox
                if m["type"] == "event"
                and m["board"] == record.board
                and m["action"].startswith("give")
            ]
            assert len(gives) == 2
            involved = seat % 2 == declarer % 2
            assert all((len(text.split()) == 5) == involved for text in gives), (seat, gives)


def test_an_illegal_action_forfeits_the_board_and_a_fresh_bot_takes_the_seat() -> None:
    agents: dict[int, Listening] = {}
    started: list[int] = []
    start = _start({1: Cheater()}, agents)

    def counting_start(table: str, seat: int) -> Agent:
        started.append(seat)
        return start(table, seat)

    records = play_table(
        "A", game=GAME, rules=RULES, boards=[1, 2], match_seed=3, start_agent=counting_start
    )
    fault = records[0].fault
    assert fault is not None
    assert (fault.seat, fault.kind) == (1, "protocol")
    assert "illegal action" in fault.reason
    # Seat 1 got a new (random) bot for board 2, which then plays legally.
    assert started.count(1) == 2
    assert records[1].fault is None


def test_the_docstring_examples_run() -> None:
    failures, tried = doctest.testmod(bots.table)
    assert failures == 0 and tried > 0


def _state_at_fault(record: BoardRecord) -> AnyState:
    """The hand as it stood at the faulting decision: the record's moves replayed."""
    state = GAME.new_initial_state(seed=record.seed, dealer=record.dealer)
    for move in record.moves:
        state.apply(GAME.parse_action(move.action))
    return state


def test_an_illegal_cards_fault_names_the_decision_and_every_legal_action() -> None:
    records = play_table(
        "A",
        game=GAME,
        rules=RULES,
        boards=[1],
        match_seed=3,
        start_agent=_start({1: Cheater()}, {}),
    )
    record = records[0]
    assert record.fault is not None
    state = _state_at_fault(record)
    assert state.current_player == 1
    view = state.observation(1)
    missing = next(c for c in ("AS", "AH", "AD", "AC", "9S", "9H") if c not in view["hand"])
    legal = [str(action) for action in state.legal_actions]
    assert len(legal) <= LEGAL_SHOWN
    # The trick the card was for: those already taken, and this one.
    trick = len(view["tricks"]) + 1
    assert record.fault.reason == (
        f"illegal action 'play {missing}' at board 1, decision {len(record.moves) + 1} of the "
        f"hand (East, seat 1, to act in phase tricks, trick {trick}); legal: {', '.join(legal)}"
    )


class PassesInsteadOfGiving(RandomBot):
    """Answers the passing of cards to the declarer with a pass of the auction."""

    def act(self, observation: dict[str, Any], legal: list[str]) -> str:
        return (
            "pass"
            if observation["phase"] == "pass_to_declarer"
            else super().act(observation, legal)
        )


def test_a_long_list_of_legal_actions_is_cut_saying_how_many_there_were() -> None:
    # RULES.md section 6: in auction4 the declarer's partner passes four cards, one of
    # hundreds of ways to choose them.
    bots: dict[int, Bot] = {seat: PassesInsteadOfGiving() for seat in range(4)}
    records = play_table(
        "A", game=GAME, rules=RULES, boards=[1], match_seed=3, start_agent=_start(bots, {})
    )
    record = records[0]
    assert record.fault is not None
    state = _state_at_fault(record)
    seat = state.current_player
    assert seat is not None and record.fault.seat == seat
    legal = [str(action) for action in state.legal_actions]
    assert len(legal) > LEGAL_SHOWN
    where = (
        f"at board 1, decision {len(record.moves) + 1} of the hand "
        f"({GAME.seat_name(seat)}, seat {seat}, to act in phase pass to declarer)"
    )
    shown = ", ".join(legal[:LEGAL_SHOWN])
    assert record.fault.reason == (
        f"illegal action 'pass' {where}; legal: {shown}, ... ({len(legal)} in all)"
    )


def _first_hand(agent: Listening) -> list[str]:
    return next(m["hand"] for m in agent.inbox if m["type"] == "hand_start")


def test_both_tables_play_the_same_deals_with_the_teams_swapped() -> None:
    assert GAME.seatings == {"A": (0, 1, 0, 1), "B": (1, 0, 1, 0)}
    agents: dict[int, Listening] = {}
    table_a = play_table(
        "A", game=GAME, rules=RULES, boards=[1, 2], match_seed=5, start_agent=_start({}, agents)
    )
    first_hands = {seat: _first_hand(agent) for seat, agent in agents.items()}
    table_b = play_table(
        "B", game=GAME, rules=RULES, boards=[1, 2], match_seed=5, start_agent=_start({}, agents)
    )
    assert {seat: _first_hand(agent) for seat, agent in agents.items()} == first_hands
    boards = combine_tables({"A": table_a, "B": table_b}, GAME, RULES)
    assert [board.board for board in boards] == [1, 2]
