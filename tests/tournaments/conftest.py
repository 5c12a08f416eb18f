"""Named players, API clients and a helper that plays a board's hand for score entry."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

import pytest

import engine
from arena import services as arena_services
from arena.models import Player
from engine.cutthroat import CutthroatState
from engine.interface import Deal
from tests.people import *  # noqa: F403  (fixtures used by name)
from tests.people import PASSWORD, alice, alice_client, bob, client_for
from tournaments import selectors, services
from tournaments.hands import deal
from tournaments.models import Event

__all__ = [
    "alice",
    "alice_client",
    "bob",
    "client_for",
    "entry_payload",
    "field",
    "paper_deal",
    "play_all",
    "running_event",
    "three_hand_payload",
]


@pytest.fixture
def field(db: None) -> list[Player]:
    """Twelve club players: six pairs."""
    names = [
        "Carol",
        "Dave",
        "Erin",
        "Frank",
        "Grace",
        "Heidi",
        "Ivan",
        "Judy",
        "Mallory",
        "Niaj",
        "Olivia",
        "Peggy",
    ]
    return [
        arena_services.player_register(username=name.lower(), password=PASSWORD, display_name=name)
        for name in names
    ]


def entry_payload(variant: str, seed: int, dealer: int, play_seed: int) -> dict[str, Any]:
    """What a table would report after playing the board (a random but legal play)."""
    if variant == "cutthroat3":
        return three_hand_payload(seed, dealer, play_seed)
    state = engine.new_hand(variant, seed=seed, dealer=dealer)
    state.play_randomly(random.Random(play_seed), throw_in_rate=0.2)
    result = state.result()
    outcome = {"no_marriage": "no_marriage", "thrown_in": "thrown_in"}.get(
        result.outcome.value, "played"
    )
    return {
        "outcome": outcome,
        "declarer": result.declarer,
        "bid": result.bid,
        "trump": None if result.trump is None else str(result.trump),
        "meld": [result.teams[0].meld, result.teams[1].meld],
        "taken": [result.teams[0].taken, result.teams[1].taken],
    }


def three_hand_payload(seed: int, dealer: int, play_seed: int) -> dict[str, Any]:
    """A three-hand table's report: each player's meld and counters, the buried counters."""
    state = deal("cutthroat3", seed, dealer)
    assert isinstance(state, CutthroatState)
    state.play_randomly(random.Random(play_seed), throw_in_rate=0.2)
    result = state.result()
    assert result.declarer is not None, "a passed-out deal has no declarer to bury"
    played = result.outcome.value in ("made", "set")
    buried = sum(state.rules.card_points(card) for card in state.buried) if played else 0
    taken = [team.counters + team.last_trick for team in result.teams]
    taken[result.declarer] -= buried
    return {
        "outcome": "played" if played else "thrown_in",
        "declarer": result.declarer,
        "bid": result.bid,
        "trump": str(result.trump),
        "meld": [team.meld for team in result.teams],
        "taken": taken,
        "buried": buried,
        "scores": [team.score for team in result.teams],
    }


def running_event(
    director: Player, players: list[Player], *, rounds: int | None = None, **fields: Any
) -> Event:
    """An event entered and started through the services (no par: it has its own test)."""
    options: dict[str, Any] = {
        "name": "Club night",
        "variant": "single4",
        "movement": "mitchell",
        "boards_per_round": 2,
        "par_bot": "",
    }
    options.update(fields)
    event = services.event_create(director=director, **options)
    size = 1 if event.kind == Event.Kind.INDIVIDUAL else 2
    for start in range(0, len(players), size):
        services.entry_add(
            event=event, by=director, section_name="A", players=players[start : start + size]
        )
    return services.event_start(event=event, by=director, rounds=rounds)


def play_all(event: Event, *, skip: Collection[tuple[int, int, int]] = frozenset()) -> None:
    """Enter every table's result as the director, except the (round, table, board) given."""
    for section in event.sections.exclude(size=None):
        movement = selectors.section_movement(event=event, section=section)
        present = set(selectors.entries_by_number(section=section))
        for seating in movement.seatings:
            if not seating.playable(present):
                continue
            for number in selectors.board_numbers(event=event, board_set=seating.board_set):
                if (seating.round, seating.table, number) in skip:
                    continue
                board = event.boards.get(number=number)
                data = entry_payload(event.variant, board.seed, board.dealer, seating.table)
                services.result_enter(
                    event=event,
                    by=event.director,
                    section_name=section.name,
                    round=seating.round,
                    table=seating.table,
                    board_number=number,
                    entry=services.score_entry_from(data),
                )


def paper_deal(
    hands: Collection[Collection[engine.Card]], widow: Collection[engine.Card] = ()
) -> Deal:
    """A deal as ``Game.initial_deal`` gives it, from hands (and a widow) of cards."""
    undealt = (("widow", tuple(str(card) for card in widow)),) if widow else ()
    return Deal(tuple(tuple(str(card) for card in hand) for hand in hands), undealt)
